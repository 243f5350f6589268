import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto
import ParleyFiles
import ParleyTerminal
import ParleyHardwareKeys

extension FileCommand {
    /// `parley file keygen`: a key pair for receiving files.
    public struct Keygen: AsyncParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "keygen",
            abstract: "Make a key pair: the private key sealed under a password (ECP1), the public key as PEM.")

        @Option(help: "Key kind: x25519 (default), p256 (FileLock / Secure Enclave compatible) or xwing (post-quantum).")
        var kind: KeyKind = .x25519

        @Option(name: .shortAndLong, help: "Where to write the private key envelope (with --hardware: the TPM's key blob, private_key.phk).")
        var output: String?

        @Option(name: .customLong("public"), help: "Where to write the public key.")
        var publicOutput = "public_key.pem"

        @Option(help: "PBKDF2-HMAC-SHA256 iterations for the key envelope (210000–10000000).")
        var iterations: UInt32 = KeyEnvelope.defaultIterations

        @Flag(help: "Read the password from the first line of standard input.")
        var passwordStdin = false

        @Flag(help: "Replace existing key files.")
        var force = false

        @Flag(help: ArgumentHelp(
            "Make a P-256 key inside this machine's TPM 2.0; the file holds only the TPM's blob, useless elsewhere.",
            discussion: "The TPM is /dev/tpmrm0, or what PARLEY_TPM_TCTI names (e.g. swtpm:host=127.0.0.1,port=2321). Implies --kind p256."))
        var hardware = false

        @Flag(help: "With --hardware: protect the key with a PIN the TPM checks (PARLEY_PIN, standard input or the terminal); the TPM locks out guessing.")
        var pin = false

        public init() {}

        public func validate() throws {
            if hardware, kind != .p256, kind != .x25519 { throw ValidationError("--hardware makes a P-256 key; leave out --kind or say p256") }
            if pin, !hardware { throw ValidationError("--pin goes with --hardware (a software key is sealed under its password)") }
        }

        public func run() async throws {
            let output = output ?? (hardware ? "private_key.phk" : "private_key.ecp1")
            for path in [output, publicOutput] { try OutputPlace.check(path, force: force) }
            if hardware { return try makeHardwareKey(output: output) }
            let identity = try FileKeyFile.generate(kind.stanzaKind)
            let password = try SecretInput.password(prompt: "New password for the private key: ", fromStandardInput: passwordStdin)
            let envelope = try KeyEnvelope.seal(try FileKeyFile.secret(of: identity), password: password, iterations: iterations)
            try FileIO.write(Data(envelope.bytes), to: output, force: force, private: true)
            try FileIO.write(Data(try FileKeyFile.publicKeyPEM(of: identity).utf8), to: publicOutput, force: force, private: false)
            Console.out("private key: \(output) (\(kind.rawValue), sealed under your password)")
            Console.out("public key:  \(publicOutput) (give this to people who send you files)")
        }

        private func makeHardwareKey(output: String) throws {
            let device = TPMDevice()
            let pin = pin ? try SecretInput.pin(prompt: "New PIN for the TPM key: ", fromStandardInput: passwordStdin) : nil
            let key: HardwareP256Key
            do {
                let blob = try device.createP256Key(pin: pin)
                key = try HardwareP256Key(device: device, blob: blob, pin: pin)
            } catch {
                throw CommandFailure("cannot make the key in the TPM: \(error)")
            }
            try FileIO.write(Data(key.blob.bytes), to: output, force: force, private: true)
            try FileIO.write(Data(try FileKeyFile.publicKeyPEM(of: .p256Held(key)).utf8), to: publicOutput, force: force, private: false)
            Console.out("private key: \(output) (p256, held by the TPM at \(device.tcti)\(pin == nil ? "" : ", PIN-protected"); useless on any other machine)")
            Console.out("public key:  \(publicOutput) (give this to people who send you files)")
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
