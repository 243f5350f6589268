import ArgumentParser
import Foundation
import ParleyCrypto
import ParleyFiles

extension Parley.File {
    /// `parley file keygen`: a key pair for receiving files.
    struct Keygen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keygen",
            abstract: "Make a key pair: the private key sealed under a password (ECP1), the public key as PEM.")

        @Option(help: "Key kind: x25519 (default), p256 (FileLock / Secure Enclave compatible) or xwing (post-quantum).")
        var kind: KeyKind = .x25519

        @Option(name: .shortAndLong, help: "Where to write the private key envelope.")
        var output = "private_key.ecp1"

        @Option(name: .customLong("public"), help: "Where to write the public key.")
        var publicOutput = "public_key.pem"

        @Option(help: "PBKDF2-HMAC-SHA256 iterations for the key envelope (210000–10000000).")
        var iterations: UInt32 = KeyEnvelope.defaultIterations

        @Flag(help: "Read the password from the first line of standard input.")
        var passwordStdin = false

        @Flag(help: "Replace existing key files.")
        var force = false

        func run() async throws {
            for path in [output, publicOutput] where FileManager.default.fileExists(atPath: path) && !force {
                throw FileIO.Failure(description: "\(path) already exists: choose another path or pass --force to replace it")
            }
            let identity = try FileKeyFile.generate(kind.stanzaKind)
            let password = try SecretInput.password(prompt: "New password for the private key: ", fromStandardInput: passwordStdin)
            let envelope = try KeyEnvelope.seal(try FileKeyFile.secret(of: identity), password: password, iterations: iterations)
            try FileIO.write(Data(envelope.bytes), to: output, force: force, private: true)
            try FileIO.write(Data(try FileKeyFile.publicKeyPEM(of: identity).utf8), to: publicOutput, force: force, private: false)
            print("private key: \(output) (\(kind.rawValue), sealed under your password)")
            print("public key:  \(publicOutput) (give this to people who send you files)")
        }
    }
}

/// The key kinds `keygen` can make.
enum KeyKind: String, ExpressibleByArgument, CaseIterable {
    case x25519, p256, xwing

    var stanzaKind: StanzaKind {
        switch self {
        case .x25519: .x25519
        case .p256: .p256
        case .xwing: .xwing
        }
    }
}
