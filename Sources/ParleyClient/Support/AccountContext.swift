import Foundation
import ParleyCrypto

/// Gives the account's sealed local database.
protocol HasDatabase { var database: ClientDatabase { get } }
/// Gives the account's own directory (caches, pending uploads).
protocol HasAccountDirectory { var directory: URL { get } }
/// Gives the account's way to the server.
protocol HasServer { var server: any ServerCalling { get } }
/// Gives the account's event stream, to announce what changed.
protocol HasEvents { var events: EventBroadcaster<ClientEvent> { get } }
/// Gives what only the account's `SessionOwner` does (sending through the ratchets) and who is who.
protocol HasAccount {
    var account: any AccountCalling { get }
    /// This account's e-mail address.
    var email: String { get }
}

/// What the client's components are made of (the Proton pattern: each component names the `Has…` protocols it
/// uses; this container has them all, and a test builds one for a component alone).
struct AccountContext: HasDatabase, HasAccountDirectory, HasRandom, HasClock, HasServer, HasAccount, HasEvents, Sendable {
    let database: ClientDatabase
    let directory: URL
    let random: any RandomSource
    let clock: any WallClock
    let server: any ServerCalling
    let account: any AccountCalling
    let email: String
    let events: EventBroadcaster<ClientEvent>

    /// A context; `link` (unattached by default: every call fails `notConnected`) is both the way to the server and
    /// to the account (and its `SessionOwner`).
    init(database: ClientDatabase, directory: URL, random: any RandomSource = SystemRandomSource(),
         clock: any WallClock = SystemWallClock(), email: String = "", link: AccountLink = AccountLink(),
         events: EventBroadcaster<ClientEvent> = EventBroadcaster()) {
        self.init(database: database, directory: directory, random: random, clock: clock, email: email, server: link, account: link, events: events)
    }

    /// A context with its own server (a test's scripted one).
    init(database: ClientDatabase, directory: URL, random: any RandomSource = SystemRandomSource(),
         clock: any WallClock = SystemWallClock(), email: String = "", server: any ServerCalling, account: any AccountCalling = AccountLink(),
         events: EventBroadcaster<ClientEvent> = EventBroadcaster()) {
        self.database = database
        self.directory = directory
        self.random = random
        self.clock = clock
        self.server = server
        self.account = account
        self.email = email
        self.events = events
    }
}
