import NIOSSL
import ParleyTLS

/// The chat client's TLS: `TLSTrust` (shared with `parley mail`) for a server address that uses TLS.
final class TLSSetup: Sendable {
    private let trust: TLSTrust

    /// Nil when `address` does not use TLS.
    init?(address: ServerAddress) throws(ClientError) {
        guard address.tls else { return nil }
        do {
            trust = try TLSTrust(host: address.host, pinnedKeySHA256: address.pinnedKeySHA256,
                                 trustedCertificatesFile: address.trustedCertificatesFile)
        } catch {
            switch error {
            case .malformedPin: throw .invalidInput("the pinned key must be the base64 SHA-256 of the server's public key (32 bytes)")
            case .cannotSetUp(let why): throw .invalidInput("cannot set up TLS: \(why)")
            }
        }
    }

    /// A handler for one connection.
    func makeHandler() throws -> NIOSSLClientHandler { try trust.makeHandler() }

    /// Whether a handshake failed on the pin.
    func pinFailed() -> Bool { trust.pinFailed() }

    /// The base64 SHA-256 of a PEM certificate's public key, for `--pin`.
    static func pin(ofCertificatePEM path: String) throws -> String { try TLSTrust.pin(ofCertificatePEM: path) }
}
