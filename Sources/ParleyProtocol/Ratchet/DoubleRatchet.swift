import Crypto
import ParleyCrypto

extension SessionState {
    /// Encrypts `plaintext` as the next message of the sending chain (docs/PROTOCOL.md §5.3).
    ///
    /// Returns the bare message; `SessionRecord` wraps it in a prekey message while one is pending.
    public mutating func encrypt(_ plaintext: [UInt8], random: some RandomSource) throws(ProtocolError) -> RatchetMessage {
        guard plaintext.count <= ProtocolConstants.maxPlaintextSize else { throw .plaintextTooLarge }
        guard let chain = sendingChain else { throw .sessionNotReadyToSend }
        let header = MessageHeader(
            ratchetKey: sendingRatchetKey.publicKey, previousCounter: previousCounter, counter: chain.index)
        let (messageKey, next) = chain.step()
        let keys = MessageKeys(messageKey: messageKey, info: ProtocolConstants.messageKeysInfo)
        sendingChain = next
        let padded = MessagePadding.pad(plaintext, random: random)
        let ciphertext = Primitives.seal(
            key: keys.key, nonce: keys.nonce, plaintext: padded, ad: associatedData(with: header))
        return RatchetMessage(header: header, ciphertext: ciphertext)
    }

    /// Decrypts `message`, changing the state only if it authenticates (docs/PROTOCOL.md §5.4).
    ///
    /// Every failure is `ProtocolError.decryptionFailed`.
    public mutating func decrypt(_ message: RatchetMessage, random: some RandomSource) throws(ProtocolError) -> [UInt8] {
        var copy = self
        let messageKey: [UInt8]
        do {
            messageKey = try copy.advance(to: message.header, random: random)
        } catch {
            throw .decryptionFailed
        }
        let keys = MessageKeys(messageKey: messageKey, info: ProtocolConstants.messageKeysInfo)
        let padded = try Primitives.open(
            key: keys.key, nonce: keys.nonce, sealed: message.ciphertext[...],
            ad: associatedData(with: message.header))
        guard let plaintext = try? MessagePadding.unpad(padded) else { throw .decryptionFailed }
        copy.pendingPreKey = nil
        self = copy
        return plaintext
    }

    /// Moves the ratchet to `header` and returns the message key for it.
    private mutating func advance(to header: MessageHeader, random: some RandomSource) throws(ProtocolError) -> [UInt8] {
        if let key = skippedKeys.take(ratchetKey: header.ratchetKey, index: header.counter) {
            return key
        }
        if let remote = remoteRatchetKey, remote == header.ratchetKey {
            if let chain = receivingChain, header.counter < chain.index { throw .decryptionFailed }
        } else {
            try skipMessageKeys(until: header.previousCounter)
            try ratchetStep(remoteKey: header.ratchetKey, random: random)
        }
        try skipMessageKeys(until: header.counter)
        guard let chain = receivingChain else { throw .decryptionFailed }
        let (messageKey, next) = chain.step()
        receivingChain = next
        return messageKey
    }

    /// AD || header, built in one allocation because it is made for every message.
    private func associatedData(with header: MessageHeader) -> [UInt8] {
        var ad: [UInt8] = []
        ad.reserveCapacity(64 + MessageHeader.size)
        if role == .initiator {
            ad.append(contentsOf: localIdentityKey)
            ad.append(contentsOf: remoteIdentityKey)
        } else {
            ad.append(contentsOf: remoteIdentityKey)
            ad.append(contentsOf: localIdentityKey)
        }
        ad.append(contentsOf: header.ratchetKey)
        ad.appendBigEndian(header.previousCounter)
        ad.appendBigEndian(header.counter)
        return ad
    }

    /// Stores the keys of the receiving chain up to `until`, refusing jumps over `maxSkip`.
    private mutating func skipMessageKeys(until: UInt32) throws(ProtocolError) {
        guard var chain = receivingChain, let remote = remoteRatchetKey else { return }
        guard UInt64(until) <= UInt64(chain.index) + UInt64(ProtocolConstants.maxSkip) else {
            throw .decryptionFailed
        }
        while chain.index < until {
            let (messageKey, next) = chain.step()
            skippedKeys.append(ratchetKey: remote, index: chain.index, messageKey: messageKey)
            chain = next
        }
        receivingChain = chain
    }

    /// The DH ratchet step on a new remote ratchet key.
    private mutating func ratchetStep(remoteKey: [UInt8], random: some RandomSource) throws(ProtocolError) {
        previousCounter = sendingChain?.index ?? 0
        remoteRatchetKey = remoteKey
        let (rootAfterReceive, receiving) = rootKey.step(dh: try Primitives.dh(sendingRatchetKey.privateKey, remoteKey))
        receivingChain = receiving
        sendingRatchetKey = X25519KeyPair(random: random)
        let (rootAfterSend, sending) = rootAfterReceive.step(
            dh: try Primitives.dh(sendingRatchetKey.privateKey, remoteKey))
        sendingChain = sending
        rootKey = rootAfterSend
    }
}
