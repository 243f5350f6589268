import ArgumentParser
import Foundation
import ParleyPGP

extension Parley {
    /// `parley sop`: the Stateless OpenPGP command line (draft-dkg-openpgp-stateless-cli), so any
    /// OpenPGP interoperability harness can drive ParleyPGP. Every subcommand of draft 16; docs/PGP.md.
    struct SOP: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sop",
            abstract: "Stateless OpenPGP (SOP) interface to ParleyPGP.",
            subcommands: [Version.self, GenerateKey.self, ExtractCert.self, Sign.self, Verify.self,
                          Encrypt.self, Decrypt.self, ArmorCommand.self, Dearmor.self,
                          InlineSign.self, InlineVerify.self, InlineDetach.self, ListProfiles.self,
                          ChangeKeyPassword.self, RevokeKey.self, UpdateKey.self, MergeCerts.self,
                          CertifyUserID.self, ValidateUserID.self]
        )
    }
}

/// SOP's exit codes (draft-dkg-openpgp-stateless-cli §7) and the I/O every subcommand shares.
enum SOPIO {
    static let noSignature: Int32 = 3
    static let certCannotEncrypt: Int32 = 17
    static let missingArgument: Int32 = 19
    static let cannotDecrypt: Int32 = 29
    static let unsupportedOption: Int32 = 37
    static let badData: Int32 = 41
    static let expectedText: Int32 = 53
    static let missingInput: Int32 = 61
    static let keyIsProtected: Int32 = 67
    static let keyCannotSign: Int32 = 79
    static let unsupportedSubcommand: Int32 = 69
    static let unsupportedProfile: Int32 = 89
    static let primaryKeyBad: Int32 = 103
    static let certUserIDNoMatch: Int32 = 107
    static let keyCannotCertify: Int32 = 109

    /// Reads standard input completely.
    static func standardInput() -> [UInt8] {
        [UInt8](FileHandle.standardInput.readDataToEndOfFile())
    }

    /// Writes to standard output.
    static func output(_ bytes: [UInt8]) {
        FileHandle.standardOutput.write(Data(bytes))
    }

    /// Writes armored or binary output as `--no-armor` asks.
    static func output(_ bytes: [UInt8], armor: Bool, kind: Armor.Kind) {
        output(armor ? Array(Armor.encode(bytes, as: kind).utf8) : bytes)
    }

    /// Reads an input named on the command line: a file, or `@ENV:NAME` / `@FD:N` as SOP defines.
    static func input(_ name: String) throws -> [UInt8] {
        if name.hasPrefix("@ENV:") {
            guard let value = ProcessInfo.processInfo.environment[String(name.dropFirst(5))] else { throw fail(missingInput, "\(name) is not set") }
            return Array(value.utf8)
        }
        if name.hasPrefix("@FD:"), let fd = Int32(name.dropFirst(4)) {
            return [UInt8](FileHandle(fileDescriptor: fd).readDataToEndOfFile())
        }
        guard let data = FileManager.default.contents(atPath: name) else { throw fail(missingInput, "\(name): cannot be read") }
        return [UInt8](data)
    }

    /// A password input, with trailing whitespace removed as SOP requires.
    static func password(_ name: String) throws -> [UInt8] {
        var bytes = try input(name)
        while let last = bytes.last, last == 0x20 || last == 0x0A || last == 0x0D || last == 0x09 { bytes.removeLast() }
        return bytes
    }

    /// Certificates or keys from files.
    static func certificates(_ names: [String]) throws -> [Certificate] {
        try names.flatMap { name in
            do {
                return try Certificate.readAll(input(name))
            } catch let error as PGPError {
                throw fail(badData, "\(name): \(error)")
            }
        }
    }

    /// Prints `message` on standard error and returns the exit code to throw.
    static func fail(_ code: Int32, _ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("parley sop: \(message)\n".utf8))
        return ExitCode(code)
    }

    /// Maps a ParleyPGP error to SOP's exit code.
    static func fail(_ error: PGPError) -> ExitCode {
        switch error {
        case .needsPassphrase, .wrongPassphrase: fail(keyIsProtected, error.description)
        case .noMatchingKey, .missingMDC, .badMDC, .truncated, .notEncrypted: fail(cannotDecrypt, error.description)
        case .unusableKey: fail(certCannotEncrypt, error.description)
        default: fail(badData, error.description)
        }
    }

    /// Now, as OpenPGP time.
    static var now: UInt32 { UInt32(Date().timeIntervalSince1970) }

    /// A verification line: `DATE SIGNING-FPR PRIMARY-FPR mode:MODE`.
    static func line(_ verification: Verification) -> String? {
        guard verification.isGood, let key = verification.signingKeyFingerprint, let cert = verification.certificateFingerprint else { return nil }
        let date = Date(timeIntervalSince1970: TimeInterval(verification.signature.creationTime ?? 0))
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        let mode = verification.signature.type == .text ? "text" : "binary"
        return "\(formatter.string(from: date)) \(Fingerprint.text(key)) \(Fingerprint.text(cert)) mode:\(mode)"
    }

    /// Parses a `--not-before`/`--not-after` value: an ISO-8601 time, `now`, or `-` (no bound).
    static func time(_ value: String?) throws -> UInt32? {
        guard let value, value != "-" else { return nil }
        if value == "now" { return now }
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds], [.withFullDate]] {
            formatter.formatOptions = options
            if let date = formatter.date(from: value) { return UInt32(clamping: Int64(date.timeIntervalSince1970)) }
        }
        throw fail(unsupportedOption, "cannot read the time \(value)")
    }

    /// Keeps the good verifications whose signature time is within the bounds.
    static func within(_ verifications: [Verification], notBefore: UInt32?, notAfter: UInt32?) -> [Verification] {
        verifications.filter { verification in
            let created = verification.signature.creationTime ?? 0
            return created >= (notBefore ?? 0) && created <= (notAfter ?? UInt32.max)
        }
    }

}

extension Parley.SOP {
    /// `sop version`.
    struct Version: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "version", abstract: "Print the implementation's name and version.")
        @Flag(help: "Name and version of the OpenPGP backend.") var backend = false
        @Flag(help: "Several lines of detail.") var extended = false

        func run() throws {
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
    struct ArmorCommand: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "armor", abstract: "Add ASCII armor to standard input.")

        func run() throws {
            // Streamed; the packet framing is checked to the end before anything reaches stdout.
            try SOPIO.streamChecked({ try Armor.encode(from: SOPIO.standardInputStream, to: $0) }, failure: SOPIO.asBadData)
        }
    }

    /// `sop dearmor`.
    struct Dearmor: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "dearmor", abstract: "Remove ASCII armor from standard input.")

        func run() throws {
            // Streamed; the CRC-24 and END line are checked before anything reaches stdout.
            try SOPIO.streamChecked({ try Armor.decode(from: SOPIO.standardInputStream, to: $0) }, failure: SOPIO.asBadData)
        }
    }
}
