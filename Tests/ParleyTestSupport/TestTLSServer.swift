import Foundation
import NIOSSL

/// A test server's side of TLS: a throwaway certificate for 127.0.0.1 (`TestCertificate`) and the context that
/// serves it; clients trust `certificate` (a PEM path).
public enum TestTLSServer {
    public static func context(in directory: URL) throws -> (context: NIOSSLContext, certificate: String) {
        let (cert, key) = try TestCertificate.make(in: directory)
        let context = try NIOSSLContext(configuration: .makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(cert).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem))))
        return (context, cert)
    }
}
