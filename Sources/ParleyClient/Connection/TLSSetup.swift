import Crypto
import Foundation
import NIOCore
import NIOSSL
import Synchronization

/// The client side of TLS: system or given trust roots, or a pinned server key (SPKI SHA-256).
///
/// With a pin the pin alone decides: a self-hosted server with a self-signed certificate is trusted
/// exactly when its key is the pinned one, which is stronger than any CA.
final class TLSSetup: Sendable {
    private let context: NIOSSLContext
    private let hostname: String?
    private let pin: [UInt8]?
    private let pinFailure = Mutex(false)

    /// Nil when `address` does not use TLS.
    init?(address: ServerAddress) throws(ClientError) {
        guard address.tls else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let file = address.trustedCertificatesFile { configuration.trustRoots = .file(file) }
        if let pinned = address.pinnedKeySHA256 {
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
            throw .invalidInput("cannot set up TLS: \(error)")
        }
        // SNI and hostname checks need a name, not an address.
        hostname = address.host.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" } ? nil : address.host
    }

    /// A handler for one connection.
    func makeHandler() throws -> NIOSSLClientHandler {
        guard let pin else { return try NIOSSLClientHandler(context: context, serverHostname: hostname) }
        return try NIOSSLClientHandler(context: context, serverHostname: hostname) { [self] certificates, promise in
            let matches = (try? certificates.first?.extractPublicKey().toSPKIBytes())
                .map { Array(SHA256.hash(data: $0)) == pin } ?? false
            if !matches { pinFailure.withLock { $0 = true } }
            promise.succeed(matches ? .certificateVerified : .failed)
        }
    }

    /// Whether a handshake failed on the pin.
    func pinFailed() -> Bool { pinFailure.withLock { $0 } }

    /// The base64 SHA-256 of a PEM certificate's public key, for `--pin`.
    static func pin(ofCertificatePEM path: String) throws -> String {
        guard let certificate = try NIOSSLCertificate.fromPEMFile(path).first else {
            throw ClientError.invalidInput("\(path) holds no PEM certificate")
        }
        return Data(SHA256.hash(data: try certificate.extractPublicKey().toSPKIBytes())).base64EncodedString()
    }
}
