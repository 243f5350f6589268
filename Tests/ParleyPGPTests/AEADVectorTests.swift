import Foundation
@testable import ParleyPGP
import Testing

/// The AEAD modes against vectors their authors published: EAX (built here from OpenSSL's CTR and CMAC) with
/// every AES-128 vector of the EAX paper, OCB (OpenSSL's) with RFC 7253's samples. Altered input must fail.
@Suite struct AEADVectorTests {
    struct EAXFile: Decodable {
        struct Vector: Decodable { let msg, key, nonce, header, cipher: String }
        let vectors: [Vector]
    }

    struct OCBFile: Decodable {
        struct Vector: Decodable { let nonce, header, msg, cipher: String }
        let key: String
        let vectors: [Vector]
    }

    private func load<T: Decodable>(_ name: String, as type: T.Type) throws -> T {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors/aead") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try JSONDecoder().decode(T.self, from: Data(contentsOf: url))
    }

    @Test func eaxPaperVectors() throws {
        let file = try load("eax-paper", as: EAXFile.self)
        #expect(file.vectors.count == 10)
        for vector in file.vectors {
            let key = [UInt8](hex: vector.key), nonce = [UInt8](hex: vector.nonce), header = [UInt8](hex: vector.header)
            let sealed = try AEADAlgorithm.eax.seal([UInt8](hex: vector.msg), key: key, nonce: nonce, associatedData: header)
            #expect(sealed.upperHex == vector.cipher)
            #expect(try AEADAlgorithm.eax.open(sealed, key: key, nonce: nonce, associatedData: header).upperHex == vector.msg)
            try expectTamperRefused(.eax, sealed, key: key, nonce: nonce, header: header)
        }
    }

    @Test func ocbRFC7253Vectors() throws {
        let file = try load("ocb-rfc7253", as: OCBFile.self)
        let key = [UInt8](hex: file.key)
        for vector in file.vectors {
            let nonce = [UInt8](hex: vector.nonce), header = [UInt8](hex: vector.header)
            // RFC 7253 uses 12-byte nonces; OpenPGP uses 15, which the same code takes (A.8 and A.10 prove that).
            let sealed = try ocb(vector.msg, nonce: nonce, header: header, key: key)
            #expect(sealed.upperHex == vector.cipher)
        }
    }

    /// OCB with RFC 7253's 12-byte nonce, through the same OpenSSL call `AEADAlgorithm.ocb` makes.
    private func ocb(_ msg: String, nonce: [UInt8], header: [UInt8], key: [UInt8]) throws -> [UInt8] {
        let plain = [UInt8](hex: msg)
        var out = [UInt8](repeating: 0, count: plain.count + 16)
        let ok = out.withUnsafeMutableBufferPointer { out in
            parleyOCB(key: key, nonce: nonce, header: header, plain: plain, out: out)
        }
        #expect(ok)
        return out
    }

    private func expectTamperRefused(_ mode: AEADAlgorithm, _ sealed: [UInt8], key: [UInt8], nonce: [UInt8], header: [UInt8]) throws {
        for index in [0, sealed.count / 2, sealed.count - 1] {
            var altered = sealed
            altered[index] ^= 0x01
            #expect(throws: PGPError.badMDC) { try mode.open(altered, key: key, nonce: nonce, associatedData: header) }
        }
        #expect(throws: PGPError.badMDC) { try mode.open(sealed, key: key, nonce: nonce, associatedData: header + [0]) }
        #expect(throws: (any Error).self) { try mode.open(Array(sealed.dropLast()), key: key, nonce: nonce, associatedData: header) }
    }

    @Test(arguments: [AEADAlgorithm.eax, .ocb, .gcm])
    func roundTripsEveryKeySizeAndRefusesTampering(mode: AEADAlgorithm) throws {
        for keySize in [16, 24, 32] {
            let key = [UInt8](repeating: 7, count: keySize), nonce = [UInt8](repeating: 9, count: mode.nonceSize)
            for length in [0, 1, 15, 16, 17, 1000] {
                let plain = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 31) }
                let sealed = try mode.seal(plain, key: key, nonce: nonce, associatedData: [1, 2, 3])
                #expect(sealed.count == length + 16)
                #expect(try mode.open(sealed, key: key, nonce: nonce, associatedData: [1, 2, 3]) == plain)
                try expectTamperRefused(mode, sealed, key: key, nonce: nonce, header: [1, 2, 3])
            }
        }
        #expect(throws: PGPError.self) { try mode.seal([1], key: [UInt8](repeating: 0, count: 16), nonce: [0], associatedData: []) }
    }
}
