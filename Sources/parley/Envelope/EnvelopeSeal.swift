import ArgumentParser
import Foundation
import ParleyCrypto
import ParleyFiles
import ParleyTerminal

extension Parley.Envelope {
    /// `parley envelope seal`: writes an ECP1 envelope holding the input.
    struct Seal: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "seal", abstract: "Seal a secret under a password.")

        @OptionGroup var options: EnvelopeOptions

        @Option(help: "PBKDF2-HMAC-SHA256 iterations (210000–10000000).")
        var iterations: UInt32 = KeyEnvelope.defaultIterations

        func run() async throws {
            let secret = try FileIO.read(options.input)
            let password = try SecretInput.password(prompt: "New password: ", fromStandardInput: options.passwordStdin)
            let envelope = try KeyEnvelope.seal(secret, password: password, iterations: iterations)
            try FileIO.write(Data(envelope.bytes), to: options.output, force: options.force, private: true)
        }
    }
}
