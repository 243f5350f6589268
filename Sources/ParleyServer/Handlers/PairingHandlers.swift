import Crypto
import Foundation
import ParleyCrypto
import ParleyWire

/// Device pairing relay (docs/API.md §13): the server stores what the two devices exchange, all of it
/// public keys or ciphertext, and admits the new device by its token.
enum PairingHandlers {
    static let lifetime: Int64 = 15 * 60 * 1000
    /// Open pairings one account may have, from all sources together.
    static let maximumOpenPerEmail = 20
    /// Pairings one source address may start for one account in `lifetime`: a stranger who starts pairings for someone
    /// else's address (no login is needed to start one) holds a few of the account's slots, not all of them.
    static let maximumPerSource = 4
    static let maximumHistoryBytes = API.maximumPairingHistoryBytes

    static func register(in router: inout RequestRouter) {
        router.add(API.PairingStart.self) { request, environment, context throws(WireError) in
            try await create(request, from: environment.remoteAddress, context)
        }
        router.add(API.PairingWait.self) { request, _, context throws(WireError) in try await status(request, context) }
        router.add(API.PairingLookup.self) { request, environment, context throws(WireError) in
            let pairing = try await ownPairing(request.pairID, environment.account, context)
            return API.PairingLookup.Response(
                deviceName: pairing.deviceName, state: pairing.state, ephemeralKey: pairing.newDeviceKey, deviceID: pairing.deviceID)
        }
        router.add(API.AuthorizeDevice.self) { request, environment, context throws(WireError) in
            let pairing = try await ownPairing(request.pairID, environment.account, context)
            // Said here, to the device that can remove one, rather than to the new device at `add_device`.
            let held = try await StoreCall.call(context) { try await context.store.devices(accountID: environment.account.accountID).count }
            guard held < API.AddDevice.maximumDevicesPerAccount else { throw DeviceHandlers.fullAccount }
            let sealed = try await StoreCall.call(context) {
                try await context.store.sealPairing(id: pairing.id, authorizingKey: request.ephemeralKey, keysBox: request.keys, now: context.clock.now())
            }
            guard sealed else { throw WireError(.conflict, "this pairing was already authorized") }
            return NoFields()
        }
        router.add(API.PairingHistoryPut.self) { request, environment, context throws(WireError) in
            try await putHistory(request, environment.account, context)
        }
        router.add(API.PairingHistoryGet.self) { request, _, context throws(WireError) in
            let pairing = try await admitted(request.ticket, context)
            let seq = Int(request.seq)
            guard let (chunk, last) = try await StoreCall.call(context, { try await context.store.pairingChunk(id: pairing.id, seq: seq, now: context.clock.now()) }) else {
                throw WireError(.notFound, "history chunk \(seq) has not arrived")
            }
            return API.PairingHistoryGet.Response(chunk: chunk, last: last)
        }
        router.add(API.PairingFinish.self) { request, _, context throws(WireError) in
            let pairing = try await admitted(request, context)
            try await StoreCall.call(context) { try await context.store.deletePairing(id: pairing.id) }
            return NoFields()
        }
    }

    /// Counts a pairing started for `email` from `address` (`WindowedCount`, `pairing:EMAIL ADDRESS`); refuses one more
    /// than `maximumPerSource` in `lifetime`.
    static func countFromSource(email: String, address: String, now: Int64, _ context: ServerContext) async throws(WireError) {
        let wait = try await StoreCall.call(context) {
            try await WindowedCount.take("pairing:\(email) \(address)", limit: maximumPerSource, window: lifetime, now: now, context.store)
        }
        guard let wait else { return }
        throw WireError(.rateLimited, "too many pairings started from here for this account; finish one or wait \(max(1, (wait + 59_999) / 60_000)) min",
                        details: ["retry_after": .int(WindowedCount.seconds(wait))])
    }

    static func create(
        _ request: API.PairingStart.Request, from address: String, _ context: ServerContext
    ) async throws(WireError) -> API.PairingStart.Response {
        let email = try IdentityText.email(request.email)
        let name = try DeviceHandlers.deviceName(request.deviceName, field: "device_name")
        let key = request.ephemeralKey
        let token = context.random.bytes(32)
        let now = context.clock.now()
        try await countFromSource(email: email, address: address, now: now, context)
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
                return API.PairingStart.Response(pairID: id, token: token, expiresIn: lifetime / 1000)
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
    static func status(_ request: API.PairingWait.Request, _ context: ServerContext) async throws(WireError) -> API.PairingWait.Response {
        var pairing = try await admitted(request.ticket, context)
        let afterState = request.afterState
        let afterChunks = request.afterChunks
        let wait = request.waitMilliseconds ?? 0
        let deadline = ContinuousClock.now + .milliseconds(wait)
        func moved(_ pairing: PairingRecord) -> Bool {
            if let afterState, pairing.state.rawValue != afterState { return true }
            if let afterChunks, pairing.chunkCount > afterChunks { return true }
            return afterState == nil && afterChunks == nil
        }
        // Polling the store (not a node's memory) lets any node answer, whichever node was written to.
        while !moved(pairing), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(100))
            pairing = try await admitted(request.ticket, context)
        }
        var answer = API.PairingWait.Response(state: pairing.state, historyChunks: Int64(pairing.chunkCount))
        if let key = pairing.authorizingKey, let keys = pairing.keysBox {
            answer.ephemeralKey = key
            answer.keys = keys
        }
        return answer
    }

    static func putHistory(
        _ request: API.PairingHistoryPut.Request, _ caller: Caller, _ context: ServerContext
    ) async throws(WireError) -> API.PairingHistoryPut.Response {
        let pairing = try await ownPairing(request.pairID, caller, context)
        let seq = Int(request.seq)
        guard pairing.keysBox != nil else { throw WireError(.conflict, "authorize the pairing before sending history") }
        let outcome = try await StoreCall.call(context) {
            try await context.store.appendPairingChunk(
                id: pairing.id, seq: seq, chunk: request.chunk, last: request.last, maximumBytes: maximumHistoryBytes, now: context.clock.now())
        }
        switch outcome {
        case .stored(let count): return API.PairingHistoryPut.Response(stored: Int64(count))
        case .outOfOrder(let stored):
            throw WireError(.conflict, "send chunk \(stored) next", details: ["stored": .number(Double(stored))])
        case .tooLarge: throw WireError(.quotaExceeded, "a pairing's history is limited to 32 MiB")
        case .closed: throw WireError(.conflict, "the history is complete; nothing more is accepted")
        case .notFound: throw WireError(.notFound, "no such pairing (it may have expired)")
        }
    }

    /// The pairing the ticket names, when its token matches (constant time); `not_found` otherwise.
    static func admitted(_ ticket: API.PairingTicket, _ context: ServerContext) async throws(WireError) -> PairingRecord {
        let pairing = try await StoreCall.call(context) { try await context.store.pairing(id: ticket.pairID, now: context.clock.now()) }
        guard let pairing, ConstantTime.equals(Array(SHA256.hash(data: ticket.token)), pairing.tokenHash) else {
            throw WireError(.notFound, "no such pairing (it may have expired)")
        }
        return pairing
    }

    /// The pairing `id`, when it was opened for the caller's own account.
    static func ownPairing(_ id: UInt32, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> PairingRecord {
        let (pairing, account) = try await StoreCall.call(context) {
            (try await context.store.pairing(id: id, now: context.clock.now()), try await context.store.account(id: caller.accountID))
        }
        guard let pairing, let account, pairing.email == account.email else {
            throw WireError(.notFound, "no such pairing for this account (check the code, or it may have expired)")
        }
        return pairing
    }
}
