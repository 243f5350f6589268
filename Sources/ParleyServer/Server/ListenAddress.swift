/// An address as the operator writes it: `HOST:PORT`, or `[IPv6]:PORT` (the server's `--listen`, `--metrics`,
/// an SMTP relay, the nodes a load test drives).
public enum ListenAddress {
    /// Why a text is not an address.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// No colon between a host and a port.
        case noPort
        /// The host is empty, or the port is not a number from 0 to 65535.
        case invalid

        /// What to write instead, with an example.
        public var description: String {
            switch self {
            case .noPort: "--listen must be HOST:PORT, for example 127.0.0.1:7433"
            case .invalid: "--listen must be HOST:PORT with a port from 0 to 65535, for example 127.0.0.1:7433"
            }
        }
    }

    /// The host (without an IPv6 address's brackets) and the port of `text`.
    public static func parse(_ text: String) throws(Failure) -> (host: String, port: Int) {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(after: close)...].drop { $0 == ":" }
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        } else {
            throw .noPort
        }
        guard !host.isEmpty, let port = Int(portText), (0...65_535).contains(port) else { throw .invalid }
        return (String(host), port)
    }
}
