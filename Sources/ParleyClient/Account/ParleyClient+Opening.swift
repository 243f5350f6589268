import Foundation
import ParleyCrypto
import ParleyProtocol
import ParleyVault

extension ParleyClient {
    /// Creates a new account on this device: fresh identity, login and prekeys, a MainKey protected by
    /// `pin` (or kept in a 0600 file when nil). Nothing is sent; call `register(password:)` next.
    public static func create(
        home: URL, email: String, displayName: String, server: ServerAddress, pin: String?,
        deviceName: String = "parley", autolockAfter: TimeInterval = 300,
        dependencies: any Dependencies = ClientDependencies(), reconnectPolicy: ReconnectPolicy = ReconnectPolicy()
    ) throws(ClientError) -> ParleyClient {
        try create(home: home, email: email, displayName: displayName, server: server, pin: pin, deviceName: deviceName,
                   seeds: nil, autolockAfter: autolockAfter, dependencies: dependencies, reconnectPolicy: reconnectPolicy)
    }

    /// `create`, with the identity and login seeds of an existing account when this device joins it.
    static func create(
        home: URL, email: String, displayName: String, server: ServerAddress, pin: String?, deviceName: String,
        seeds: (identity: [UInt8], auth: [UInt8])?, autolockAfter: TimeInterval = 300,
        dependencies: any Dependencies, reconnectPolicy: ReconnectPolicy = ReconnectPolicy()
    ) throws(ClientError) -> ParleyClient {
        let email = email.trimmingCharacters(in: .whitespaces).lowercased()
        guard email.split(separator: "@").count == 2, email.contains(".") else {
            throw .invalidInput("'\(email)' is not an e-mail address like name@example.org")
        }
        let directory = AccountHome.directory(home: home, email: email)
        guard !MainKeyFile.exists(in: directory) else {
            throw .invalidInput("\(email) already has an account in this home; use it, or pick another --home")
        }
        try PrivateFiles.makeDirectory(directory)
        let processLock = try AccountLock(directory: directory, wait: .zero)
        let key = MainKey.generate()
        do { try MainKeyFile.create(in: directory, key: key, pin: pin) } catch { throw .vault(error) }
        let random = dependencies.random
        let keys = AccountKeys(
            email: email, displayName: displayName, server: server,
            identitySeed: seeds?.identity ?? random.bytes(32), authSeed: seeds?.auth ?? random.bytes(32), accountID: nil, deviceID: nil,
            deviceName: deviceName, nextPreKeyID: 1, nextSignedPreKeyID: 1)
        let client = try open(directory: directory, email: email, key: key, keys: keys, processLock: processLock,
                              autolockAfter: autolockAfter, dependencies: dependencies, reconnectPolicy: reconnectPolicy)
        try client.database.write { try $0.put(Namespace.account, "keys", keys.encoded()) }
        return client
    }

    /// Opens an existing account: unlocks the MainKey with `pin` (nil for mode none).
    ///
    /// One process at a time has an account open; another one waits up to `waitForOtherProcess`, then fails
    /// with `accountInUse`. The account is released when the client is released or the process ends.
    public static func open(
        home: URL, email: String, pin: String?, autolockAfter: TimeInterval = 300,
        dependencies: any Dependencies = ClientDependencies(), reconnectPolicy: ReconnectPolicy = ReconnectPolicy(),
        waitForOtherProcess: Duration = .seconds(2)
    ) throws(ClientError) -> ParleyClient {
        try open(home: home, email: email, access: .pin(pin), autolockAfter: autolockAfter, dependencies: dependencies,
                 reconnectPolicy: reconnectPolicy, waitForOtherProcess: waitForOtherProcess)
    }

    /// Opens an existing account whose MainKey `access` unlocks: its PIN, or the hardware protector that wrapped it.
    public static func open(
        home: URL, email: String, access: MainKeyAccess, autolockAfter: TimeInterval = 300,
        dependencies: any Dependencies = ClientDependencies(), reconnectPolicy: ReconnectPolicy = ReconnectPolicy(),
        waitForOtherProcess: Duration = .seconds(2)
    ) throws(ClientError) -> ParleyClient {
        let directory = AccountHome.directory(home: home, email: email)
        guard MainKeyFile.exists(in: directory) else { throw .noAccount(email) }
        let processLock = try AccountLock(directory: directory, wait: waitForOtherProcess)
        let key: MainKey
        do { key = try MainKeyFile.unlock(in: directory, with: access) } catch { throw .vault(error) }
        let lock = AutoLock(key: key, idleTimeout: autolockAfter, clock: dependencies.vaultClock)
        let database = try ClientDatabase(path: directory.appendingPathComponent("client.sqlite"), lock: lock)
        guard let stored = try database.read({ try $0.get(Namespace.account, "keys") }) else {
            throw .storage("the account record is missing; the local data is damaged")
        }
        let keys = try AccountKeys.decode(stored)
        return ParleyClient(email: keys.email, directory: directory, keys: keys, database: database, lock: lock,
                            processLock: processLock, dependencies: dependencies, reconnectPolicy: reconnectPolicy)
    }

    private static func open(
        directory: URL, email: String, key: MainKey, keys: AccountKeys, processLock: AccountLock, autolockAfter: TimeInterval,
        dependencies: any Dependencies, reconnectPolicy: ReconnectPolicy
    ) throws(ClientError) -> ParleyClient {
        let lock = AutoLock(key: key, idleTimeout: autolockAfter, clock: dependencies.vaultClock)
        let database = try ClientDatabase(path: directory.appendingPathComponent("client.sqlite"), lock: lock)
        return ParleyClient(email: email, directory: directory, keys: keys, database: database, lock: lock,
                            processLock: processLock, dependencies: dependencies, reconnectPolicy: reconnectPolicy)
    }
}
