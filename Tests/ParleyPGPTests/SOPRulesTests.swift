import Foundation
import Testing
@testable import ParleyPGP
import ParleyCrypto

/// The rules of Stateless OpenPGP that ParleyPGP holds for `parley sop`: SOP's input conventions, password
/// trimming, which error kind each failure is, the profiles, verification lines and time bounds, and the key
/// operations — hostile input included.
@Suite struct SOPRulesTests {
    /// The kind of the `SOPFailure` `body` throws, or nil when it throws something else or nothing.
    func kind(_ body: () throws -> Void) -> SOPFailure.Kind? {
        do {
            try body()
            return nil
        } catch let failure as SOPFailure {
            return failure.kind
        } catch {
            return nil
        }
    }

    @Test func inputsComeFromEnvironmentDescriptorsAndFiles() throws {
        #expect(try SOPInputs.read("@ENV:SECRET", environment: ["SECRET": "hunter2"]) == Array("hunter2".utf8))
        #expect(throws: SOPFailure(.missingInput, "@ENV:UNSET is not set")) { try SOPInputs.read("@ENV:UNSET", environment: [:]) }
        // Not a number after @FD: is a file name, and there is no such file.
        #expect(throws: SOPFailure(.missingInput, "@FD:x: cannot be read")) { try SOPInputs.read("@FD:x", environment: [:]) }
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let writer = FileHandle(fileDescriptor: fds[1], closeOnDealloc: true)
        writer.write(Data("from a pipe".utf8))
        try writer.close()
        #expect(try SOPInputs.read("@FD:\(fds[0])", environment: [:]) == Array("from a pipe".utf8))
        close(fds[0])
        let missing = "/nonexistent-\(UUID().uuidString)"
        #expect(throws: SOPFailure(.missingInput, "\(missing): cannot be read")) { try SOPInputs.read(missing) }
    }

    @Test func passwordsLoseTrailingWhitespaceOnly() throws {
        #expect(SOPInputs.trimmedPassword(Array(" pass word \t\r\n\n".utf8)) == Array(" pass word".utf8))
        #expect(SOPInputs.trimmedPassword(Array(" \n\t".utf8)).isEmpty)
        #expect(SOPInputs.trimmedPassword([]).isEmpty)
        #expect(try SOPInputs.password("@ENV:P", environment: ["P": "secret\r\n"]) == Array("secret".utf8))
    }

    @Test func garbageTruncatedAndOversizeKeysAreBadDataNamingTheInput() throws {
        let key = try Fixtures.bytes("ed.sec.asc")
        let cut = String(decoding: key.prefix(key.count / 2), as: UTF8.self)
        let binary = try Certificate.readAll(key).flatMap(\.packets).encoded
        let hostile: [String: String] = [
            "GARBAGE": "this is no key",
            "CUT": cut,
            "BINARYCUT": String(decoding: binary.prefix(40), as: UTF8.self),
            "HUGE": String(repeating: "\u{FF}", count: 2 << 20),
        ]
        for name in hostile.keys.sorted() {
            do {
                // Text with no OpenPGP data in it may read as no certificates; anything else must be refused.
                let read = try SOPInputs.certificates(["@ENV:\(name)"], environment: hostile)
                #expect(read.isEmpty, "\(name) read as a certificate")
            } catch let failure as SOPFailure {
                #expect(failure.kind == .badData)
                #expect(failure.message.hasPrefix("@ENV:\(name): "))
            }
        }
        // Text that holds no OpenPGP data at all reads as no certificates, and standard input then says so.
        #expect(kind { _ = try SOPInputs.standardInput(Array("this is no key".utf8), secret: false) } == .badData)
        #expect(kind { _ = try SOPInputs.standardInput([], secret: true) } == .badData)
        #expect(kind { _ = try SOPInputs.standardInput(Array(cut.utf8), secret: true) } == .badData)
    }

    @Test func standardInputKeysMustBeOfTheKindAsked() throws {
        let secret = try Fixtures.bytes("ed.sec.asc")
        let certificate = try Fixtures.bytes("ed.pub.asc")
        #expect(try SOPInputs.standardInput(secret, secret: true).count == 1)
        #expect(try SOPInputs.standardInput(certificate, secret: false).count == 1)
        let fingerprint = Hex.upper(try Fixtures.certificate("ed.pub.asc").fingerprint)
        #expect(throws: SOPFailure(.badData, "\(fingerprint) on standard input is a certificate; a secret key is needed")) {
            try SOPInputs.standardInput(certificate, secret: true)
        }
        #expect(throws: SOPFailure(.badData, "\(fingerprint) on standard input is a secret key; give its certificate (extract-cert)")) {
            try SOPInputs.standardInput(secret, secret: false)
        }
        let env = ["CERT": String(decoding: certificate, as: UTF8.self)]
        #expect(throws: SOPFailure(.badData, "\(fingerprint) is a certificate; a secret key is needed")) {
            try SOPInputs.secretKeys(["@ENV:CERT"], environment: env)
        }
    }

    @Test func openPGPErrorsHaveSOPKinds() {
        #expect(SOPFailure(PGPError.needsPassphrase).kind == .keyIsProtected)
        #expect(SOPFailure(PGPError.wrongPassphrase).kind == .keyIsProtected)
        for error in [PGPError.noMatchingKey, .missingMDC, .badMDC, .truncated, .notEncrypted] {
            #expect(SOPFailure(error).kind == .cannotDecrypt)
        }
        #expect(SOPFailure(PGPError.unusableKey("expired")).kind == .certCannotEncrypt)
        #expect(SOPFailure(PGPError.malformed("x")).kind == .badData)
        #expect(SOPFailure(PGPError.malformed("x")).message == PGPError.malformed("x").description)
        #expect(kind { try SOPFailure.signing { throw PGPError.unusableKey("cannot sign") } } == .keyCannotSign)
        #expect(kind { try SOPFailure.mapping { throw PGPStreamIOError(operation: "read", code: EIO) } } == .badData)
        #expect(kind { try SOPFailure.maintaining { throw KeyMaintenanceError.keyCannotCertify("revoked") } } == .keyCannotCertify)
        #expect(kind { try SOPFailure.maintaining { throw KeyMaintenanceError.userIDNotFound("a") } } == .certUserIDNoMatch)
        #expect(kind { try SOPFailure.maintaining { throw PGPError.wrongPassphrase } } == .keyIsProtected)
        #expect(kind { try SOPFailure.maintaining { throw PGPError.truncated } } == .badData)
        // A failure of SOP's own passes through every mapping unchanged.
        #expect(kind { try SOPFailure.maintaining { throw SOPFailure(.primaryKeyBad, "revoked") } } == .primaryKeyBad)
    }

    @Test func profilesDefaultToTheFirstAndRefuseOthers() throws {
        #expect(try SOPProfiles.profile("default", for: "generate-key").name == "default")
        #expect(try SOPProfiles.profile("default", for: "encrypt").name == "rfc4880")
        #expect(try SOPProfiles.profile("rfc9580", for: "encrypt").name == "rfc9580")
        #expect(throws: SOPFailure(.unsupportedProfile, "encrypt has no profile x; `parley sop list-profiles encrypt` lists them")) {
            try SOPProfiles.profile("x", for: "encrypt")
        }
        #expect(kind { _ = try SOPProfiles.profile("default", for: "sign") } == .unsupportedProfile)
        #expect(throws: SOPFailure(.unsupportedProfile, "sign has no profiles (only generate-key and encrypt have)")) {
            try SOPProfiles.profiles(of: "sign")
        }
        #expect(try SOPProfiles.encryption("default") == .byRecipients)
        #expect(try SOPProfiles.encryption("rfc4880") == .rfc4880)
        #expect(try SOPProfiles.encryption("rfc9580") == .rfc9580)
    }

    @Test func timesAreISO8601NowOrNone() throws {
        #expect(try SOPVerifications.time(nil, now: 5) == nil)
        #expect(try SOPVerifications.time("-", now: 5) == nil)
        #expect(try SOPVerifications.time("now", now: 5) == 5)
        #expect(try SOPVerifications.time("2020-01-02T03:04:05Z", now: 5) == 1_577_934_245)
        #expect(try SOPVerifications.time("2020-01-02T03:04:05.5Z", now: 5) == 1_577_934_245)
        #expect(try SOPVerifications.time("2020-01-02", now: 5) == 1_577_923_200)
        for garbage in ["", "yesterday", "2020-13-45", "\u{0}", String(repeating: "9", count: 10_000)] {
            #expect(kind { _ = try SOPVerifications.time(garbage, now: 5) } == .unsupportedOption)
        }
    }

    @Test func verificationLinesAndBounds() throws {
        let key = try Fixtures.certificate("ed.sec.asc")
        let signer = try key.unlockedSigningKey(passphrases: [Fixtures.passphrase], now: Fixtures.now)
        let data = Array("signed".utf8)
        let signed = Fixtures.now - 100
        let signature = try Signer.detached(data, signers: [signer], now: signed)
        let verifications = try Verification.detached(signature, data: data, certificates: [key.publicCertificate], now: Fixtures.now)
        let line = try #require(SOPVerifications.line(verifications[0]))
        let fields = line.split(separator: " ")
        #expect(fields.count == 4)
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        #expect(fields[0] == Substring(formatter.string(from: Date(timeIntervalSince1970: TimeInterval(signed)))))
        #expect(fields[2] == Substring(Hex.upper(key.fingerprint)))
        #expect(fields[3] == "mode:binary")
        #expect(String(decoding: SOPVerifications.file(verifications), as: UTF8.self) == line + "\n")
        #expect(try SOPVerifications.required(verifications, notBefore: signed, notAfter: signed) == [line])
        #expect(kind { _ = try SOPVerifications.required(verifications, notBefore: signed + 1) } == .noSignature)
        #expect(kind { _ = try SOPVerifications.required(verifications, notAfter: signed - 1) } == .noSignature)
        // A signature over other data is no line at all.
        let other = try Verification.detached(signature, data: Array("tampered".utf8), certificates: [key.publicCertificate], now: Fixtures.now)
        #expect(other.compactMap(SOPVerifications.line).isEmpty)
        #expect(kind { _ = try SOPVerifications.required(other) } == .noSignature)
    }

    @Test func keyOperations() throws {
        let now = Fixtures.now
        let key = try SOPKeyOperations.generateKey(profile: "default", userIDs: ["Ada <ada@example.org>"], passphrase: nil, now: now)
        #expect(key.isSecret)
        #expect(kind { _ = try SOPKeyOperations.generateKey(profile: "rfc1991", userIDs: [], passphrase: nil, now: now) } == .unsupportedProfile)
        let certificate = try SOPKeyOperations.extractCertificates(Array(key.armored.utf8))
        #expect(try Certificate.readAll(certificate).map(\.isSecret) == [false])
        #expect(throws: SOPFailure(.badData, "no key on standard input")) { try SOPKeyOperations.extractCertificates([]) }
        #expect(kind { _ = try SOPKeyOperations.extractCertificates(Array(key.armored.utf8.prefix(200))) } == .badData)

        let locked = try SOPKeyOperations.changePassword([key], old: [], new: Array("new pass".utf8))
        #expect(locked[0].isFullyProtected)
        #expect(kind { _ = try SOPKeyOperations.revoke(locked, passphrases: [], now: now) } == .keyIsProtected)
        #expect(kind { _ = try SOPKeyOperations.changePassword(locked, old: [Array("wrong".utf8)], new: nil) } == .keyIsProtected)
        let revoked = try SOPKeyOperations.revoke(locked, passphrases: [Array("new pass".utf8)], now: now)
        #expect(revoked[0].isRevoked(at: now))

        let merged = try SOPKeyOperations.merge([key.publicCertificate], with: revoked)
        #expect(merged[0].isRevoked(at: now))
        let withRevocation = try Certificate.merge([key], with: revoked)
        #expect(throws: SOPFailure(.primaryKeyBad, "\(Hex.upper(key.fingerprint)) is revoked")) {
            try SOPKeyOperations.update(withRevocation, merging: [], passphrases: [], now: now)
        }

        let authority = try SOPKeyOperations.generateKey(profile: "default", userIDs: ["CA <ca@example.org>"], passphrase: nil, now: now)
        #expect(throws: SOPFailure.self) {
            try SOPKeyOperations.validateUserID("Ada <ada@example.org>", subjects: [key.publicCertificate], authorities: [authority],
                                                addrSpecOnly: false, at: now)
        }
        let certified = try SOPKeyOperations.certify([key.publicCertificate], userIDs: ["Ada <ada@example.org>"], by: [authority],
                                                     passphrases: [], requireSelfSignature: true, now: now)
        try SOPKeyOperations.validateUserID("ada@example.org", subjects: certified, authorities: [authority], addrSpecOnly: true, at: now)
        #expect(kind {
            _ = try SOPKeyOperations.certify([key.publicCertificate], userIDs: ["Not <bound@example.org>"], by: [authority],
                                             passphrases: [], requireSelfSignature: true, now: now)
        } == .certUserIDNoMatch)
    }
}
