import ArgumentParser
import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto
import ParleyFiles
import ParleyTerminal
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileCommand {
    /// `parley file wrap`: raw Apple ECIES encryption, standard input to standard output.
    public struct Wrap: AsyncParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "wrap",
            abstract: "Encrypt standard input with Apple ECIES (SecKeyCreateEncryptedData-compatible) to a P-256 key.")

        @Option(help: "The recipient's P-256 public key file (SPKI PEM/DER or FileLock's base64 point).")
        var to: String

        @Option(help: "cofactor (eciesEncryptionCofactorX963SHA256AESGCM) or variable-iv (…VariableIVX963SHA256AESGCM).")
        var variant: ECIESVariant = .cofactor

        public init() {}

        public func run() async throws {
            let key = try P256KeyImport.publicKey(from: try FileIO.read(to))
            let blob = try AppleECIES.seal(try FileIO.read("-"), to: key, variant: variant.variant)
            StandardStreams.write(blob, to: STDOUT_FILENO)
        }
    }

    /// `parley file unwrap`: raw Apple ECIES decryption, standard input to standard output.
    public struct Unwrap: AsyncParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "unwrap",
            abstract: "Decrypt an Apple ECIES blob (SecKeyCreateEncryptedData output) from standard input.")

        @Option(help: "The P-256 private key: PKCS#8 or SEC1 PEM/DER, Apple's base64 04||X||Y||D, or a keygen envelope.")
        var key: String

        @Option(help: "cofactor (eciesEncryptionCofactorX963SHA256AESGCM) or variable-iv (…VariableIVX963SHA256AESGCM).")
        var variant: ECIESVariant = .cofactor

        public init() {}

        public func run() async throws {
            // Standard input carries the blob, so an envelope's password comes from PARLEY_PASSWORD.
            let privateKey: any P256KeyAgreementSecret
            switch try FileKeys.identity(path: key, passwordFromStandardInput: false) {
            case .p256(let key): privateKey = key
            case .p256Held(let key): privateKey = key
            default: throw ValidationError("Apple ECIES needs a P-256 private key")
            }
            let plaintext = try AppleECIES.open(try FileIO.read("-"), using: privateKey, variant: variant.variant)
            StandardStreams.write(plaintext, to: STDOUT_FILENO)
        }
    }
}

/// The ECIES variants as command-line values.
enum ECIESVariant: String, ExpressibleByArgument, CaseIterable {
    case cofactor
    case variableIV = "variable-iv"

    var variant: AppleECIES.Variant { self == .cofactor ? .cofactor : .variableIV }
}
