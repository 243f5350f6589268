import Crypto
import ParleyCrypto

/// One sender chain of one group member (docs/PROTOCOL.md §8).
///
/// Our own chain carries the signing private key; a chain received from another member
/// carries only the public key.
public struct SenderKeyState: Sendable {
    /// SHA-256 of the chain's initial chain key.
    public let chainId: [UInt8]
    /// The chain key and its iteration.
    var chain: ChainKey
    /// The chain's Ed25519 public key, which verifies every message on it.
    public let signingPublic: [UInt8]
    /// The signing private key; only in our own chains.
    let signingPrivate: Curve25519.Signing.PrivateKey?
    /// Keys of iterations that were skipped over.
    var skippedKeys: SkippedMessageKeys

    /// Creates a state from its parts.
    init(
        chainId: [UInt8], chain: ChainKey, signingPublic: [UInt8],
        signingPrivate: Curve25519.Signing.PrivateKey?, skippedKeys: SkippedMessageKeys
    ) {
        self.chainId = chainId
        self.chain = chain
        self.signingPublic = signingPublic
        self.signingPrivate = signingPrivate
        self.skippedKeys = skippedKeys
    }

    /// A fresh own chain: draws 32 bytes of chain key, then a 32-byte signing seed.
    public static func newChain(random: some RandomSource) -> SenderKeyState {
        let chainKey = random.bytes(32)
        // 32 bytes always make a valid Ed25519 seed.
        let signing = try! Curve25519.Signing.PrivateKey(rawRepresentation: random.bytes(32))
        return SenderKeyState(
            chainId: Array(SHA256.hash(data: chainKey)), chain: ChainKey(key: chainKey, index: 0),
            signingPublic: Array(signing.publicKey.rawRepresentation), signingPrivate: signing,
            skippedKeys: SkippedMessageKeys())
    }

    /// A chain received from another member.
    public init(distribution: SenderKeyDistributionMessage) throws(ProtocolError) {
        if distribution.iteration == 0 {
            let expected = Array(SHA256.hash(data: distribution.chainKey))
            guard ConstantTime.equals(expected, distribution.chainId) else { throw .invalidDistribution }
        }
        guard (try? Curve25519.Signing.PublicKey(rawRepresentation: distribution.signingPublic)) != nil else {
            throw .invalidDistribution
        }
        self.init(
            chainId: distribution.chainId, chain: ChainKey(key: distribution.chainKey, index: distribution.iteration),
            signingPublic: distribution.signingPublic, signingPrivate: nil, skippedKeys: SkippedMessageKeys())
    }

    /// The iteration the next message will use.
    public var iteration: UInt32 { chain.index }

    /// Whether this is one of our own chains.
    public var isOwn: Bool { signingPrivate != nil }

    /// The distribution message that hands this chain, from its current iteration on, to another member.
    public var distributionMessage: SenderKeyDistributionMessage {
        SenderKeyDistributionMessage(
            chainId: chainId, iteration: chain.index, chainKey: chain.key, signingPublic: signingPublic)
    }

    /// Encrypts and signs the next group message on our own chain.
    public mutating func encrypt(
        _ plaintext: [UInt8], groupId: String, random: some RandomSource
    ) throws(ProtocolError) -> GroupMessage {
        guard let signingPrivate else { throw .noSendingChain }
        guard plaintext.count <= ProtocolConstants.maxPlaintextSize else { throw .plaintextTooLarge }
        guard chain.index < UInt32.max else { throw .noSendingChain }
        let iteration = chain.index
        let (messageKey, next) = chain.step()
        let keys = MessageKeys(messageKey: messageKey, info: ProtocolConstants.senderKeyInfo)
        let ciphertext = Primitives.seal(
            key: keys.key, nonce: keys.nonce, plaintext: MessagePadding.pad(plaintext, random: random),
            ad: associatedData(groupId: groupId, iteration: iteration))
        let signed = GroupMessage.signedBytes(chainId: chainId, iteration: iteration, ciphertext: ciphertext)
        let signature: [UInt8]
        do {
            signature = Array(try signingPrivate.signature(for: signed))
        } catch {
            throw .malformed("signing key")
        }
        chain = next
        return GroupMessage(chainId: chainId, iteration: iteration, ciphertext: ciphertext, signature: signature)
    }

    /// Verifies, then decrypts a group message; changes the state only on success.
    public mutating func decrypt(_ message: GroupMessage, groupId: String) throws(ProtocolError) -> [UInt8] {
        guard message.chainId == chainId else { throw .unknownSenderChain }
        // The signature is checked before anything else touches the ciphertext.
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: signingPublic),
            key.isValidSignature(message.signature, for: message.signedBytes)
        else { throw .decryptionFailed }
        var copy = self
        let messageKey = try copy.messageKey(for: message.iteration)
        let keys = MessageKeys(messageKey: messageKey, info: ProtocolConstants.senderKeyInfo)
        let padded = try Primitives.open(
            key: keys.key, nonce: keys.nonce, sealed: message.ciphertext[...],
            ad: associatedData(groupId: groupId, iteration: message.iteration))
        guard let plaintext = try? MessagePadding.unpad(padded) else { throw .decryptionFailed }
        self = copy
        return plaintext
    }

    /// The key for `iteration`, from the skipped keys or by stepping the chain (at most 256 ahead).
    private mutating func messageKey(for iteration: UInt32) throws(ProtocolError) -> [UInt8] {
        if iteration < chain.index {
            guard let key = skippedKeys.take(ratchetKey: [], index: iteration) else { throw .decryptionFailed }
            return key
        }
        guard UInt64(iteration) <= UInt64(chain.index) + UInt64(ProtocolConstants.maxSkip) else {
            throw .decryptionFailed
        }
        while chain.index < iteration {
            let (messageKey, next) = chain.step()
            skippedKeys.append(ratchetKey: [], index: chain.index, messageKey: messageKey)
            chain = next
        }
        let (messageKey, next) = chain.step()
        chain = next
        return messageKey
    }

    /// groupId (UTF-8) || chainId || iteration (u32 BE).
    private func associatedData(groupId: String, iteration: UInt32) -> [UInt8] {
        var ad = Array(groupId.utf8)
        ad.append(contentsOf: chainId)
        ad.appendBigEndian(iteration)
        return ad
    }
}
