import NIOSSL
import Synchronization

/// What went wrong with TLS on one connection, noticed while it happened, so the error names the TLS
/// problem and what to pass instead of "the connection dropped … try again".
final class ConnectionDiagnosis: Sendable {
    /// Whether this connection uses TLS.
    let usesTLS: Bool
    private let finding = Mutex<String?>(nil)

    init(usesTLS: Bool) { self.usesTLS = usesTLS }

    /// The explanation, once something was found.
    var explanation: String? { finding.withLock { $0 } }

    /// The first bytes from the server: on a plain connection a TLS record (alert 0x15, handshake 0x16,
    /// then major version 3) means the port speaks TLS.
    func sawFirstBytes(_ first: UInt8, _ second: UInt8?) {
        guard !usesTLS, first == 0x15 || first == 0x16, second == nil || second == 0x03 else { return }
        record("the server speaks TLS on this port: add --tls, with --pin-key BASE64 (the SHA-256 of the server's public key) or --ca FILE to trust it")
    }

    /// An error from the channel; only TLS handshake failures are explained.
    func sawError(_ error: any Error) {
        guard usesTLS else { return }
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            return record("the server's TLS certificate does not name the host you connected to: use the name in its certificate "
                + "in --server, or pass --pin-key BASE64 (the SHA-256 of the server's public key) instead")
        }
        guard let error = error as? NIOSSLError else { return }
        let text = String(describing: error).uppercased()
        if text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("CERTIFICATE VERIFY FAILED") {
            record("the server's TLS certificate is not trusted on this machine: pass --pin-key BASE64 (the SHA-256 of the server's public key) "
                + "or --ca FILE (the certificate of the authority that signed it)")
        } else if text.contains("WRONG_VERSION_NUMBER") || text.contains("PACKET_LENGTH_TOO_LONG") || text.contains("HTTP_REQUEST") {
            record("the server does not speak TLS on this port: drop --tls (and --pin-key, --ca), or use its TLS port")
        } else {
            record("the TLS handshake failed; check that this is the server's TLS port and that --pin-key or --ca matches it")
        }
    }

    private func record(_ text: String) {
        finding.withLock { if $0 == nil { $0 = text } }
    }
}
