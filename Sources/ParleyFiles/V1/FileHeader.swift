import ParleyCrypto

/// The v1 header: stanzas, the header MAC and the payload nonce. Pure values; no I/O.
///
/// `magic(8) || version(1) || flags(1) || count(u16) || stanzas || mac(32) || payloadNonce(16)`.
public struct FileHeader: Sendable, Equatable {
    /// One wrapped file key per recipient, in file order.
    public let stanzas: [Stanza]
    /// HMAC-SHA256 of `encodedStanzas` under the file key's MAC key.
    public let mac: [UInt8]
    /// The HKDF salt of the payload key.
    public let payloadNonce: [UInt8]

    /// Creates a header from its parts; `validate` checks the stanza rules.
    public init(stanzas: [Stanza], mac: [UInt8], payloadNonce: [UInt8]) {
        self.stanzas = stanzas
        self.mac = mac
        self.payloadNonce = payloadNonce
    }

    /// Builds the header for `stanzas` and authenticates it with `fileKey`.
    static func make(stanzas: [Stanza], fileKey: [UInt8], payloadNonce: [UInt8]) throws -> FileHeader {
        try validate(kinds: stanzas.map(\.kind), error: FileError.invalidRecipients)
        let mac = FileFormatV1.headerMAC(fileKey: fileKey, header: encodeMACInput(stanzas))
        return FileHeader(stanzas: stanzas, mac: mac, payloadNonce: payloadNonce)
    }

    /// The bytes the MAC covers: magic through the last stanza.
    public var macInput: [UInt8] { Self.encodeMACInput(stanzas) }

    /// The whole header as written: MAC input, MAC, payload nonce.
    public var encoded: [UInt8] { macInput + mac + payloadNonce }

    /// Whether `fileKey` authenticates this header.
    func verifies(fileKey: [UInt8]) -> Bool {
        ConstantTime.equals(FileFormatV1.headerMAC(fileKey: fileKey, header: macInput), mac)
    }

    static func encodeMACInput(_ stanzas: [Stanza]) -> [UInt8] {
        var out = FileFormatV1.magic + [FileFormatV1.version, 0]
        out.appendBigEndian(UInt16(stanzas.count))
        for stanza in stanzas { out += stanza.encoded }
        return out
    }

    /// Reads a header through `read`, which returns exactly the bytes asked for or throws.
    ///
    /// The caller has already checked the magic is present; everything after it is checked here.
    public static func decode(read: (Int) throws -> [UInt8]) throws -> FileHeader {
        let start = try read(12)
        guard Array(start[0..<8]) == FileFormatV1.magic else { throw FileError.notEncryptedFile }
        guard start[8] == FileFormatV1.version else { throw FileError.unsupportedVersion("file version \(start[8])") }
        guard start[9] == 0 else { throw FileError.unsupportedVersion("header flags") }
        let count = Int(start[10]) << 8 | Int(start[11])
        guard (1...FileFormatV1.maximumStanzas).contains(count) else {
            throw FileError.malformed("recipient count \(count) is outside 1…\(FileFormatV1.maximumStanzas)")
        }
        var stanzas: [Stanza] = []
        for index in 0..<count {
            let prefix = try read(3)
            guard let kind = StanzaKind(rawValue: prefix[0]) else {
                throw FileError.unsupportedVersion("recipient kind \(prefix[0]) (stanza \(index + 1))")
            }
            let length = Int(prefix[1]) << 8 | Int(prefix[2])
            guard length == kind.bodyLength else {
                throw FileError.malformed("stanza \(index + 1) (\(kind)) is \(length) bytes, not \(kind.bodyLength)")
            }
            let body = try read(length)
            if kind.isPassphrase, let problem = Stanza(kind: kind, body: body).scryptParametersProblem {
                throw FileError.malformed(problem)
            }
            stanzas.append(Stanza(kind: kind, body: body))
        }
        try validate(kinds: stanzas.map(\.kind), error: FileError.malformed)
        let mac = try read(FileFormatV1.macLength)
        let nonce = try read(FileFormatV1.payloadNonceLength)
        return FileHeader(stanzas: stanzas, mac: mac, payloadNonce: nonce)
    }

    /// The set rules: 1…64 stanzas, at most one passphrase, no post-quantum beside classic keys.
    static func validate(kinds: [StanzaKind], error: (String) -> FileError) throws {
        guard (1...FileFormatV1.maximumStanzas).contains(kinds.count) else {
            throw error("a file has 1 to \(FileFormatV1.maximumStanzas) recipients, not \(kinds.count)")
        }
        guard kinds.filter(\.isPassphrase).count <= 1 else {
            throw error("a file has at most one passphrase")
        }
        if kinds.contains(.xwing), kinds.contains(where: \.isClassicPublicKey) {
            throw error(
                "post-quantum (X-Wing) and classic (P-256, X25519) recipients cannot be mixed: anyone who breaks "
                    + "a classic recipient's key reads the file, so the post-quantum protection would be lost; "
                    + "seal a separate file for each group")
        }
    }

    /// The file key, if `identity` unwraps a stanza and that key authenticates the header.
    ///
    /// Throws `noMatchingRecipient` when no stanza has the identity's kind, and the opaque
    /// `cannotDecrypt` when stanzas of that kind exist but none yields an authentic key.
    func fileKey(for identities: [FileIdentity]) throws -> [UInt8] {
        let usable = identities.filter { identity in stanzas.contains { identity.opens($0.kind) } }
        guard !usable.isEmpty else {
            throw FileError.noMatchingRecipient(
                needed: identities.map(\.kind.description).joined(separator: " or "),
                present: stanzas.map(\.kind.description))
        }
        for identity in usable {
            for stanza in stanzas where identity.opens(stanza.kind) {
                if let key = try stanza.unwrap(with: identity), verifies(fileKey: key) { return key }
            }
        }
        throw FileError.cannotDecrypt
    }
}
