/// OpenPGP keys kept in the account's vault for `parley pgp` (docs/CLIENT.md §5, namespace `pgp_key`).
///
/// The client stores them as opaque bytes under the MainKey, one record per fingerprint; what they
/// mean is ParleyPGP's business. Secret keys arrive still protected by their pass phrase, so the
/// vault adds a second layer rather than replacing the first.
public struct PGPKeyVault: Sendable {
    typealias Dependencies = HasDatabase & Sendable
    let dependencies: any Dependencies

    /// The `records` namespace.
    static let namespace = "pgp_key"

    /// Every stored key: its fingerprint (upper-case hex) and its bytes, sorted by fingerprint.
    public func all() throws(ClientError) -> [(fingerprint: String, bytes: [UInt8])] {
        try dependencies.database.read { try $0.all(Self.namespace) }
            .map { (fingerprint: $0.key, bytes: $0.value) }
            .sorted { $0.fingerprint < $1.fingerprint }
    }

    /// Stores `bytes` as the key `fingerprint`, replacing what was stored under it.
    public func store(fingerprint: String, bytes: [UInt8]) throws(ClientError) {
        try dependencies.database.write { try $0.put(Self.namespace, fingerprint, bytes) }
    }
}
