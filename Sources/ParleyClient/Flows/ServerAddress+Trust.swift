import Foundation

extension ServerAddress {
    /// The addresses in `text` (`HOST:PORT[,HOST:PORT…]`) with how to trust them: a pinned key (`pinKey`) or a
    /// CA file (`ca`) implies TLS. Changing the addresses of `current`, its TLS, pin and CA file are kept unless
    /// given again. A host with control characters is refused: it names no server, and would reach the terminal.
    public init(parsing text: String, tls: Bool, pinKey: String?, ca: String?, keeping current: ServerAddress? = nil) throws(ClientError) {
        try self.init(parsing: text, tls: tls || pinKey != nil || ca != nil || current?.tls == true)
        guard !endpoints.contains(where: { $0.host.unicodeScalars.contains { $0.properties.generalCategory == .control } }) else {
            throw .invalidInput("a server address cannot hold control characters")
        }
        pinnedKeySHA256 = pinKey ?? current?.pinnedKeySHA256
        trustedCertificatesFile = ca ?? current?.trustedCertificatesFile
    }
}
