#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A standalone keyring directory: `public/FPR.asc` for every certificate and `secret/FPR.asc` for
/// secret keys, always stored pass-phrase protected (S2K, as gpg exports them). Directories 0700, files 0600.
public struct PGPKeyring: PGPKeyStore, Sendable {
    /// The keyring directory.
    public let directory: String

    /// The directory, as messages name the keyring.
    public var location: String { directory }

    /// The keyring at `directory`, made only when a key is first stored in it: reading a path that holds none (a typo)
    /// creates nothing there.
    public init(directory: String) throws {
        self.directory = directory
        var info = stat()
        if stat(directory, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
            throw PGPKeyStoreError("\(directory) is a file, not a keyring directory: pass --keyring DIR")
        }
    }

    /// Whether the keyring's directory exists (a key was stored in it, or it was made by hand).
    public var exists: Bool { FileManager.default.fileExists(atPath: directory) }

    /// Makes the keyring's directories (0700) if they are missing.
    private func create() throws {
        for sub in ["", "/public", "/secret"] {
            do {
                try FileManager.default.createDirectory(atPath: directory + sub, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw PGPKeyStoreError("cannot create the keyring at \(directory): check the path is writable or pass --keyring DIR")
            }
        }
    }

    /// Every certificate (public parts).
    public func certificates() throws -> [Certificate] { try load("public") }

    /// Every secret key.
    public func secretKeys() throws -> [Certificate] { try load("secret") }

    private func load(_ sub: String) throws -> [Certificate] {
        let path = "\(directory)/\(sub)"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return try names.filter { $0.hasSuffix(".asc") }.sorted().flatMap { name -> [Certificate] in
            guard let data = FileManager.default.contents(atPath: "\(path)/\(name)") else { return [] }
            do {
                return try Certificate.readAll([UInt8](data))
            } catch {
                throw PGPKeyStoreError("\(path)/\(name) is damaged (\(error)): move it out of the keyring")
            }
        }
    }

    /// Stores `certificate` (and its secret parts, which must be protected). Returns whether it was new.
    @discardableResult
    public func store(_ certificate: Certificate) throws -> Bool {
        try create()
        let fingerprint = certificate.primaryKey.fingerprintHex
        let publicPath = "\(directory)/public/\(fingerprint).asc"
        let isNew = !FileManager.default.fileExists(atPath: publicPath)
        try write(certificate.publicCertificate.armored, to: publicPath)
        if certificate.isSecret {
            // Pass phrases are never on disk, and neither are unprotected secrets.
            guard certificate.isFullyProtected else { throw PGPKeyStoreError("refusing to store an unprotected secret key") }
            try write(certificate.armored, to: "\(directory)/secret/\(fingerprint).asc")
        }
        return isNew
    }

    private func write(_ text: String, to path: String) throws {
        do {
            try PGPFiles.atomically(path, replace: true, mode: 0o600) { try $0.write(Array(text.utf8)) }
        } catch {
            throw PGPKeyStoreError("cannot write \(path): check the keyring directory is writable")
        }
    }
}
