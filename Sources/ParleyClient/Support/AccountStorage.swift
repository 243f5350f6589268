import Foundation
import ParleyCrypto

/// Gives the account's sealed local database.
protocol HasDatabase { var database: ClientDatabase { get } }
/// Gives the account's own directory (caches, pending uploads).
protocol HasAccountDirectory { var directory: URL { get } }

/// The account's local parts the client's components are made of (the Proton pattern: each component names the
/// `Has…` protocols it uses; this container has them all, and a test builds one for a component alone).
struct AccountStorage: HasDatabase, HasAccountDirectory, HasRandom, Sendable {
    let database: ClientDatabase
    let directory: URL
    let random: any RandomSource
}
