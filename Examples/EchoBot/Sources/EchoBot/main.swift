// An echo bot on Parley's client SDK, using only its public API (docs/SDK.md):
//
//   PARLEY_PASSWORD=… echo-bot register --home DIR --email bot@example.org --server HOST:PORT
//   echo-bot confirm --home DIR --email bot@example.org CODE
//   echo-bot run --home DIR --email bot@example.org --file PATH
//
// `run` stays connected: it answers every text someone sends it with "echo: TEXT" (a reply to their message),
// and "/file" with the file at PATH. It accepts whoever writes (their message requests). It prints only ids,
// never what people wrote: remote text does not belong on a terminal unescaped.
import Foundation
import ParleyClient

struct Options {
    var command = ""
    var home = ""
    var email = ""
    var server = ""
    var file: String?
    var code: String?

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        command = rest.popFirst() ?? ""
        while let word = rest.popFirst() {
            switch word {
            case "--home": home = rest.popFirst() ?? ""
            case "--email": email = rest.popFirst() ?? ""
            case "--server": server = rest.popFirst() ?? ""
            case "--file": file = rest.popFirst()
            default: code = word
            }
        }
        guard !home.isEmpty, !email.isEmpty else { throw Usage() }
    }
}

struct Usage: Error, CustomStringConvertible {
    var description: String { "usage: echo-bot register|confirm CODE|run --home DIR --email ADDRESS [--server HOST:PORT] [--file PATH]" }
}

func serverAddress(_ text: String) throws -> ServerAddress {
    let parts = text.split(separator: ":")
    guard parts.count == 2, let port = Int(parts[1]) else { throw Usage() }
    return ServerAddress(host: String(parts[0]), port: port)
}

/// One line on standard output, written at once (also into a pipe or a log).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func run(_ options: Options) async throws {
    let home = URL(fileURLWithPath: options.home)
    switch options.command {
    case "register":
        guard let password = ProcessInfo.processInfo.environment["PARLEY_PASSWORD"] else { throw Usage() }
        let client = try ParleyClient.create(
            home: home, email: options.email, displayName: "Echo bot", server: try serverAddress(options.server), pin: nil)
        try await client.registration.register(password: password)
        say("registered; run: echo-bot confirm --home \(options.home) --email \(options.email) CODE")
    case "confirm":
        guard let code = options.code else { throw Usage() }
        let client = try ParleyClient.open(home: home, email: options.email, pin: nil)
        try await client.registration.confirm(code: code)
        say("confirmed")
    case "run":
        let client = try ParleyClient.open(home: home, email: options.email, pin: nil)
        let events = client.events()  // subscribe first: the catch-up at connect arrives as events too
        try await client.connect()
        let me = await client.accountID
        say("listening")
        for await event in events {
            guard case .message(let message) = event, message.senderID != me, !message.isHiddenControl,
                  !message.undecryptable, message.attachment == nil
            else { continue }
            if message.text.trimmingCharacters(in: .whitespaces) == "/file", let file = options.file {
                _ = try await client.send(file: URL(fileURLWithPath: file), to: message.conversationID)
            } else {
                _ = try await client.send("echo: \(message.text)", to: message.conversationID, replyTo: message.id)
            }
            say("answered message \(message.id)")
        }
    default:
        throw Usage()
    }
}

do {
    try await run(try Options(Array(CommandLine.arguments.dropFirst())))
} catch {
    FileHandle.standardError.write(Data("echo-bot: \(error)\n".utf8))
    exit(1)
}
