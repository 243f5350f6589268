import Foundation
import ParleyTestSupport
import Testing

/// Help texts are paragraphs that argument-parser wraps to the terminal; a hard line break inside a sentence
/// shows as a line cut short (issue 21, item 16).
@Suite("help texts", .offThePool)
struct HelpTextTests {
    static let commands: [[String]] = [
        ["demo"], ["chat"], ["server"], ["account", "pair"], ["account", "login"], ["account", "servers"], ["account", "logout"],
        ["file"], ["file", "open"], ["verify"], ["pgp"], ["pgp", "read-mail"], ["location"], ["envelope"], ["bench", "client"],
    ]

    @Test(arguments: commands)
    func noSentenceIsBrokenByHand(_ command: [String]) async throws {
        // So wide that argument-parser wraps nothing: every line break left is one written into the text.
        let help = try await ParleyBinary.runDetached(command + ["--help"], environment: ["COLUMNS": "2000"])
        #expect(help.status == 0 && help.stdout.contains("USAGE:"), "\(help.stderr)")
        let text = help.stdout.components(separatedBy: "USAGE:")[0]
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (line, next) in zip(lines, lines.dropFirst()) {
            guard let last = line.last, let first = next.first else { continue }
            let cut = (last.isLetter || last == ",") && first.isLowercase
            #expect(!cut, "'\(command.joined(separator: " ")) --help' breaks a sentence: «\(line)» / «\(next)»")
        }
    }
}
