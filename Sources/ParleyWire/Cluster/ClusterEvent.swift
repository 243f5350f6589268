import Foundation

/// What one server node asks the others to do for connections it does not hold: deliver a
/// notification, or close connections (a removed device, rotated keys).
///
/// Events travel between nodes as PostgreSQL `NOTIFY` payloads (docs/SCALING.md §2): ids and small
/// fields only, never a ciphertext; the node that receives one reads any rows it needs itself.
public struct ClusterEvent: Sendable, Equatable, Codable {
    /// Deliver `event` with `fields`, or close the connections.
    public enum Action: Sendable, Equatable {
        case notify(event: String, fields: [String: JSONValue])
        case disconnect

        /// Deliver `event`.
        public static func notify(_ event: ServerEvent) -> Action { .notify(event: event.name, fields: event.fields) }
    }

    /// The account whose connections are meant.
    public var accountID: Int64
    /// Only this device's connections, or all devices when nil.
    public var deviceID: UInt32?
    /// A device of the account to leave out (the sender of a message, the device that rotated keys).
    public var exceptDevice: UInt32?
    /// What to do.
    public var action: Action

    /// An event for the connections of `accountID` (`deviceID`, all but `exceptDevice`).
    public init(accountID: Int64, deviceID: UInt32? = nil, exceptDevice: UInt32? = nil, action: Action) {
        self.accountID = accountID
        self.deviceID = deviceID
        self.exceptDevice = exceptDevice
        self.action = action
    }

    /// Whether a connection of `device` (of this event's account) is meant.
    public func targets(device: UInt32) -> Bool {
        (deviceID == nil || deviceID == device) && exceptDevice != device
    }

    private enum CodingKeys: String, CodingKey {
        case accountID = "a", deviceID = "d", exceptDevice = "x", event = "e", fields = "f", kind = "k"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accountID = try container.decode(Int64.self, forKey: .accountID)
        deviceID = try container.decodeIfPresent(UInt32.self, forKey: .deviceID)
        exceptDevice = try container.decodeIfPresent(UInt32.self, forKey: .exceptDevice)
        switch try container.decode(String.self, forKey: .kind) {
        case "n":
            let event = try container.decode(String.self, forKey: .event)
            let fields = try container.decode([String: JSONValue].self, forKey: .fields)
            action = .notify(event: event, fields: fields)
        case "c":
            action = .disconnect
        default:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "unknown event kind")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accountID, forKey: .accountID)
        try container.encodeIfPresent(deviceID, forKey: .deviceID)
        try container.encodeIfPresent(exceptDevice, forKey: .exceptDevice)
        switch action {
        case .notify(let event, let fields):
            try container.encode("n", forKey: .kind)
            try container.encode(event, forKey: .event)
            try container.encode(fields, forKey: .fields)
        case .disconnect:
            try container.encode("c", forKey: .kind)
        }
    }
}
