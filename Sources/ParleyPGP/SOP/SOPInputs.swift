#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// SOP's inputs named on the command line: a file, `@ENV:NAME` (an environment variable) or `@FD:N` (an open
/// file descriptor), as the draft defines them; passwords with trailing whitespace removed; keys and
/// certificates checked for the kind the operation needs.
public enum SOPInputs {
    /// The bytes `name` refers to. An unset variable or an unreadable file is SOP's 61.
    public static func read(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [UInt8] {
        if name.hasPrefix("@ENV:") {
            guard let value = environment[String(name.dropFirst(5))] else { throw SOPFailure(.missingInput, "\(name) is not set") }
            return Array(value.utf8)
        }
        if name.hasPrefix("@FD:"), let fd = Int32(name.dropFirst(4)) {
            do { return try readAll(descriptor: fd) } catch { throw SOPFailure(.missingInput, "\(name): cannot be read") }
        }
        guard let data = FileManager.default.contents(atPath: name) else { throw SOPFailure(.missingInput, "\(name): cannot be read") }
        return [UInt8](data)
    }

    /// Everything the open file `descriptor` (standard input, an `@FD:`) has left.
    public static func readAll(descriptor: Int32) throws -> [UInt8] {
        try PGPFileInput(descriptor: descriptor).readAll(limit: .max)
    }

    /// A password input, with trailing whitespace removed as SOP requires.
    public static func password(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [UInt8] {
        trimmedPassword(try read(name, environment: environment))
    }

    /// `bytes` without trailing spaces, tabs, carriage returns and line feeds (SOP's password rule).
    public static func trimmedPassword(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        while let last = bytes.last, last == 0x20 || last == 0x0A || last == 0x0D || last == 0x09 { bytes.removeLast() }
        return bytes
    }

    /// Certificates or keys from the named inputs; one that does not read is bad data naming it.
    public static func certificates(_ names: [String], environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [Certificate] {
        try names.flatMap { name in
            let bytes = try read(name, environment: environment)
            do {
                return try Certificate.readAll(bytes)
            } catch let error as PGPError {
                throw SOPFailure(.badData, "\(name): \(error)")
            }
        }
    }

    /// Secret keys from the named inputs (KEYS): a certificate is bad data.
    public static func secretKeys(_ names: [String], environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [Certificate] {
        let keys = try certificates(names, environment: environment)
        if let certificate = keys.first(where: { !$0.isSecret }) {
            throw SOPFailure(.badData, "\(Hex.upper(certificate.fingerprint)) is a certificate; a secret key is needed")
        }
        return keys
    }

    /// The keys or certificates in `bytes` (standard input). `secret` demands secret keys (KEYS), refusing a
    /// certificate as bad data; otherwise secret keys are refused (CERTS), since printing a secret where a
    /// certificate was expected would leak it into the output.
    public static func standardInput(_ bytes: [UInt8], secret: Bool) throws -> [Certificate] {
        let certificates: [Certificate]
        do {
            certificates = try Certificate.readAll(bytes)
        } catch let error as PGPError {
            throw SOPFailure(.badData, "standard input: \(error)")
        }
        guard !certificates.isEmpty else { throw SOPFailure(.badData, "no \(secret ? "secret key" : "certificate") on standard input") }
        if secret, let certificate = certificates.first(where: { !$0.isSecret }) {
            throw SOPFailure(.badData, "\(Hex.upper(certificate.fingerprint)) on standard input is a certificate; a secret key is needed")
        }
        if !secret, let key = certificates.first(where: \.isSecret) {
            throw SOPFailure(.badData, "\(Hex.upper(key.fingerprint)) on standard input is a secret key; give its certificate (extract-cert)")
        }
        return certificates
    }
}

/// How SOP writes fingerprints, and armor as `--no-armor` asks.
public enum SOPText {
    /// `bytes` armored as `kind`, or as they are when `armor` is false.
    public static func output(_ bytes: [UInt8], armor: Bool, kind: Armor.Kind) -> [UInt8] {
        armor ? Array(Armor.encode(bytes, as: kind).utf8) : bytes
    }

    /// Keys or certificates, armored (as private keys when any is secret) unless `armor` is false.
    public static func output(_ certificates: [Certificate], armor: Bool) -> [UInt8] {
        let secret = certificates.contains(where: \.isSecret)
        return output(certificates.flatMap(\.packets).encoded, armor: armor, kind: secret ? .privateKey : .publicKey)
    }
}
