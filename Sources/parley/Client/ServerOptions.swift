import ArgumentParser
import ParleyClient

/// Where the server is and how to trust it: for the commands that start an account on this device.
struct ServerOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The server, HOST:PORT.", valueName: "host:port")) var server: String
    @Flag(help: "Connect with TLS.") var tls = false
    @Option(help: ArgumentHelp("Trust only this server key: base64 SHA-256 of its SubjectPublicKeyInfo.", valueName: "base64"))
    var pinKey: String?
    @Option(help: ArgumentHelp("A PEM file of CA certificates to trust.", valueName: "file")) var ca: String?

    /// The address with its trust settings; TLS is implied by a pin or a CA file.
    func address() throws -> ServerAddress {
        try ServerAddress(parsing: server, tls: tls, pinKey: pinKey, ca: ca)
    }
}
