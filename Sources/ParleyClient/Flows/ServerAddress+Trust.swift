import Foundation

extension ServerAddress {
    /// The addresses in `text` (`HOST:PORT[,HOST:PORT…]`) with how to trust them: a pinned key (`pinKey`) or a
    /// CA file (`ca`) implies TLS. Changing the addresses of `current`, its TLS, pin and CA file are kept unless
    /// given again.
    public init(parsing text: String, tls: Bool, pinKey: String?, ca: String?, keeping current: ServerAddress? = nil) throws(ClientError) {
        try self.init(parsing: text, tls: tls || pinKey != nil || ca != nil || current?.tls == true)
        pinnedKeySHA256 = pinKey ?? current?.pinnedKeySHA256
        trustedCertificatesFile = ca ?? current?.trustedCertificatesFile
    }
}
