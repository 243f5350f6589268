/// A string-to-key specifier (RFC 4880 §3.7): how a pass phrase becomes a symmetric key.
public struct S2K: Sendable, Equatable {
    /// The specifier types Parley implements.
    public enum Kind: Sendable, Equatable {
        case simple
        case salted(salt: [UInt8])
        case iteratedSalted(salt: [UInt8], countByte: UInt8)
        /// Argon2id (RFC 9580 §3.7.1.4): 16-byte salt, passes t, lanes p, memory 2^m KiB.
        case argon2(salt: [UInt8], passes: UInt8, parallelism: UInt8, memoryExponent: UInt8)
    }

    /// The hash the key is derived with.
    public let hash: HashAlgorithm
    /// The specifier type and its parameters.
    public let kind: Kind

    /// Builds a specifier.
    public init(hash: HashAlgorithm, kind: Kind) {
        self.hash = hash
        self.kind = kind
    }

    /// Reads a specifier; GNU's "dummy" (stub) keys and unknown types are unsupported.
    static func read(from reader: inout PacketReader) throws -> S2K {
        let type = try reader.u8()
        switch type {
        case 0:
            return S2K(hash: try .from(reader.u8()), kind: .simple)
        case 1:
            let hash = try HashAlgorithm.from(reader.u8())
            return S2K(hash: hash, kind: .salted(salt: try reader.take(8)))
        case 3:
            let hash = try HashAlgorithm.from(reader.u8())
            let salt = try reader.take(8)
            return S2K(hash: hash, kind: .iteratedSalted(salt: salt, countByte: try reader.u8()))
        case 4:
            let salt = try reader.take(16)
            let passes = try reader.u8(), parallelism = try reader.u8(), memory = try reader.u8()
            // Checked here, so a hostile packet is refused when read, before any memory is asked for.
            try Argon2.check(passes: passes, parallelism: parallelism, memoryExponent: memory)
            // The hash field has no meaning for Argon2; SHA-256 stands in.
            return S2K(hash: .sha256, kind: .argon2(salt: salt, passes: passes, parallelism: parallelism, memoryExponent: memory))
        case 101:
            throw PGPError.unsupported("GNU stub secret key (the secret part is not in this export)")
        default:
            throw PGPError.unsupported("S2K type \(type)")
        }
    }

    /// The wire form of the specifier.
    var encoded: [UInt8] {
        switch kind {
        case .simple: [0, hash.rawValue]
        case .salted(let salt): [1, hash.rawValue] + salt
        case .iteratedSalted(let salt, let countByte): [3, hash.rawValue] + salt + [countByte]
        case .argon2(let salt, let passes, let parallelism, let memory): [4] + salt + [passes, parallelism, memory]
        }
    }

    /// The number of bytes an iterated S2K hashes, decoded from its one-byte form.
    static func iterationCount(_ countByte: UInt8) -> Int {
        (16 + Int(countByte & 15)) << (Int(countByte >> 4) + 6)
    }

    /// How many bytes `deriveKey` hashes for a `length`-byte key from a `passphraseCount`-byte pass phrase:
    /// the work a specifier from a stranger asks of the reader.
    func work(passphraseCount: Int, length: Int) -> Int {
        // Argon2 fills its memory once per pass at roughly 16 times the speed SHA-256 hashes: counted that way,
        // one derivation at the RFC's 2 GiB costs a quarter of a reader's default budget.
        if case .argon2(_, let passes, _, let memory) = kind { return Int(passes) << (Int(memory) + 10 - 4) }
        let contexts = (length + hash.digestSize - 1) / hash.digestSize
        let perContext = switch kind {
        case .simple: passphraseCount
        case .salted: 8 + passphraseCount
        case .iteratedSalted(_, let countByte): max(S2K.iterationCount(countByte), 8 + passphraseCount)
        case .argon2: 0
        }
        return contexts * perContext
    }

    /// Derives a `length`-byte key from `passphrase`.
    ///
    /// Keys longer than one digest use extra hash contexts preloaded with zero bytes, as the RFC says.
    func deriveKey(passphrase: [UInt8], length: Int) throws -> [UInt8] {
        if case .argon2(let salt, let passes, let parallelism, let memory) = kind {
            return try Argon2.derive(password: passphrase, salt: salt, passes: passes, parallelism: parallelism,
                                     memoryExponent: memory, length: length)
        }
        var key: [UInt8] = []
        var context = 0
        while key.count < length {
            var hasher = hash.hasher()
            hasher.update([UInt8](repeating: 0, count: context))
            switch kind {
            case .simple:
                hasher.update(passphrase)
            case .salted(let salt):
                hasher.update(salt + passphrase)
            case .iteratedSalted(let salt, let countByte):
                let unit = salt + passphrase
                let total = max(S2K.iterationCount(countByte), unit.count)
                // Hash in large repeated blocks: the count is often tens of megabytes.
                let repeats = max(1, 65536 / max(unit.count, 1))
                let block = [UInt8]((0..<repeats).flatMap { _ in unit })
                var done = 0
                while total - done >= block.count {
                    hasher.update(block)
                    done += block.count
                }
                if total > done { hasher.update(block[0..<(total - done)]) }
            case .argon2:
                break  // returned above
            }
            key += hasher.finalize()
            context += 1
        }
        return Array(key.prefix(length))
    }
}
