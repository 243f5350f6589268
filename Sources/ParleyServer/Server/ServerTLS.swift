import NIOSSL
import Synchronization

/// The server's TLS context, which a reload replaces (docs/OPERATIONS.md §11): connections accepted after a
/// reload present the new certificate; those already open keep the session they negotiated.
final class ServerTLS: Sendable {
    private let certificatePath: String
    private let keyPath: String
    private let context: Mutex<NIOSSLContext>

    /// Loads the certificate and key named in `configuration`; nil when TLS is off.
    init?(_ configuration: ServerConfiguration) throws {
        guard let context = try TLSConfiguration.serverContext(configuration),
              let certificatePath = configuration.tlsCertificatePath, let keyPath = configuration.tlsKeyPath
        else { return nil }
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        self.context = Mutex(context)
    }

    /// The context for the next connection.
    var current: NIOSSLContext { context.withLock { $0 } }

    /// Reads the certificate and key files again. On any problem the context in use stays and the error says why.
    func reload() throws {
        let fresh = try TLSConfiguration.serverContext(certificate: certificatePath, key: keyPath)
        context.withLock { $0 = fresh }
    }

    /// What a reload read, for the log: the certificate file.
    var source: String { certificatePath }
}
