import Foundation

/// Adding a device to an account: the new device's side after it showed its code, and reading a code from
/// a picture of the new device's QR code on the signed-in side.
public enum PairingFlow {
    /// A new device that joined, with what it brought along.
    public struct Paired: Sendable {
        /// The account on this device (not connected).
        public let client: ParleyClient
        /// This device's number.
        public let deviceID: UInt32
        /// How many conversations came with the history.
        public let conversations: Int
    }

    /// Waits for a signed-in device to authorize `pairing`'s code, creates the account under `home`, then logs
    /// in once: that proves the new device works, and counts the conversations that came with the history.
    public static func complete(
        _ pairing: DevicePairing, home: URL, pin: String?, progress: @escaping @Sendable (DevicePairing.Progress) -> Void
    ) async throws(ClientError) -> Paired {
        let client = try await pairing.complete(home: home, pin: pin, progress: progress)
        try await client.connect(reconnect: false)
        let count = try await client.conversations().count
        await client.disconnect()
        return Paired(client: client, deviceID: await client.deviceID ?? 0, conversations: count)
    }

    /// The text of the first pairing code (`parley-pair:…`, any case) among the texts read from QR codes.
    public static func code(inScanned texts: [[UInt8]]) -> String? {
        texts.map { String(decoding: $0, as: UTF8.self) }.first { $0.lowercased().hasPrefix("parley-pair:") }
    }
}
