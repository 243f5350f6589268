import NIOSSL
import ParleyTLS

/// A mail server's TLS: `TLSTrust` (the chat client's rules, docs/MAIL.md §2), and what a failed handshake means.
final class MailTLS: Sendable {
    private let trust: TLSTrust

    init(_ server: MailServer) throws(MailboxError) {
        do {
            trust = try TLSTrust(host: server.host, pinnedKeySHA256: server.pinnedKeySHA256,
                                 trustedCertificatesFile: server.trustedCertificatesFile)
        } catch {
            switch error {
            case .malformedPin: throw .invalidInput("the pinned key must be the base64 SHA-256 of the server's public key (32 bytes)")
            case .cannotSetUp(let why): throw .invalidInput("cannot set up TLS with \(server.trustedCertificatesFile ?? "the system's certificates"): \(why)")
            }
        }
    }

    /// A handler for one connection.
    func makeHandler() throws -> NIOSSLClientHandler { try trust.makeHandler() }

    /// What a failed handshake means, in words.
    func explain(_ error: any Error) -> MailboxError {
        if trust.pinFailed() {
            return .tls("the server's key is not the pinned one (--pin-key): someone may be in the middle, or the server has a new key")
        }
        let text = String(describing: error)
        if text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("certificate") {
            return .tls("its certificate is not trusted here: pass --ca FILE (the certificate that signed it) or --pin-key BASE64 (the SHA-256 of its public key)")
        }
        return .tls("the handshake failed; check that this is the server's TLS port and the --security setting")
    }
}
