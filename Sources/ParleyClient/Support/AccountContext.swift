import Foundation
import ParleyCrypto

/// Gives the account's sealed local database.
protocol HasDatabase { var database: ClientDatabase { get } }
/// Gives the account's own directory (caches, pending uploads).
protocol HasAccountDirectory { var directory: URL { get } }
/// Gives the account's way to the server.
protocol HasServer { var server: any ServerCalling { get } }

/// What the client's components are made of (the Proton pattern: each component names the `Has…` protocols it
/// uses; this container has them all, and a test builds one for a component alone).
struct AccountContext: HasDatabase, HasAccountDirectory, HasRandom, HasClock, HasServer, Sendable {
    let database: ClientDatabase
    let directory: URL
    let random: any RandomSource
    let clock: any WallClock
    let server: any ServerCalling

    init(database: ClientDatabase, directory: URL, random: any RandomSource = SystemRandomSource(),
         clock: any WallClock = SystemWallClock(), server: any ServerCalling = ServerLink()) {
        self.database = database
        self.directory = directory
        self.random = random
        self.clock = clock
        self.server = server
    }
}
