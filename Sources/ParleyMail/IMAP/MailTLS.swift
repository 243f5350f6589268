import Crypto
import Foundation
import NIOCore
import NIOSSL
import ParleyCrypto
import Synchronization

/// The client side of a mail server's TLS: system roots or `--ca FILE` with the host name checked, or a
/// pinned key (SPKI SHA-256) that alone decides — the chat client's rules (docs/CLIENT.md, docs/MAIL.md §2).
final class MailTLS: Sendable {
    private let context: NIOSSLContext
    private let hostname: String?
    private let pin: [UInt8]?
    private let pinFailure = Mutex(false)

    init(_ server: MailServer) throws(MailboxError) {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let file = server.trustedCertificatesFile { configuration.trustRoots = .file(file) }
        if let pinned = server.pinnedKeySHA256 {
            guard let bytes = Data(base64Encoded: pinned), bytes.count == 32 else {
                throw .invalidInput("the pinned key must be the base64 SHA-256 of the server's public key (32 bytes)")
            }
            pin = Array(bytes)
            configuration.certificateVerification = .noHostnameVerification
        } else {
            pin = nil
        }
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw .invalidInput("cannot set up TLS with \(server.trustedCertificatesFile ?? "the system's certificates"): \(error)")
        }
        hostname = server.host.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" } ? nil : server.host
    }

    /// A handler for one connection.
    func makeHandler() throws -> NIOSSLClientHandler {
        guard let pin else { return try NIOSSLClientHandler(context: context, serverHostname: hostname) }
        return try NIOSSLClientHandler(context: context, serverHostname: hostname) { [self] certificates, promise in
            let matches = (try? certificates.first?.extractPublicKey().toSPKIBytes())
                .map { ConstantTime.equals(Array(SHA256.hash(data: $0)), pin) } ?? false
            if !matches { pinFailure.withLock { $0 = true } }
            promise.succeed(matches ? .certificateVerified : .failed)
        }
    }

    /// What a failed handshake means, in words.
    func explain(_ error: any Error) -> MailboxError {
        if pinFailure.withLock({ $0 }) {
            return .tls("the server's key is not the pinned one (--pin-key): someone may be in the middle, or the server has a new key")
        }
        let text = String(describing: error)
        if text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("certificate") {
            return .tls("its certificate is not trusted here: pass --ca FILE (the certificate that signed it) or --pin-key BASE64 (the SHA-256 of its public key)")
        }
        return .tls("the handshake failed; check that this is the server's TLS port and the --security setting")
    }
}
