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

/// `parley file` (and the program `parley-file`): encrypt files for keys and passphrases (Parley v1, FileLock, Apple
/// ECIES).
public struct FileCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "file",
        abstract: "Encrypt and decrypt files: Parley v1 (streaming, many recipients), FileLock packages, Apple ECIES.",
        discussion: FileCommand.discussion,
        subcommands: subcommands
    )

    /// What `parley file --help` and `parley-file --help` say below the summary.
    public static let discussion = """
        Passwords and passphrases come from a prompt, from --password-stdin, or from PARLEY_PASSWORD; \
        never from a command-line argument. Formats: docs/FORMATS.md §8–10.
        """

    /// The operations, the same under `parley file` and `parley-file`.
    public static let subcommands: [any ParsableCommand.Type] = [Keygen.self, Seal.self, Open.self, Inspect.self, Wrap.self, Unwrap.self]

    public init() {}
}

/// Key loading shared by the file subcommands.
enum FileKeys {
    /// Reads a private key file: a Parley key envelope (asks for its password) or a plain P-256 key.
    static func identity(path: String, passwordFromStandardInput: Bool) throws -> FileIdentity {
        let bytes = Array(try FileIO.read(path))
        if bytes.starts(with: HardwareKeyBlob.magic) { return try hardwareIdentity(bytes, path: path, pinFromStandardInput: passwordFromStandardInput) }
        guard bytes.starts(with: KeyEnvelope.magic) else { return try FileKeyFile.p256Identity(fromKeyFile: bytes) }
        let password = try SecretInput.password(
            prompt: "Password for \(path): ", fromStandardInput: passwordFromStandardInput)
        let secret = try KeyEnvelope(bytes: bytes).open(password: password)
        return try FileKeyFile.identity(fromSecret: secret)
    }

    /// A P-256 key held by the TPM (`keygen --hardware`): the TPM named by PARLEY_TPM_TCTI, or /dev/tpmrm0.
    static func hardwareIdentity(_ bytes: [UInt8], path: String, pinFromStandardInput: Bool) throws -> FileIdentity {
        let blob: HardwareKeyBlob
        do { blob = try HardwareKeyBlob(bytes: bytes) } catch { throw FileError.invalidKey("\(path): \(error)") }
        let pin = blob.needsPIN ? try SecretInput.pin(prompt: "PIN for \(path): ", fromStandardInput: pinFromStandardInput) : nil
        do {
            return .p256Held(try HardwareP256Key(device: TPMDevice(), blob: blob, pin: pin))
        } catch {
            throw FileError.invalidKey("\(path): \(error)")
        }
    }

    /// Reads a public key file as a recipient.
    static func recipient(path: String) throws -> FileRecipient {
        try FileKeyFile.recipient(fromPublicKeyFile: Array(try FileIO.read(path)))
    }

    /// Refuses to read both a secret and the data from standard input.
    static func checkStandardInput(passwordStdin: Bool, input: String, needsSecret: Bool) throws {
        if passwordStdin, needsSecret, input == "-" {
            throw ValidationError("--password-stdin and reading data from '-' both need standard input; give the data as a file")
        }
    }
}
