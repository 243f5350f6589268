import Foundation

/// One node of a server: where to connect.
public struct ServerEndpoint: Sendable, Codable, Equatable, CustomStringConvertible {
    /// Host name or IP address.
    public var host: String
    /// TCP port.
    public var port: Int

    /// An endpoint.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Where a server is and how to trust it: one address, or several nodes of one server (tried in turn
/// when one cannot be reached; they share the trust settings).
public struct ServerAddress: Sendable, Codable, Equatable, CustomStringConvertible {
    /// Host name or IP address (of the first node).
    public var host: String
    /// TCP port (of the first node).
    public var port: Int
    /// Further nodes, tried after the first; nil or empty for one.
    public var alternates: [ServerEndpoint]?
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

    /// Parses `HOST:PORT` (or `[v6]:PORT`), or several separated by commas: the nodes of one server.
    public init(parsing text: String, tls: Bool = false) throws(ClientError) {
        var endpoints: [ServerEndpoint] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            endpoints.append(try Self.endpoint(String(part).trimmingCharacters(in: .whitespaces)))
        }
        guard endpoints.count <= 16 else { throw .invalidInput("give at most 16 server addresses") }
        self.init(host: endpoints[0].host, port: endpoints[0].port, tls: tls)
        alternates = endpoints.count > 1 ? Array(endpoints.dropFirst()) : nil
    }

    private static func endpoint(_ text: String) throws(ClientError) -> ServerEndpoint {
        // Named before anything is echoed: such a host names no server, and its bytes would reach the terminal.
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidInput("a server address cannot hold control characters")
        }
        let invalid = ClientError.invalidInput("'\(text)' is not HOST:PORT (for example 127.0.0.1:7300)")
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
              (1...65535).contains(port) else { throw invalid }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains(where: { $0 == "/" || $0.isWhitespace }) else { throw invalid }
        return ServerEndpoint(host: host, port: port)
    }

    /// Every node, the first one first.
    public var endpoints: [ServerEndpoint] {
        [ServerEndpoint(host: host, port: port)] + (alternates ?? [])
    }

    /// This address pointed at node `index` of `endpoints` (same trust settings).
    func node(_ index: Int) -> ServerAddress {
        let endpoint = endpoints[index % endpoints.count]
        var copy = self
        copy.host = endpoint.host
        copy.port = endpoint.port
        return copy
    }

    /// The value for `pinnedKeySHA256` of a server certificate (PEM file): base64 SHA-256 of its public key.
    public static func keyPin(ofCertificatePEM path: String) throws(ClientError) -> String {
        do { return try TLSSetup.pin(ofCertificatePEM: path) } catch { throw .invalidInput("cannot read the certificate \(path)") }
    }

    public var description: String { endpoints.map(\.description).joined(separator: ",") + (tls ? " (TLS)" : "") }
}
