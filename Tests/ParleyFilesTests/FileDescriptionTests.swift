import Crypto
import Foundation
import ParleyFiles
import Testing

/// What `parley file inspect` says of a file without a key, and which key opens a FileLock package.
@Suite struct FileDescriptionTests {
    /// The lines for `bytes`, detected as `inspect` detects them.
    static func describe(_ bytes: [UInt8], knownSize: Bool = true) throws -> [String] {
        let input = MemoryInput(bytes)
        let prefix = try input.readPrefix(FileFormat.prefixLength)
        let format = try #require(FileFormat.detect(prefix))
        return try FileDescription.lines(format: format, prefix: prefix, rest: input, size: knownSize ? UInt64(bytes.count) : nil)
    }

    @Test func aV1FileNamesItsRecipientsAndSize() throws {
        let key = Curve25519.KeyAgreement.PrivateKey()
        let output = MemoryOutput()
        try FileSealer.seal(from: MemoryInput(Array(repeating: 1, count: 70_000)), to: output,
                            recipients: [.x25519(key.publicKey), .passphrase("a passphrase", logN: 14, lanes: 2)])
        for knownSize in [true, false] {
            let lines = try Self.describe(output.bytes, knownSize: knownSize)
            #expect(lines.first == "format: Parley file v1")
            #expect(lines[1] == "recipients: 2")
            #expect(lines[3].hasSuffix("(scrypt 2^14, 2 lanes)"))
            #expect(lines.last == "plaintext: 70000 bytes in 2 chunks of 64 KiB")
        }
    }

    @Test func cutOrGarbageFilesAreRefused() throws {
        let key = Curve25519.KeyAgreement.PrivateKey()
        let output = MemoryOutput()
        try FileSealer.seal(from: MemoryInput([1, 2, 3]), to: output, recipients: [.x25519(key.publicKey)])
        // Cut inside the header (a cut payload still measures: only opening it can tell).
        for cut in [9, 10, 40] {
            #expect(throws: (any Error).self) { _ = try Self.describe(Array(output.bytes.prefix(cut))) }
        }
        var garbage = Array("PRLYFILE".utf8)
        garbage += (0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        #expect(throws: (any Error).self) { _ = try Self.describe(garbage) }
    }

    @Test func aFileLockPackageOpensWithTheRightP256KeyOnly() throws {
        let key = P256.KeyAgreement.PrivateKey()
        let package = try FileLockPackage.seal(Array("secret".utf8), to: key.publicKey)
        #expect(try Self.describe(package) == ["format: FileLock package", "recipients: 1", "  1. P-256 key (Apple ECIES)", "plaintext: 6 bytes"])
        #expect(try FileLockPackage.open(package, usingAny: [.passphrase("x"), .p256(P256.KeyAgreement.PrivateKey()), .p256(key)]) == Array("secret".utf8))
        #expect(throws: FileError.cannotDecrypt) { try FileLockPackage.open(package, usingAny: [.p256(P256.KeyAgreement.PrivateKey())]) }
        #expect(throws: FileError.self) { try FileLockPackage.open(package, usingAny: [.x25519(Curve25519.KeyAgreement.PrivateKey())]) }
        #expect(throws: (any Error).self) { try FileLockPackage.open(Array(package.prefix(50)), usingAny: [.p256(key)]) }
    }
}
