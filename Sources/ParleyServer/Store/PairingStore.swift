import ParleyWire

/// Open device pairings (docs/API.md §13): what the new device published, the sealed keys, and the
/// history chunks, all ciphertext or public. Kept in the database so any node can serve them.
public protocol PairingStore: Sendable {
    /// Stores a new pairing, first deleting expired ones. Returns false (storing nothing) when the
    /// e-mail already has `maximumOpen` unexpired pairings; throws `.conflict` when the id is taken.
    func createPairing(_ pairing: PairingRecord, now: Int64, maximumOpen: Int) async throws -> Bool

    /// The unexpired pairing with this id.
    func pairing(id: UInt32, now: Int64) async throws -> PairingRecord?

    /// Stores the keys box and the authorizing device's public key, once: false when the pairing
    /// is missing, expired or already sealed.
    func sealPairing(id: UInt32, authorizingKey: [UInt8], keysBox: [UInt8], now: Int64) async throws -> Bool

    /// Appends history chunk `seq`, which must be the next one.
    func appendPairingChunk(id: UInt32, seq: Int, chunk: [UInt8], last: Bool, maximumBytes: Int, now: Int64) async throws -> PairingAppend

    /// History chunk `seq` of an unexpired pairing, and whether it is the last.
    func pairingChunk(id: UInt32, seq: Int, now: Int64) async throws -> (chunk: [UInt8], last: Bool)?

    /// Deletes a pairing and its chunks.
    func deletePairing(id: UInt32) async throws
}

/// How far a pairing has come: waiting for a signed-in device, sealed (keys box stored), joined (the new device
/// added itself), ready (the last history chunk arrived).
public typealias PairingState = API.PairingState

/// One open pairing.
public struct PairingRecord: Sendable, Equatable {
    /// The id in the pairing code.
    public var id: UInt32
    /// The account the new device wants to join.
    public var email: String
    /// The name the new device gave itself.
    public var deviceName: String
    /// The new device's ephemeral X25519 public key.
    public var newDeviceKey: [UInt8]
    /// SHA-256 of the token that admits the new device.
    public var tokenHash: [UInt8]
    /// The authorizing device's ephemeral public key, once sealed.
    public var authorizingKey: [UInt8]?
    /// The sealed keys, once sealed.
    public var keysBox: [UInt8]?
    /// The device `add_device` created for this pairing.
    public var deviceID: UInt32?
    /// History chunks stored so far, and their total size.
    public var chunkCount: Int
    public var chunkBytes: Int
    /// Whether the last chunk arrived.
    public var isComplete: Bool
    /// When the pairing is deleted regardless (ms).
    public var expiresAt: Int64

    /// A new, waiting pairing.
    public init(id: UInt32, email: String, deviceName: String, newDeviceKey: [UInt8], tokenHash: [UInt8], expiresAt: Int64) {
        self.id = id
        self.email = email
        self.deviceName = deviceName
        self.newDeviceKey = newDeviceKey
        self.tokenHash = tokenHash
        self.expiresAt = expiresAt
        chunkCount = 0
        chunkBytes = 0
        isComplete = false
    }

    /// Where the pairing stands.
    public var state: PairingState {
        if isComplete { return .ready }
        if deviceID != nil { return .joined }
        return keysBox == nil ? .waiting : .sealed
    }
}

/// The outcome of appending a history chunk.
public enum PairingAppend: Sendable, Equatable {
    /// Stored; this many chunks are stored now.
    case stored(Int)
    /// `seq` was not the next chunk; this many are stored.
    case outOfOrder(stored: Int)
    /// The chunk would take the pairing past its byte limit.
    case tooLarge
    /// The last chunk already arrived.
    case closed
    /// No such unexpired pairing.
    case notFound
}
