#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A scratch file for output that may go out only after a check at its end (a decrypted message's MDC, a
/// signature, a received file's digest): created owner-only by mkstemp and unlinked at once, so its bytes are never
/// visible under a name and nothing is left behind, even if the process dies; and what it holds is sealed in chunks
/// under a key that lives only in this process (`ScratchCipher`). Memory stays at one chunk.
public final class SealedScratch {
    /// Why the scratch file could not be made, written or read back, in the user's words.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    let descriptor: Int32
    private let cipher = ScratchCipher()
    private var pending: [UInt8] = []
    private var sealed = [UInt8](repeating: 0, count: ScratchCipher.chunkSize + ScratchCipher.tagLength)
    private var number: UInt64 = 0
    private var finished = false
    private var released = false

    /// Creates the file in `directory` (by default the temporary directory, TMPDIR).
    public init(directory: URL = FileManager.default.temporaryDirectory) throws(Failure) {
        var template = Array((directory.path + "/parley-spool-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw Failure(description: "cannot create a temporary file in \(directory.path): check it is writable (TMPDIR)")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.descriptor = descriptor
        pending.reserveCapacity(ScratchCipher.chunkSize)
    }

    deinit { close(descriptor) }

    /// Adds `bytes` (valid only during the call).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        precondition(!finished, "written to a scratch file after its last chunk")
        var rest = bytes[...]
        while !rest.isEmpty {
            let taken = rest.prefix(ScratchCipher.chunkSize - pending.count)
            pending.append(contentsOf: taken)
            rest = rest.dropFirst(taken.count)
            if pending.count == ScratchCipher.chunkSize { try sealPending(last: false) }
        }
    }

    /// Adds `bytes`.
    public func write(_ bytes: [UInt8]) throws(Failure) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(Failure) in try write(buffer) } }.get()
    }

    /// Writes the last (short, possibly empty) chunk: nothing may be written afterwards. `release` does it if it was
    /// not done.
    public func finish() throws(Failure) {
        guard !finished else { return }
        try sealPending(last: true)
        finished = true
    }

    /// Copies everything written to the open descriptor `destination` (standard output, a device or a pipe), each chunk opened and checked
    /// before any of it goes out. Once only.
    public func release(to destination: Int32) throws(Failure) {
        precondition(!released, "a scratch file released twice")
        released = true
        try finish()
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw Failure(description: "lost the temporary output: could not rewind it") }
        var plain = [UInt8](repeating: 0, count: ScratchCipher.chunkSize)
        var number: UInt64 = 0
        while true {
            let length = try readSealedChunk()
            // Only the last chunk is shorter than a whole one.
            let last = length < sealed.count
            let opened = sealed.withUnsafeBytes { sealed in
                plain.withUnsafeMutableBytes { cipher.open(UnsafeRawBufferPointer(rebasing: sealed[0..<length]), number: number, last: last, into: $0) }
            }
            guard let opened else { throw Self.altered }
            try plain.withUnsafeBytes { plain in
                Result { () throws(Failure) in
                    try Self.writeAll(UnsafeRawBufferPointer(rebasing: plain[0..<opened]), to: destination, what: "the output")
                }
            }.get()
            number += 1
            if last { break }
        }
        guard try readSealedChunk() == 0 else { throw Self.altered }
    }

    private func sealPending(last: Bool) throws(Failure) {
        let length = pending.withUnsafeBytes { chunk in
            sealed.withUnsafeMutableBytes { cipher.seal(chunk, number: number, last: last, into: $0) }
        }
        try sealed.withUnsafeBytes { sealed in
            Result { () throws(Failure) in
                try Self.writeAll(UnsafeRawBufferPointer(rebasing: sealed[0..<length]), to: descriptor, what: "the temporary output")
            }
        }.get()
        number += 1
        pending.removeAll(keepingCapacity: true)
    }

    /// Reads up to one sealed chunk into `sealed`; returns how many bytes (fewer only at the end of the file).
    private func readSealedChunk() throws(Failure) -> Int {
        var filled = 0
        while filled < sealed.count {
            let count = sealed.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "could not read the temporary output: \(String(cString: strerror(errno)))")
            }
            filled += count
        }
        return filled
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, what: String) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
            let wrote = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            #else
            let wrote = Darwin.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            #endif
            if wrote >= 0 {
                offset += wrote
            } else if errno != EINTR {
                throw Failure(description: "could not write \(what): \(String(cString: strerror(errno)))")
            }
        }
    }

    private static let altered = Failure(
        description: "the temporary output was changed while parley ran (by another program?); check TMPDIR and run the command again")
}
