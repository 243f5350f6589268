import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Encrypts a SEIPD v1 body as a stream: random prefix, the data, then the MDC, in full-block CFB.
///
/// Plaintext is gathered into stages of `stageSize` bytes. CFB encryption is serial (each block needs
/// the ciphertext of the one before) and the slowest pass, so it runs in a `BackgroundPass`, one stage
/// at a time, while this thread hashes that stage for the MDC, writes out the stage encrypted before
/// it, and returns to its caller to read and frame the next. Two stage buffers alternate: the one
/// being encrypted and the one being filled.
final class SEIPDEncryptingSink: PGPSink {
    /// 256 KiB, a multiple of the block size: large enough that handing a stage to the other thread
    /// costs little, small enough to stay in cache.
    static let stageSize = 1 << 18
    /// The MDC packet: its two header octets and the SHA-1 digest, added to the last stage.
    private static let mdcLength = 22
    private let next: PGPSink
    /// The chaining state; while a stage is being encrypted, the background pass has the current one.
    private var cfb: CFBStream
    private var sha1 = Insecure.SHA1()
    /// The stage being filled (`filling`, holding `filled` bytes) and the one the background pass may be
    /// reading. Owned here, allocated once, and freed only after the pass has finished.
    private var filling: UnsafeMutableRawBufferPointer
    private var spare: UnsafeMutableRawBufferPointer
    private var filled = 0
    private let cipherPass = BackgroundPass<(CFBStream, Data)>()

    init(sessionKey: SessionKey, next: PGPSink) throws {
        self.next = next
        cfb = CFBStream(key: sessionKey.key, encrypting: true)
        filling = .allocate(byteCount: Self.stageSize + Self.mdcLength, alignment: 16)
        spare = .allocate(byteCount: Self.stageSize + Self.mdcLength, alignment: 16)
        var generator = SystemRandomNumberGenerator()
        var prefix = (0..<sessionKey.algorithm.blockSize).map { _ in UInt8.random(in: 0...255, using: &generator) }
        prefix += prefix.suffix(2)
        try next.write([1])
        try write(prefix)
    }

    deinit {
        // After a failure the pass may still be reading `spare`: it must end before the memory goes.
        cipherPass.abandon()
        filling.deallocate()
        spare.deallocate()
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let take = min(bytes.count - offset, Self.stageSize - filled)
            UnsafeMutableRawBufferPointer(rebasing: filling[filled..<(filled + take)])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + take)]))
            filled += take
            offset += take
            if filled == Self.stageSize { try encryptFilledStage() }
        }
    }

    func finish() throws {
        let earlier = try collectEncryptedStage()
        // The MDC packet's own header is hashed too, then its digest is encrypted with the rest.
        filling[filled] = 0xD3
        filling[filled + 1] = 0x14
        filled += 2
        sha1.update(bufferPointer: UnsafeRawBufferPointer(rebasing: filling[..<filled]))
        for byte in sha1.finalize() {
            filling[filled] = byte
            filled += 1
        }
        if let earlier { try write(ciphertext: earlier) }
        try write(ciphertext: cfb.process(UnsafeRawBufferPointer(rebasing: filling[..<filled])))
        filled = 0
        try next.finish()
    }

    /// Hands the full stage to the background pass, then hashes it and writes out the stage before it
    /// while the pass encrypts.
    private func encryptFilledStage() throws {
        let earlier = try collectEncryptedStage()
        swap(&filling, &spare)
        filled = 0
        // The pass reads `spare`, which nothing here writes until the pass is collected.
        let stage = SharedStage(bytes: UnsafeRawBufferPointer(rebasing: spare[..<Self.stageSize]))
        let cfb = self.cfb
        cipherPass.start {
            var cfb = cfb
            let ciphertext = try cfb.process(stage.bytes)
            return (cfb, ciphertext)
        }
        sha1.update(bufferPointer: stage.bytes)
        if let earlier { try write(ciphertext: earlier) }
    }

    /// Waits for the stage in the background pass, if any, and takes back the chaining state.
    private func collectEncryptedStage() throws -> Data? {
        guard let (cfb, ciphertext) = try cipherPass.wait() else { return nil }
        self.cfb = cfb
        return ciphertext
    }

    private func write(ciphertext: Data) throws {
        try ciphertext.withUnsafeBytes { try next.write($0) }
    }
}

/// A stage buffer lent to the background pass, which only reads it, while its owner leaves it alone.
private struct SharedStage: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
}
