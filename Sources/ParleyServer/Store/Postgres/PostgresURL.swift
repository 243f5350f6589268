import Foundation

/// Where a PostgreSQL database is, parsed from `postgres://USER[:PASSWORD]@HOST[:PORT]/DB` or the
/// unix-socket form `postgres:///DB?host=/socket/dir&user=USER`.
///
/// The password is kept apart so no description of this value can leak it into a log or an error.
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    /// How the server is reached.
    public enum Endpoint: Sendable, Equatable {
        /// TCP to a host name or address and port.
        case tcp(host: String, port: Int)
        /// The socket `.s.PGSQL.PORT` in a directory, as libpq names it.
        case unixSocket(directory: String, port: Int)

        /// The socket file for `.unixSocket`, nil for TCP.
        public var socketPath: String? {
            guard case .unixSocket(let directory, let port) = self else { return nil }
            return (directory as NSString).appendingPathComponent(".s.PGSQL.\(port)")
        }
    }

    /// Whether TCP connections use TLS.
    public enum TLSMode: String, Sendable, Equatable {
        /// Plain TCP (only sensible on loopback or a private network).
        case disable
        /// TLS with the system trust roots and host-name verification.
        case require
    }

    /// The server.
    public var endpoint: Endpoint
    /// The role to log in as.
    public var user: String
    /// The password, if the URL carried one.
    public var password: String?
    /// The database name.
    public var database: String
    /// TLS for TCP; ignored for unix sockets.
    public var tls: TLSMode

    /// Parses a URL; errors name the part that is wrong, never the password.
    public init(_ text: String) throws(StoreError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
              scheme == "postgres" || scheme == "postgresql"
        else {
            throw .unavailable("the database URL must start with postgres:// (postgres://USER@HOST:PORT/DB)")
        }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard let value = item.value, !value.isEmpty else { throw .unavailable("the database URL parameter \(item.name) has no value") }
            guard ["host", "user", "password", "port", "sslmode"].contains(item.name) else {
                throw .unavailable("the database URL parameter \(item.name) is not supported (host, user, password, port, sslmode)")
            }
            query[item.name] = value
        }
        let database = String(components.percentEncodedPath.drop { $0 == "/" }).removingPercentEncoding ?? ""
        guard !database.isEmpty, !database.contains("/") else { throw .unavailable("the database URL names no database (…/DB)") }
        let portText = query["port"] ?? components.port.map(String.init) ?? "5432"
        guard let port = Int(portText), (1...65_535).contains(port) else { throw .unavailable("the database URL port must be 1–65535") }
        let host = components.host.flatMap { $0.isEmpty ? nil : $0 }
        if let socketDirectory = query["host"], socketDirectory.hasPrefix("/") {
            endpoint = .unixSocket(directory: socketDirectory, port: port)
        } else if let name = query["host"] ?? host {
            endpoint = .tcp(host: name, port: port)
        } else {
            throw .unavailable("the database URL names no host (postgres://USER@HOST/DB or ?host=/socket/dir)")
        }
        guard let user = query["user"] ?? components.user.flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw .unavailable("the database URL names no user (postgres://USER@HOST/DB or ?user=USER)")
        }
        self.user = user
        password = query["password"] ?? components.password
        self.database = database
        switch query["sslmode"] {
        case nil:
            // Plain TCP only where nobody else can listen in: loopback. Anything else must ask for it.
            if case .tcp(let name, _) = endpoint, !["localhost", "127.0.0.1", "::1"].contains(name) {
                tls = .require
            } else {
                tls = .disable
            }
        case let mode?:
            guard let parsed = TLSMode(rawValue: mode) else { throw .unavailable("the database URL sslmode must be disable or require") }
            tls = parsed
        }
    }

    /// The URL without its password, safe to log.
    public var description: String {
        switch endpoint {
        case .tcp(let host, let port):
            let shownHost = host.contains(":") ? "[\(host)]" : host
            return "postgres://\(user)@\(shownHost):\(port)/\(database)\(tls == .require ? "?sslmode=require" : "")"
        case .unixSocket(let directory, let port):
            return "postgres:///\(database)?host=\(directory)&port=\(port)&user=\(user)"
        }
    }
}
