import Foundation
import ParleyCrypto

/// Starting an account on this device: registering a new one, or signing in with an e-mailed code and the
/// password when no other device is left. A failure leaves nothing half made behind.
public enum AccountSetup {
    /// Creates the account under `home` and registers it at `server`; a code is e-mailed to confirm it. When
    /// registering fails the new local account is discarded, so the same request can simply be made again.
    public static func register(
        home: URL, email: String, displayName: String, server: ServerAddress, pin: String?, deviceName: String,
        password: String, invite: String?, envelopeIterations: UInt32 = KeyEnvelope.defaultIterations
    ) async throws(AccountSetupError) -> ParleyClient {
        let client: ParleyClient
        do {
            client = try ParleyClient.create(home: home, email: email, displayName: displayName, server: server, pin: pin, deviceName: deviceName)
        } catch {
            throw .refused(error)
        }
        do {
            try await client.registration.register(password: password, invite: invite, envelopeIterations: envelopeIterations)
        } catch {
            do { try client.registration.discardUnconfirmed() } catch { throw .refused(error) }
            throw .registrationFailed(error)
        }
        return client
    }

    /// A device signed in by `signIn`, connected.
    public struct SignedIn: Sendable {
        /// The account, connected.
        public let client: ParleyClient
        /// This device's number.
        public let deviceID: UInt32
        /// The account's other devices (a lost one to remove, say).
        public let otherDevices: [UInt32]
    }

    /// Refuses when `email` already has an account in `home`: signing in again there would replace it.
    public static func checkNotSignedIn(_ email: String, home: URL) throws(AccountSetupError) {
        let email = email.trimmingCharacters(in: .whitespaces).lowercased()
        guard !AccountHome.accounts(in: home).contains(email) else { throw .alreadySignedIn(email: email, home: home.path) }
    }

    /// Restores the account from its key backup with the e-mailed `code` and `password`, as a new device named
    /// `deviceName`, connects, and lists the account's other devices.
    public static func signIn(
        home: URL, email: String, server: ServerAddress, code: String, password: String, pin: String?, deviceName: String
    ) async throws(AccountSetupError) -> SignedIn {
        try checkNotSignedIn(email, home: home)
        let client: ParleyClient
        do {
            client = try await AccountRecovery.restore(
                home: home, email: email, server: server, code: code, password: password, pin: pin, deviceName: deviceName)
            try await client.connect(reconnect: false)
        } catch {
            throw .refused(error)
        }
        let device = await client.deviceID ?? 0
        let others = ((try? await client.devices.list()) ?? []).filter { !$0.isThisDevice }.map(\.id)
        return SignedIn(client: client, deviceID: device, otherDevices: others)
    }
}

/// Why an account could not be started on this device.
public enum AccountSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The client or the server refused (explained).
    case refused(ClientError)
    /// Registering failed; the new local account was discarded.
    case registrationFailed(ClientError)
    /// The account is signed in in this home already.
    case alreadySignedIn(email: String, home: String)

    /// What went wrong and what to do, in the user's words.
    public var description: String {
        switch self {
        case .refused(let error): error.description
        case .registrationFailed(let error):
            "\(error); nothing was kept on this device, so run the command again once that is fixed"
        case .alreadySignedIn(let email, let home):
            "\(email) is already signed in in this home (\(home)); use it, or pick another --home"
        }
    }
}
