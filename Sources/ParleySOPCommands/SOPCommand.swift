import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyPGP
import ParleyTerminal
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `parley sop` (and the program `parley-sop`): the Stateless OpenPGP command line
/// (draft-dkg-openpgp-stateless-cli), so any OpenPGP interoperability harness can drive ParleyPGP. Every subcommand
/// of draft 16; docs/PGP.md.
public struct SOPCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sop",
        abstract: "Stateless OpenPGP (SOP) interface to ParleyPGP.",
        subcommands: subcommands
    )

    /// The operations, the same under `parley sop` and `parley-sop`.
    public static let subcommands: [any ParsableCommand.Type] = [
        Version.self, GenerateKey.self, ExtractCert.self, Sign.self, Verify.self,
        Encrypt.self, Decrypt.self, ArmorCommand.self, Dearmor.self,
        InlineSign.self, InlineVerify.self, InlineDetach.self, ListProfiles.self,
        ChangeKeyPassword.self, RevokeKey.self, UpdateKey.self, MergeCerts.self,
        CertifyUserID.self, ValidateUserID.self,
    ]

    public init() {}
}

/// SOP's exit codes (draft-dkg-openpgp-stateless-cli §7) for the library's error kinds, and the standard
/// streams every subcommand shares. The rules (inputs, profiles, verification lines) are ParleyPGP's `SOP…` types.
public enum SOPIO {
    /// The exit code of `kind`.
    public static func code(_ kind: SOPFailure.Kind) -> Int32 {
        switch kind {
        case .noSignature: 3
        case .certCannotEncrypt: 17
        case .missingArgument: 19
        case .cannotDecrypt: 29
        case .unsupportedOption: 37
        case .badData: 41
        case .expectedText: 53
        case .missingInput: 61
        case .keyIsProtected: 67
        case .unsupportedSubcommand: 69
        case .keyCannotSign: 79
        case .unsupportedProfile: 89
        case .primaryKeyBad: 103
        case .certUserIDNoMatch: 107
        case .keyCannotCertify: 109
        }
    }

    /// Reads standard input completely.
    static func standardInput() throws -> [UInt8] {
        do { return try SOPInputs.readAll(descriptor: STDIN_FILENO) } catch { throw SOPFailure(.missingInput, "standard input cannot be read") }
    }

    /// Writes to standard output.
    static func output(_ bytes: [UInt8]) {
        StandardStreams.write(bytes, to: STDOUT_FILENO)
    }

    /// Now, as OpenPGP time.
    static var now: UInt32 { UInt32(Date().timeIntervalSince1970) }

    /// A password input (`@ENV:`, `@FD:` or a file), trailing whitespace removed.
    static func password(_ name: String) throws -> [UInt8] { try SOPInputs.password(name) }
}

extension SOPCommand {
    /// `sop version`.
    public struct Version: ParsableCommand {
        public static let configuration = CommandConfiguration(commandName: "version", abstract: "Print the implementation's name and version.")
        @Flag(help: "Name and version of the OpenPGP backend.") var backend = false
        @Flag(help: "Several lines of detail.") var extended = false

        public init() {}

        public func run() throws {
            if backend {
                print("ParleyPGP \(ParleyVersion.current) (swift-crypto)")
            } else if extended {
                print("parley \(ParleyVersion.current)\nParleyPGP: RFC 4880 v4 keys, RSA/Ed25519/Cv25519, SEIPD v1; see docs/PGP.md")
            } else {
                print("parley \(ParleyVersion.current)")
            }
        }
    }

    /// `sop armor`.
    public struct ArmorCommand: ParsableCommand {
        public static let configuration = CommandConfiguration(commandName: "armor", abstract: "Add ASCII armor to standard input.")

        public init() {}

        public func run() throws {
            // Streamed; the packet framing is checked to the end before anything reaches stdout.
            try SOPStreams.checked({ try Armor.encode(from: SOPStreams.standardInput, to: $0) }, classify: SOPFailure.badData)
        }
    }

    /// `sop dearmor`.
    public struct Dearmor: ParsableCommand {
        public static let configuration = CommandConfiguration(commandName: "dearmor", abstract: "Remove ASCII armor from standard input.")

        public init() {}

        public func run() throws {
            // Streamed; the CRC-24 and END line are checked before anything reaches stdout.
            try SOPStreams.checked({ try Armor.decode(from: SOPStreams.standardInput, to: $0) }, classify: SOPFailure.badData)
        }
    }
}
