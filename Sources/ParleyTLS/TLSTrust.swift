import Crypto
import Foundation
import NIOCore
import NIOSSL
import ParleyCrypto
import Synchronization

/// The client side of Parley's TLS, for the chat client and the mail client alike: system or given trust roots
/// with the host name checked, or a pinned server key (SPKI SHA-256) that alone decides — a self-hosted server
/// with a self-signed certificate is then trusted exactly when its key is the pinned one.
public final class TLSTrust: Sendable {
    /// Why a trust setting cannot be used.
    public enum Failure: Error, Sendable {
        /// The pin is not the base64 of 32 bytes.
        case malformedPin
        /// NIOSSL refused the configuration (a trust file it cannot read, …), in its words.
        case cannotSetUp(String)
    }

    private let context: NIOSSLContext
    private let hostname: String?
    private let pin: [UInt8]?
    private let pinFailure = Mutex(false)

    public init(host: String, pinnedKeySHA256: String?, trustedCertificatesFile: String?) throws(Failure) {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let file = trustedCertificatesFile { configuration.trustRoots = .file(file) }
        if let pinned = pinnedKeySHA256 {
            guard let bytes = Data(base64Encoded: pinned), bytes.count == 32 else { throw .malformedPin }
            pin = Array(bytes)
            configuration.certificateVerification = .noHostnameVerification
        } else {
            pin = nil
        }
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw .cannotSetUp(String(describing: error))
        }
        // SNI and hostname checks need a name, not an address.
        hostname = host.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" } ? nil : host
    }

    /// A handler for one connection.
    public func makeHandler() throws -> NIOSSLClientHandler {
        guard let pin else { return try NIOSSLClientHandler(context: context, serverHostname: hostname) }
        return try NIOSSLClientHandler(context: context, serverHostname: hostname) { [self] certificates, promise in
            let matches = (try? certificates.first?.extractPublicKey().toSPKIBytes())
                .map { ConstantTime.equals(Array(SHA256.hash(data: $0)), pin) } ?? false
            if !matches { pinFailure.withLock { $0 = true } }
            promise.succeed(matches ? .certificateVerified : .failed)
        }
    }

    /// Whether a handshake failed on the pin.
    public func pinFailed() -> Bool { pinFailure.withLock { $0 } }

    /// The base64 SHA-256 of a PEM certificate's public key, the value of a pin.
    public static func pin(ofCertificatePEM path: String) throws -> String {
        guard let certificate = try NIOSSLCertificate.fromPEMFile(path).first else {
            throw Failure.cannotSetUp("\(path) holds no PEM certificate")
        }
        return Data(SHA256.hash(data: try certificate.extractPublicKey().toSPKIBytes())).base64EncodedString()
    }
}
