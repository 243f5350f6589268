import Foundation
@testable import ParleyClient
import ParleyCrypto
import ParleyTestSupport
import ParleyVault

/// An account's local parts in a temporary directory — a sealed database under a fresh MainKey — for testing the
/// client's components without a server or the actor.
struct ScratchAccount {
    let scratch: TemporaryDirectory
    let lock: AutoLock
    let database: ClientDatabase

    /// A fresh directory named after `name`, with an empty sealed database in it.
    init(_ name: String) throws {
        scratch = try TemporaryDirectory("parley-\(name)")
        lock = AutoLock(key: MainKey.generate(), idleTimeout: 300, clock: SystemVaultClock())
        database = try ClientDatabase(path: scratch.url.appendingPathComponent("client.sqlite"), lock: lock)
    }

    /// The account's directory.
    var url: URL { scratch.url }
    /// The database file.
    var path: URL { scratch.url.appendingPathComponent("client.sqlite") }

    /// The components' container over these parts; the server is none (every call fails `notConnected`) unless given.
    func context(server: (any ServerCalling)? = nil) -> AccountContext {
        if let server { return AccountContext(database: database, directory: url, server: server) }
        return AccountContext(database: database, directory: url)
    }
}
