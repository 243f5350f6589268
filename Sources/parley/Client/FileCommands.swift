import ArgumentParser
import Foundation
import ParleyChatUI
import ParleyClient
import ParleyFiles
import ParleyTerminal

/// The `--file` options of `parley send`.
struct FileSendOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Send this file (encrypted on this device, uploaded in chunks, resumed if the connection drops).",
                               valueName: "path"))
    var file: String?

    @Option(help: ArgumentHelp("Refuse files larger than this many MiB before uploading anything (default: the most a default server takes, 63.98 MiB).",
                               valueName: "MiB"))
    var maxSize: Int64?

    /// Sends `path` with an optional caption, printing progress to standard error.
    func send(_ path: String, caption: String?, to conversationID: Int64, client: ParleyClient) async throws -> SendOutcome {
        var options = AttachmentOptions()
        if let maxSize {
            guard (1...(1 << 30)).contains(maxSize) else { throw CommandFailure("--max-size: give a number of MiB from 1 to \(1 << 30)") }
            options.maximumSize = maxSize * 1024 * 1024
        }
        options.caption = caption
        let name = URL(fileURLWithPath: path).lastPathComponent
        let size = (try? FileManager.default.attributesOfItem(atPath: (path as NSString).expandingTildeInPath)[.size] as? NSNumber)?.int64Value
        let progress = UploadProgress(name: name, fileSize: size)
        options.progress = { report in
            if let offset = report.resumedAt {
                let held = FileLabel.size(progress.inFileBytes(offset, of: report.total))
                progress.say("resuming \(name) at \(held), what the server already holds of it")
            } else {
                progress.report(done: report.done, total: report.total)
            }
        }
        do {
            return try await client.send(file: URL(fileURLWithPath: (path as NSString).expandingTildeInPath), to: conversationID, options: options)
        } catch .notConnected, .disconnected, .timeout(_) {
            throw CommandFailure("the connection was lost and did not come back; what was uploaded is kept: run the same command again to resume")
        }
    }
}

extension Parley {
    /// `parley download`.
    struct Download: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "download",
            abstract: "Download the file of a message, check its digest and authentication, and write it.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The message id (from 'parley read').") var messageID: Int64
        @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the file ('-' for standard output, which must not be a terminal).", valueName: "path"))
        var output: String
        @Flag(help: "Replace an existing file.") var force = false

        func run() async throws {
            if output == "-" { return try await toStandardOutput() }
            let target = URL(fileURLWithPath: (output as NSString).expandingTildeInPath)
            try OutputPlace.check(target.path, force: force)
            let attachment = try await options.withClient(reconnect: true) { client in
                try await client.download(messageID: messageID, to: target, options: Self.transfer())
            }
            options.output(["message_id": "\(messageID)", "path": target.path, "name": attachment.name, "size": "\(attachment.size)",
                            "mime_type": attachment.mimeType]) {
                "Wrote \(attachment.name) (\(FileLabel.size(attachment.size)), \(attachment.mimeType)) to \(target.path); digest and authentication checked."
            }
        }

        /// `-o -`: the file's bytes go to standard output once every check passed; what was written is said on standard
        /// error. A file's bytes are not text for a terminal (they could drive it), so a terminal is refused.
        private func toStandardOutput() async throws {
            guard isatty(STDOUT_FILENO) != 1 else {
                throw CommandFailure("standard output is a terminal, and a received file's bytes could drive it: redirect it (> FILE, | less) or give -o PATH")
            }
            let attachment = try await options.withClient(reconnect: true) { client in
                try await client.download(messageID: messageID, into: .standardOutput, options: Self.transfer())
            }
            Console.err("Wrote \(attachment.name) (\(FileLabel.size(attachment.size)), \(attachment.mimeType)) to standard output; digest and authentication checked.")
        }

        private static func transfer() -> AttachmentOptions {
            var transfer = AttachmentOptions()
            transfer.progress = { report in
                if report.resumedAt != nil { ProgressLine.write("connection restored; resuming the download") }
            }
            return transfer
        }
    }
}

/// Progress lines on standard error, so standard output stays the command's result.
enum ProgressLine {
    static func write(_ text: String) {
        Console.err(text)
    }
}
