import Foundation

/// Where a server is and how to trust it.
public struct ServerAddress: Sendable, Codable, Equatable, CustomStringConvertible {
    /// Host name or IP address.
    public var host: String
    /// TCP port.
    public var port: Int
    /// Whether to speak TLS.
    public var tls: Bool
    /// Base64 SHA-256 of the server certificate's SubjectPublicKeyInfo; when set, only that key is accepted.
    public var pinnedKeySHA256: String?
    /// A PEM file of CA certificates to trust instead of the system's (for a private CA).
    public var trustedCertificatesFile: String?

    /// An address; TLS off unless asked.
    public init(host: String, port: Int, tls: Bool = false, pinnedKeySHA256: String? = nil, trustedCertificatesFile: String? = nil) {
        self.host = host
        self.port = port
        self.tls = tls
        self.pinnedKeySHA256 = pinnedKeySHA256
        self.trustedCertificatesFile = trustedCertificatesFile
    }

    /// Parses `HOST:PORT` (or `[v6]:PORT`).
    public init(parsing text: String, tls: Bool = false) throws(ClientError) {
        let invalid = ClientError.invalidInput("'\(text)' is not HOST:PORT (for example 127.0.0.1:7300)")
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
              (1...65535).contains(port) else { throw invalid }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw invalid }
        self.init(host: host, port: port, tls: tls)
    }

    /// The value for `pinnedKeySHA256` of a server certificate (PEM file): base64 SHA-256 of its public key.
    public static func keyPin(ofCertificatePEM path: String) throws(ClientError) -> String {
        do { return try TLSSetup.pin(ofCertificatePEM: path) } catch { throw .invalidInput("cannot read the certificate \(path)") }
    }

    public var description: String { "\(host):\(port)\(tls ? " (TLS)" : "")" }
}
