import ArgumentParser
import Foundation
import ParleyMail
import ParleyPGP
import ParleyTerminal

extension Parley.Mail {
    /// `parley mail save N --attachment K -o FILE`: one attachment of a stored message, decrypted.
    struct MailSave: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "save",
            abstract: "Save one attachment of a stored message (decrypted), by its number in `parley mail read`.")
        @OptionGroup var options: MailOptions
        @Option(help: "Which attachment, counting from 1 in the order `read` lists them.") var attachment: Int
        @Option(name: .shortAndLong, help: "The file to write (must not exist).") var output: String
        @OptionGroup var keys: MailKeyOptions
        @OptionGroup var password: MessagePasswordOptions
        @Argument(help: "The message's number, as `parley mail list` shows it.") var id: Int64

        func run() async throws {
            let store = try options.open()
            let mail = try MailOpening.open(id, store: store, pgp: try options.pgpOptions(email: store.email, keys: keys),
                                            passwords: try password.passwords()).mail
            let attachments = mail.blocks.compactMap { block -> MailAttachment? in
                if case .attachment(let attachment) = block { return attachment } else { return nil }
            }
            guard attachments.indices.contains(attachment - 1) else {
                throw CommandFailure("message \(id) has \(attachments.count) attachment(s); pick one from 1 to \(attachments.count)")
            }
            let chosen = attachments[attachment - 1]
            let target = URL(fileURLWithPath: (output as NSString).expandingTildeInPath)
            guard !FileManager.default.fileExists(atPath: target.path) else { throw CommandFailure("\(output) exists already") }
            guard FileManager.default.createFile(atPath: target.path, contents: Data(chosen.data), attributes: [.posixPermissions: 0o600]) else {
                throw CommandFailure("cannot write \(output)")
            }
            Console.out("Saved \(chosen.safeName) (\(chosen.data.count) B\(chosen.wasEncrypted ? ", decrypted" : "")) to \(target.path).")
        }
    }
}
