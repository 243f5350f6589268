import ArgumentParser
import Foundation
import ParleyCrypto
import ParleyFiles
import ParleyTerminal

extension Parley.Envelope {
    /// `parley envelope open`: writes the secret held by an ECP1 envelope.
    struct Open: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "open", abstract: "Open an envelope and write the secret.")

        @OptionGroup var options: EnvelopeOptions

        func run() async throws {
            let envelope = KeyEnvelope(bytes: try FileIO.read(options.input))
            let password = try SecretInput.password(prompt: "Password: ", fromStandardInput: options.passwordStdin)
            let secret = try envelope.open(password: password)
            try FileIO.write(Data(secret), to: options.output, force: options.force, private: true)
        }
    }
}
