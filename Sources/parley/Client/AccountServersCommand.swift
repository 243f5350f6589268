import ArgumentParser
import ParleyClient
import ParleyTerminal

extension Parley.Account {
    /// `parley account servers [HOST:PORT,…]`: show or change where this device connects.
    struct Servers: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "servers",
            abstract: "Show or change the server addresses this device connects to.",
            discussion: """
                A server of several nodes is given as HOST:PORT,HOST:PORT,…; the client tries them in turn, \
                starting with the one that answered last. The addresses must reach the same server (the nodes \
                of one database): this does not move an account. TLS settings are kept unless given again.
                """)

        @OptionGroup var options: ClientOptions
        @Argument(help: ArgumentHelp("The new addresses, HOST:PORT[,HOST:PORT…]; without them, show the current ones.", valueName: "addresses"))
        var addresses: String?
        @Flag(help: "Connect with TLS.") var tls = false
        @Option(help: ArgumentHelp("Trust only this server key: base64 SHA-256 of its SubjectPublicKeyInfo.", valueName: "base64"))
        var pinKey: String?
        @Option(help: ArgumentHelp("A PEM file of CA certificates to trust.", valueName: "file")) var ca: String?

        func run() async throws {
            let client = try options.open()
            var address = await client.server
            if let addresses {
                do {
                    address = try ServerAddress(parsing: addresses, tls: tls, pinKey: pinKey, ca: ca, keeping: address)
                    try await client.setServer(address)
                } catch {
                    throw CommandFailure("\(error)")
                }
            }
            let nodes = address.endpoints.map(\.description)
            options.output(["servers": nodes, "tls": address.tls ? ["on"] : ["off"]]) {
                (addresses == nil ? "" : "Saved. ") + "\(client.email) connects to \(nodes.joined(separator: ", "))\(address.tls ? " with TLS" : "")"
            }
        }
    }
}
