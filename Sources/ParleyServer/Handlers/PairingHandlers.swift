import Crypto
import Foundation
import ParleyCrypto
import ParleyWire

/// Device pairing relay (docs/API.md §13): the server stores what the two devices exchange, all of it
/// public keys or ciphertext, and admits the new device by its token.
enum PairingHandlers {
    static let lifetime: Int64 = 15 * 60 * 1000
    static let maximumOpenPerEmail = 5
    static let maximumKeysBox = 64 * 1024
    static let maximumChunk = 256 * 1024
    static let maximumHistoryBytes = 32 * 1024 * 1024

    static func register(in router: inout RequestRouter) {
        router.add("pairing_start", requiresLogin: false) { request, _, context throws(WireError) in try await create(request, context) }
        router.add("pairing_wait", requiresLogin: false) { request, _, context throws(WireError) in try await status(request, context) }
        router.add("pairing_lookup", requiresLogin: true) { request, environment, context throws(WireError) in
            let pairing = try await ownPairing(request, environment.caller!, context)
            var fields: [String: JSONValue] = [
                "device_name": .string(pairing.deviceName), "state": .string(pairing.state.rawValue),
                "ephemeral_key": .base64(pairing.newDeviceKey),
            ]
            if let device = pairing.deviceID { fields["device_id"] = .number(Double(device)) }
            return HandlerResult(fields)
        }
        router.add("authorize_device", requiresLogin: true) { request, environment, context throws(WireError) in
            let pairing = try await ownPairing(request, environment.caller!, context)
            let key = try request.bytes("ephemeral_key", count: 32)
            let keys = try request.bytes("keys", maxBytes: maximumKeysBox)
            let sealed = try await StoreCall.call(context) {
                try await context.store.sealPairing(id: pairing.id, authorizingKey: key, keysBox: keys, now: context.clock.now())
            }
            guard sealed else { throw WireError(.conflict, "this pairing was already authorized") }
            return HandlerResult()
        }
        router.add("pairing_history_put", requiresLogin: true) { request, environment, context throws(WireError) in
            try await putHistory(request, environment.caller!, context)
        }
        router.add("pairing_history_get", requiresLogin: false) { request, _, context throws(WireError) in
            let pairing = try await admitted(request, context)
            let seq = Int(try request.integer("seq", in: 0...Int64(maximumHistoryBytes)))
            guard let (chunk, last) = try await StoreCall.call(context, { try await context.store.pairingChunk(id: pairing.id, seq: seq, now: context.clock.now()) }) else {
                throw WireError(.notFound, "history chunk \(seq) has not arrived")
            }
            return HandlerResult(["chunk": .base64(chunk), "last": .bool(last)])
        }
        router.add("pairing_finish", requiresLogin: false) { request, _, context throws(WireError) in
            let pairing = try await admitted(request, context)
            try await StoreCall.call(context) { try await context.store.deletePairing(id: pairing.id) }
            return HandlerResult()
        }
    }

    static func create(_ request: WireRequest, _ context: ServerContext) async throws(WireError) -> HandlerResult {
        let email = try AuthHandlers.email(request)
        let name = try DeviceHandlers.deviceName(request, field: "device_name")
        let key = try request.bytes("ephemeral_key", count: 32)
        let token = context.random.bytes(32)
        let now = context.clock.now()
        // A random id: collisions with a live pairing are retried, never shared.
        for _ in 0..<8 {
            let id = context.random.bytes(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            let record = PairingRecord(
                id: id, email: email, deviceName: name, newDeviceKey: key, tokenHash: Array(SHA256.hash(data: token)),
                expiresAt: now + lifetime)
            do {
                guard try await context.store.createPairing(record, now: now, maximumOpen: maximumOpenPerEmail) else {
                    throw WireError(.rateLimited, "too many open pairings for this account; finish one or wait 15 minutes")
                }
                return HandlerResult([
                    "pair_id": .number(Double(id)), "token": .base64(token), "expires_in": .number(Double(lifetime / 1000)),
                ])
            } catch StoreError.conflict {
                continue
            } catch let error as WireError {
                throw error
            } catch {
                throw AuthHandlers.storeFailure(error, context)
            }
        }
        throw WireError(.unavailable, "could not allocate a pairing id; try again")
    }

    /// `pairing_wait`: the pairing's state, answered when it moved past `after_state` / `after_chunks`
    /// or after `wait_ms` (≤ 25 s, under the login timeout of the unauthenticated connection asking).
    static func status(_ request: WireRequest, _ context: ServerContext) async throws(WireError) -> HandlerResult {
        var pairing = try await admitted(request, context)
        let afterState = try request.optionalString("after_state", maxBytes: 16)
        let afterChunks = try request.optionalInteger("after_chunks", in: 0...Int64(maximumHistoryBytes))
        let wait = try request.optionalInteger("wait_ms", in: 0...25_000) ?? 0
        let deadline = ContinuousClock.now + .milliseconds(wait)
        func moved(_ pairing: PairingRecord) -> Bool {
            if let afterState, pairing.state.rawValue != afterState { return true }
            if let afterChunks, pairing.chunkCount > afterChunks { return true }
            return afterState == nil && afterChunks == nil
        }
        // Polling the store (not a node's memory) lets any node answer, whichever node was written to.
        while !moved(pairing), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(100))
            pairing = try await admitted(request, context)
        }
        var fields: [String: JSONValue] = ["state": .string(pairing.state.rawValue), "history_chunks": .int(pairing.chunkCount)]
        if let key = pairing.authorizingKey, let keys = pairing.keysBox {
            fields["ephemeral_key"] = .base64(key)
            fields["keys"] = .base64(keys)
        }
        return HandlerResult(fields)
    }

    static func putHistory(_ request: WireRequest, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> HandlerResult {
        let pairing = try await ownPairing(request, caller, context)
        let seq = Int(try request.integer("seq", in: 0...Int64(maximumHistoryBytes)))
        let chunk = try request.bytes("chunk", maxBytes: maximumChunk)
        let last = try request.bool("last")
        guard pairing.keysBox != nil else { throw WireError(.conflict, "authorize the pairing before sending history") }
        let outcome = try await StoreCall.call(context) {
            try await context.store.appendPairingChunk(
                id: pairing.id, seq: seq, chunk: chunk, last: last, maximumBytes: maximumHistoryBytes, now: context.clock.now())
        }
        switch outcome {
        case .stored(let count): return HandlerResult(["stored": .number(Double(count))])
        case .outOfOrder(let stored):
            throw WireError(.conflict, "send chunk \(stored) next", details: ["stored": .number(Double(stored))])
        case .tooLarge: throw WireError(.quotaExceeded, "a pairing's history is limited to 32 MiB")
        case .closed: throw WireError(.conflict, "the history is complete; nothing more is accepted")
        case .notFound: throw WireError(.notFound, "no such pairing (it may have expired)")
        }
    }

    /// The pairing the request names, when its token matches (constant time); `not_found` otherwise.
    static func admitted(_ request: WireRequest, _ context: ServerContext) async throws(WireError) -> PairingRecord {
        let id = try pairID(request)
        let token = try request.bytes("token", count: 32)
        let pairing = try await StoreCall.call(context) { try await context.store.pairing(id: id, now: context.clock.now()) }
        guard let pairing, ConstantTime.equals(Array(SHA256.hash(data: token)), pairing.tokenHash) else {
            throw WireError(.notFound, "no such pairing (it may have expired)")
        }
        return pairing
    }

    /// The pairing the request names, when it was opened for the caller's own account.
    static func ownPairing(_ request: WireRequest, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> PairingRecord {
        let id = try pairID(request)
        let (pairing, account) = try await StoreCall.call(context) {
            (try await context.store.pairing(id: id, now: context.clock.now()), try await context.store.account(id: caller.accountID))
        }
        guard let pairing, let account, pairing.email == account.email else {
            throw WireError(.notFound, "no such pairing for this account (check the code, or it may have expired)")
        }
        return pairing
    }

    static func pairID(_ request: WireRequest) throws(WireError) -> UInt32 {
        UInt32(try request.integer("pair_id", in: 0...Int64(UInt32.max)))
    }
}
