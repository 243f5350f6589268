import Crypto
import ParleyCrypto
import Testing

@Suite("Device pairing code and channel")
struct PairingTests {
    struct File: Decodable {
        struct Code: Decodable { let pairID: UInt32, secret: String, text: String }
        struct Channel: Decodable {
            let pairID: UInt32, secret: String, newPrivate: String, oldPrivate: String, newPublic: String,
                oldPublic: String, key: String
        }
        struct Box: Decodable { let nonce: String, plaintext: String, sealed: String }
        struct Chunk: Decodable { let index: UInt32, last: Bool, nonce: String, plaintext: String, sealed: String }
        struct Invalid: Decodable { let why: String, sealed: String, error: String }
        let codes: [Code], lenientBase: String, lenientSpellings: [String], invalidCodes: [String]
        let channel: Channel, keysBox: Box, chunks: [Chunk], invalidBoxes: [Invalid], invalidPayloads: [String]
    }

    struct FixedRandom: RandomSource {
        let value: [UInt8]
        func bytes(_ count: Int) -> [UInt8] { Array(value.prefix(count)) }
    }

    static let file: File = try! Vectors.load("pairing")

    static func channels() throws -> (new: PairingChannel, old: PairingChannel) {
        let vector = file.channel
        let code = PairingCode(pairID: vector.pairID, secret: [UInt8](hex: vector.secret))
        let newKey = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](hex: vector.newPrivate))
        let oldKey = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](hex: vector.oldPrivate))
        let newPublic = [UInt8](hex: vector.newPublic), oldPublic = [UInt8](hex: vector.oldPublic)
        return (
            try PairingChannel(code: code, ownPrivate: newKey, newDevicePublic: newPublic, authorizingPublic: oldPublic, role: .newDevice),
            try PairingChannel(code: code, ownPrivate: oldKey, newDevicePublic: newPublic, authorizingPublic: oldPublic, role: .authorizingDevice))
    }

    @Test("codes print and parse as the independent vectors say")
    func codes() throws {
        for vector in Self.file.codes {
            let code = PairingCode(pairID: vector.pairID, secret: [UInt8](hex: vector.secret))
            #expect(code.text == vector.text)
            #expect(try PairingCode(parsing: vector.text) == code)
        }
        let base = try PairingCode(parsing: Self.file.lenientBase)
        for spelling in Self.file.lenientSpellings {
            #expect(try PairingCode(parsing: spelling) == base, "\(spelling)")
        }
        for text in Self.file.invalidCodes {
            #expect(throws: PairingError.notAPairingCode, "\(text)") { try PairingCode(parsing: text) }
        }
    }

    @Test("hostile code text: long, control characters, non-ASCII")
    func hostileCodes() {
        for text in [String(repeating: "0", count: 100_000), "0000\u{0}0000000000000000", "٠٠٠٠-٠٠٠٠-٠٠٠٠-٠٠٠٠-٠٠٠٠", "🔑"] {
            #expect(throws: PairingError.notAPairingCode) { try PairingCode(parsing: text) }
        }
        #expect(!"\(PairingCode(pairID: 1, secret: [1, 2, 3, 4, 5, 6, 7, 8]))".contains("1, 2"))
    }

    @Test("both sides derive the vector's key and open each other's boxes")
    func channel() throws {
        let (new, old) = try Self.channels()
        #expect(new.keyMatches([UInt8](hex: Self.file.channel.key)))
        #expect(old.keyMatches([UInt8](hex: Self.file.channel.key)))
        let box = Self.file.keysBox
        #expect(old.sealKeys([UInt8](hex: box.plaintext), random: FixedRandom(value: [UInt8](hex: box.nonce))).hex == box.sealed)
        #expect(try new.openKeys([UInt8](hex: box.sealed)) == [UInt8](hex: box.plaintext))
        for chunk in Self.file.chunks {
            let sealed = old.sealChunk([UInt8](hex: chunk.plaintext), index: chunk.index, last: chunk.last,
                                       random: FixedRandom(value: [UInt8](hex: chunk.nonce)))
            #expect(sealed.hex == chunk.sealed)
            #expect(try new.openChunk(sealed, index: chunk.index, last: chunk.last) == [UInt8](hex: chunk.plaintext))
            // Reordered, or a middle chunk presented as the last: refused.
            #expect(throws: PairingError.cannotDecrypt) { try new.openChunk(sealed, index: chunk.index + 1, last: chunk.last) }
            #expect(throws: PairingError.cannotDecrypt) { try new.openChunk(sealed, index: chunk.index, last: !chunk.last) }
        }
        let payload = try PairingKeys(decoding: [UInt8](hex: box.plaintext))
        #expect(payload.email == "ann@example.org" && payload.accountID == 7)
        #expect(payload.encoded() == [UInt8](hex: box.plaintext))
        #expect(!"\(payload)".contains(payload.identitySeed.hex))
    }

    @Test("damaged, foreign-version, tampered and wrong-code boxes are refused")
    func invalidBoxes() throws {
        let (new, _) = try Self.channels()
        for vector in Self.file.invalidBoxes {
            let expected: PairingError = switch vector.error {
            case "corrupt": .corrupt
            case "unsupportedVersion": .unsupportedVersion
            default: .cannotDecrypt
            }
            #expect(throws: expected, "\(vector.why)") { try new.openKeys([UInt8](hex: vector.sealed)) }
        }
        for payload in Self.file.invalidPayloads {
            #expect(throws: PairingError.notAPairingPayload) { try PairingKeys(decoding: [UInt8](hex: payload)) }
        }
    }

    @Test("a swapped ephemeral key (a meddling server) yields a key that opens nothing")
    func swappedKey() throws {
        let vector = Self.file.channel
        let code = PairingCode(pairID: vector.pairID, secret: [UInt8](hex: vector.secret))
        let attacker = Curve25519.KeyAgreement.PrivateKey()
        let oldKey = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](hex: vector.oldPrivate))
        let fooled = try PairingChannel(
            code: code, ownPrivate: oldKey, newDevicePublic: Array(attacker.publicKey.rawRepresentation),
            authorizingPublic: [UInt8](hex: vector.oldPublic), role: .authorizingDevice)
        let (new, _) = try Self.channels()
        #expect(throws: PairingError.cannotDecrypt) { try new.openKeys(fooled.sealKeys([1, 2, 3])) }
        #expect(throws: PairingError.invalidPublicKey) {
            try PairingChannel(code: code, ownPrivate: oldKey, newDevicePublic: [UInt8](repeating: 0, count: 32),
                               authorizingPublic: [UInt8](hex: vector.oldPublic), role: .authorizingDevice)
        }
        #expect(throws: PairingError.invalidPublicKey) {
            try PairingChannel(code: code, ownPrivate: oldKey, newDevicePublic: [1, 2, 3],
                               authorizingPublic: [UInt8](hex: vector.oldPublic), role: .authorizingDevice)
        }
    }
}
