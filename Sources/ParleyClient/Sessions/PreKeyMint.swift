import ParleyProtocol
import ParleyWire

/// Makes this device's prekeys (docs/CLIENT.md §2) and keeps them topped up at the server: a new signed and PQ
/// prekey, batches of one-time prekeys, the private halves stored — with the key book's advanced counters, in one
/// transaction — before anything is sent.
struct PreKeyMint: Sendable {
    typealias Dependencies = HasDatabase & HasRandom & HasClock & HasServer & Sendable
    let keys: AccountKeyBook
    let dependencies: any Dependencies

    /// The prekeys of `register` / `rotate_keys` / `add_device` / `ensure_prekeys`: a new signed and PQ prekey, and
    /// optionally a batch of one-time prekeys.
    func fresh(includeOneTime: Bool) throws(ClientError) -> API.PreKeys {
        let now = UInt64(dependencies.clock.now() / 1000)
        let random = dependencies.random, database = dependencies.database
        let (signed, pq, oneTime) = try keys.change { keys throws(ClientError) in
            let identity = keys.identity
            let signed = SignedPreKeyRecord.generate(id: keys.nextSignedPreKeyID, identity: identity, now: now, random: random)
            let pq = PQPreKeyRecord.generate(id: keys.nextSignedPreKeyID, identity: identity, now: now, random: random)
            let oneTime = includeOneTime ? PreKeyPolicy.oneTimePreKeys(firstId: keys.nextPreKeyID, random: random) : []
            keys.nextSignedPreKeyID &+= 1
            if let last = oneTime.last { keys.nextPreKeyID = last.id &+ 1 }
            return (signed, pq, oneTime)
        } alongside: { _, keys, made in
            // The store's writes join this transaction; prekeys do not depend on the identity it is opened under.
            let (signed, pq, oneTime) = made
            let store = VaultProtocolStore(database: database, identity: keys.identity)
            try store.storeSignedPreKey(signed)
            try store.storePQPreKey(pq)
            for record in oneTime { try store.storePreKey(record) }
        }
        return API.PreKeys(
            signed: API.SignedPreKey(id: signed.id, publicKey: signed.keyPair.publicKey, signature: signed.signature),
            pq: API.SignedPreKey(id: pq.id, publicKey: pq.publicKey, signature: pq.signature),
            oneTime: oneTime.map { API.OneTimePreKey(id: $0.id, key: $0.keyPair.publicKey) })
    }

    /// Replenishes one-time prekeys below the threshold and rotates the signed prekey every 7 days, dropping old
    /// signed prekeys after their grace period. Runs after each login.
    func upkeep() async throws(ClientError) {
        let server = dependencies.server
        let count = try await server.call(API.GetPreKeyCount.self, NoFields()).count
        let now = UInt64(dependencies.clock.now() / 1000)
        let store = VaultProtocolStore(database: dependencies.database, identity: keys.current.identity)
        let signed: [SignedPreKeyRecord]
        do { signed = try store.allSignedPreKeys() } catch { throw ClientDatabase.clientError(error) }
        let rotate = PreKeyPolicy.needsRotation(signed, now: now)
        let replenish = PreKeyPolicy.needsReplenishing(remaining: Int(count))
        guard rotate || replenish else { return }
        var request = API.EnsurePreKeys.Request()
        if replenish { request.oneTime = try oneTimeBatch() }
        if rotate {
            let fresh = try fresh(includeOneTime: false)
            request.signed = fresh.signed
            request.pq = fresh.pq
        }
        _ = try await server.call(API.EnsurePreKeys.self, request)
        for id in PreKeyPolicy.expiredSignedPreKeys(signed, now: now) {
            do { try store.removeSignedPreKey(id: id) } catch { throw ClientDatabase.clientError(error) }
        }
    }

    /// A batch of one-time prekeys, stored with the advanced counter.
    private func oneTimeBatch() throws(ClientError) -> [API.OneTimePreKey] {
        let random = dependencies.random, database = dependencies.database
        let batch = try keys.change { keys throws(ClientError) in
            let batch = PreKeyPolicy.oneTimePreKeys(firstId: keys.nextPreKeyID, random: random)
            if let last = batch.last { keys.nextPreKeyID = last.id &+ 1 }
            return batch
        } alongside: { _, keys, batch in
            let store = VaultProtocolStore(database: database, identity: keys.identity)
            for record in batch { try store.storePreKey(record) }
        }
        return batch.map { API.OneTimePreKey(id: $0.id, key: $0.keyPair.publicKey) }
    }
}
