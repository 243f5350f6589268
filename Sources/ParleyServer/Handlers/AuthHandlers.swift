import Crypto
import Foundation
import ParleyCrypto
import ParleyWire

/// `register`, `register_confirm`, `login_start`, `login_finish`.
enum AuthHandlers {
    static let codeLifetime: Int64 = 15 * 60 * 1000
    static let nonceLifetime: Int64 = 60 * 1000

    static func register(in router: inout RequestRouter) {
        router.add(API.Register.self) { request, environment, context throws(WireError) in
            try await Registration.register(request, environment, context)
        }
        router.add(API.RegisterConfirm.self) { request, environment, context throws(WireError) in
            try await Registration.confirm(request, environment, context)
        }
        router.add(API.LoginStart.self) { request, environment, context throws(WireError) in
            try await Login.start(request, environment, context)
        }
        router.add(API.LoginFinish.self, loggingIn: { request, environment, context throws(WireError) in
            try await Login.finish(request, environment, context)
        })
    }

    /// Maps a store failure to a response without leaking details.
    static func storeFailure(_ error: any Error, _ context: ServerContext) -> WireError {
        if case StoreError.conflict(let what)? = error as? StoreError {
            return WireError(.conflict, "\(what) already exists")
        }
        context.logger.error("store failure", metadata: ["error": "\(error)"])
        if case StoreError.unavailable? = error as? StoreError {
            // The database is unreachable or too slow: nothing about the request is wrong, so say "retry".
            return WireError(.unavailable, "the server's database is unavailable; try again later")
        }
        return WireError(.internal, "the server could not complete the request; try again later")
    }
}
