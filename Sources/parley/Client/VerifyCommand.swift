import ArgumentParser
import Foundation
import ParleyChatUI
import ParleyClient
import ParleyCrypto
import ParleyFiles
import ParleyQR
import ParleyTerminal

extension Parley {
    /// `parley verify …`: safety numbers, verification QR codes, key changes.
    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Verify a contact: safety number, QR code, accept a changed key.",
            discussion: """
                'parley verify EMAIL' shows the safety number you and EMAIL compare (in person or on a call) and \
                both fingerprints; '--qr' shows your code for them to scan. Then 'parley verify mark EMAIL' (numbers \
                match) or 'parley verify scan IMAGE' (their code) marks them verified.
                """,
            subcommands: [Show.self, Scan.self, Mark.self, Accept.self], defaultSubcommand: Show.self)
    }
}

extension Parley.Verify {
    /// `parley verify EMAIL [--qr] [--png PATH]`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show the safety number and fingerprints for a contact (the default).")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The contact's e-mail.") var email: String
        @Flag(help: "Draw your verification QR code in the terminal, for the contact to scan.") var qr = false
        @Option(help: ArgumentHelp("Also write your verification QR code as a PNG image.", valueName: "path")) var png: String?
        @Flag(help: "Replace the --png file if it exists.") var force = false

        func run() async throws {
            let shown = try await options.withClient(requireServer: false) { client in try await client.trust.verification(of: email) }
            if let png {
                let bytes: [UInt8]
                do { bytes = try QRMatrix.encode(Array(shown.localPayload.qrText.utf8)).png() } catch { throw CommandFailure("\(error)") }
                try FileIO.write(Data(bytes), to: png, force: force, private: false)
            }
            options.output(VerificationOutput(shown)) {
                var lines = VerificationText.lines(shown)
                if qr {
                    lines += ["", "Your code, for \(shown.email) to scan with 'parley verify scan':",
                              (try? QRMatrix.encode(Array(shown.localPayload.qrText.utf8)).terminalText()) ?? "(cannot draw the code)"]
                }
                if let png { lines.append("Wrote your verification code to \(png).") }
                return lines.joined(separator: "\n")
            }
        }
    }

    /// `parley verify scan IMAGE`.
    struct Scan: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "scan", abstract: "Read a contact's verification QR code from a PNG image and verify them.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "A PNG image of the contact's code ('parley verify YOUR-EMAIL --png FILE' on their side).") var image: String

        func run() async throws {
            let codes: [[UInt8]]
            do { codes = try QRScanner.decode(png: try VerifyImage.read(image)) } catch let error as QRError {
                throw CommandFailure("\(image): \(error)")
            }
            // An image may hold other codes too: use the first that is a Parley verification code.
            guard let code = VerificationFlow.verificationCode(inScanned: codes) else {
                throw CommandFailure("\(image): \(VerificationError.notAVerificationCode)")
            }
            let shown = try await options.withClient(requireServer: false) { client in try await client.trust.verify(scannedPayload: code) }
            options.output(VerificationOutput(shown)) {
                "Verified \(shown.email): the scanned code matches their identity key.\nSafety number: \(shown.safetyNumber.grouped)"
            }
        }
    }

    /// `parley verify mark EMAIL [--yes]`.
    struct Mark: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "mark", abstract: "Mark a contact verified after comparing safety numbers.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The contact's e-mail.") var email: String
        @Flag(help: "Do not ask: the numbers were compared already.") var yes = false

        func run() async throws {
            let shown = try await options.withClient(requireServer: false) { client in
                let shown = try await client.trust.verification(of: email)
                if !yes {
                    print(VerificationText.lines(shown).joined(separator: "\n"))
                    print("Does \(shown.email) see exactly this number? [y/N] ", terminator: "")
                    guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                        throw CommandFailure("not marked: the numbers were not confirmed")
                    }
                }
                return try await client.trust.markVerified(email, comparedNumber: shown.safetyNumber)
            }
            options.output(VerificationOutput(shown)) { "Marked \(shown.email) verified." }
        }
    }

    /// `parley verify accept EMAIL`.
    struct Accept: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "accept",
            abstract: "Accept a contact's changed identity key (unblocks sending; they become trusted, not verified).")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The contact's e-mail.") var email: String

        func run() async throws {
            let status = try await options.withClient(requireServer: false) { client in try await client.trust.acceptIdentityChange(of: email) }
            options.output(["email": email.lowercased(), "status": status.rawValue]) {
                "Accepted the new identity key of \(email.lowercased()); status: \(status.label). Compare safety numbers to verify it: parley verify \(email.lowercased())"
            }
        }
    }
}

/// Reads an image file, refusing huge files before loading them.
enum VerifyImage {
    static func read(_ path: String) throws -> [UInt8] {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        if let size, size > GrayImage.maximumFileSize {
            throw QRError.tooLarge("\(size) bytes; at most \(GrayImage.maximumFileSize)")
        }
        do { return Array(try FileIO.read(path)) } catch { throw CommandFailure("\(error)") }
    }
}
