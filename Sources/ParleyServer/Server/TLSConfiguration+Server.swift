import NIOSSL

extension TLSConfiguration {
    /// The TLS context for `configuration`, or nil when TLS is off.
    static func serverContext(_ configuration: ServerConfiguration) throws -> NIOSSLContext? {
        switch (configuration.tlsCertificatePath, configuration.tlsKeyPath) {
        case (nil, nil):
            return nil
        case (let certificate?, let key?):
            return try serverContext(certificate: certificate, key: key)
        default:
            throw ServerStartError.tls("--tls-cert and --tls-key must be given together")
        }
    }

    /// A TLS 1.2+ server context from a PEM certificate chain and its PEM private key.
    static func serverContext(certificate: String, key: String) throws -> NIOSSLContext {
        do {
            let chain = try NIOSSLCertificate.fromPEMFile(certificate).map { NIOSSLCertificateSource.certificate($0) }
            let privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
            var tls = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(privateKey))
            tls.minimumTLSVersion = .tlsv12
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw ServerStartError.tls("cannot load the TLS certificate or key (check that both are PEM files that match)")
        }
    }
}

/// Why the server could not start.
public enum ServerStartError: Error, CustomStringConvertible, Sendable {
    /// The TLS certificate or key could not be used.
    case tls(String)

    public var description: String {
        switch self {
        case .tls(let why): why
        }
    }
}
