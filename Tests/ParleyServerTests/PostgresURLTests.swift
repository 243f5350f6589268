import Foundation
import ParleyServer
import Testing

/// `--database` URL parsing: the forms docs/OPERATIONS.md §1.1 documents, and clear refusals.
@Suite("PostgreSQL URLs")
struct PostgresURLTests {
    @Test("TCP form with password, port and the loopback default of plain TCP")
    func tcp() throws {
        let url = try PostgresURL("postgres://parley:s3cret@127.0.0.1:5433/chat")
        #expect(url.endpoint == .tcp(host: "127.0.0.1", port: 5433))
        #expect(url.user == "parley" && url.password == "s3cret" && url.database == "chat" && url.tls == .disable)
        #expect(url.description == "postgres://parley@127.0.0.1:5433/chat")
        #expect(!"\(url)".contains("s3cret"))
    }

    @Test("a remote host requires TLS unless told otherwise")
    func remoteTLS() throws {
        let remote = try PostgresURL("postgresql://parley@db.example.org/chat")
        #expect(remote.endpoint == .tcp(host: "db.example.org", port: 5432) && remote.tls == .require)
        #expect(try PostgresURL("postgres://parley@db.example.org/chat?sslmode=disable").tls == .disable)
        #expect(try PostgresURL("postgres://parley@localhost/chat?sslmode=require").tls == .require)
    }

    @Test("unix-socket form names the directory; the socket file is .s.PGSQL.PORT")
    func unixSocket() throws {
        let url = try PostgresURL("postgres:///chat?host=/run/postgresql&user=parley&port=5444")
        #expect(url.endpoint == .unixSocket(directory: "/run/postgresql", port: 5444))
        #expect(url.endpoint.socketPath == "/run/postgresql/.s.PGSQL.5444")
        #expect(url.user == "parley" && url.password == nil && url.database == "chat")
    }

    @Test("malformed URLs are refused with the part that is wrong, never echoing a password", arguments: [
        ("mysql://u@h/db", "postgres://"),
        ("postgres://u@h/", "no database"),
        ("postgres:///db?user=u", "no host"),
        ("postgres://h/db", "no user"),
        ("postgres://u:pw-secret@h:0/db", "port"),
        ("postgres://u@h/db?sslmode=maybe", "sslmode"),
        ("postgres://u@h/db?options=-c%20x", "not supported"),
        ("postgres://u@h/db?host=", "no value"),
        ("", "postgres://"),
    ])
    func refusals(_ text: String, _ reason: String) {
        do {
            let url = try PostgresURL(text)
            Issue.record("accepted \(url)")
        } catch {
            #expect("\(error)".contains(reason), "\(error)")
            #expect(!"\(error)".contains("pw-secret"))
        }
    }
}
