import Crypto
import Foundation
import ParleyCrypto
import ParleyWire

/// One device of this account, as the server lists it.
public struct DeviceInfo: Sendable, Equatable, Codable {
    /// The device's number within the account.
    public let id: UInt32
    /// The name it was given.
    public let name: String
    /// When it was added (ms since the epoch).
    public let createdAt: Int64
    /// When it last logged in or left (ms since the epoch).
    public let lastSeen: Int64
    /// Whether it is the device this client runs on.
    public let isThisDevice: Bool
}

extension ParleyClient {
    /// Steps of `devices.authorize`.
    public enum AuthorizeProgress: Sendable, Equatable {
        /// The keys are sealed to the new device.
        case sealed(deviceName: String)
        /// The new device added itself.
        case joined(deviceID: UInt32)
        /// History chunks sent / total.
        case history(sent: Int, of: Int)
    }

    /// Refreshes this account's devices and catches up on messages and conversations (before a history archive).
    func catchUpForNewDevice() async throws(ClientError) {
        try await owner.refreshOwnDevices()
        _ = try? await owner.sync()
        _ = try? await conversations()
    }
}
