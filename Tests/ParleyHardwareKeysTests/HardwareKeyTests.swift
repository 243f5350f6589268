import Crypto
import Foundation
import ParleyCrypto
import ParleyHardwareKeys
import ParleyTestSupport
import Testing

/// Keys held in a TPM 2.0 (docs/FORMATS.md §17), against a real software TPM (swtpm) and tpm2-tools.
@Suite("Keys held in a TPM", .serialized)
struct HardwareKeyTests {
    @Test("a P-256 key made in the TPM agrees with swift-crypto's ECDH, and tpm2_print reads the same public key")
    func ecdhAgreesAndPublicKeyIsIndependentlyRead() throws {
        let tpm = try SoftwareTPM()
        let blob = try tpm.device.createP256Key(pin: nil)
        let key = try HardwareP256Key(device: tpm.device, blob: blob, pin: nil)
        for _ in 0..<3 {
            let peer = P256.KeyAgreement.PrivateKey()
            let inTPM = try key.sharedSecretBytes(with: peer.publicKey)
            let inSoftware = try peer.sharedSecretBytes(with: key.publicKey)
            #expect(inTPM == inSoftware && inTPM.count == 32)
        }
        // tpm2-tools reads the public area Parley stored: the same point.
        let publicFile = tpm.state.url.appendingPathComponent("key.pub")
        let parsed = try Self.publicArea(of: blob)
        try Data(parsed).write(to: publicFile)
        let printed = try tpm.tool("tpm2_print", ["-t", "TPM2B_PUBLIC", publicFile.path])
        #expect(printed.status == 0, "\(printed.output)")
        let point = Array(key.publicKey.x963Representation)
        #expect(printed.output.contains("x: \(Self.hex(point[1..<33]))"), "\(printed.output)")
        #expect(printed.output.contains("y: \(Self.hex(point[33..<65]))"))
        #expect(printed.output.contains("NIST_P256") || printed.output.contains("nist_p256") || printed.output.contains("0x3"))
        // The file holds no private scalar: the blob is the same size whatever the key, and another key's blob differs everywhere that matters.
        #expect(blob.bytes.count < 400)
    }

    @Test("a PIN, a sealed secret and a shared point never cross the TPM's bus in the clear, as swtpm's own log shows")
    func theBusCarriesNoSecret() throws {
        let tpm = try SoftwareTPM(recordingBus: true)
        let pin = Array("pin-7431-bus".utf8)
        let secret = (0..<48).map { _ in UInt8.random(in: 0...255) }
        let sealed = try tpm.device.seal(secret, pin: pin)
        #expect(try tpm.device.unseal(sealed, pin: pin) == secret)
        let key = try HardwareP256Key(device: tpm.device, blob: try tpm.device.createP256Key(pin: pin), pin: pin)
        let peer = P256.KeyAgreement.PrivateKey()
        let shared = try key.sharedSecretBytes(with: peer.publicKey)
        #expect(try shared == peer.sharedSecretBytes(with: key.publicKey))
        let wrong = Array("pin-0000-bus".utf8)
        #expect(throws: HardwareKeyError.wrongPIN) { try tpm.device.unseal(sealed, pin: wrong) }

        let traffic = try tpm.busTraffic()
        // The log sees what crossed: the peer's public point goes in the clear (it is not secret).
        #expect(traffic.count > 10)
        #expect(traffic.contains { $0.contains(Array(peer.publicKey.x963Representation[1..<33])) })
        for (name, bytes) in [("PIN", pin), ("wrong PIN", wrong), ("sealed secret", secret), ("shared point", shared)] {
            #expect(!traffic.contains { $0.contains(bytes) }, "the \(name) crossed the bus in the clear")
        }
    }

    @Test("the blob opens only through its TPM: another TPM cannot use it, the same one after a restart can")
    func boundToItsTPM() throws {
        let tpm = try SoftwareTPM()
        let blob = try tpm.device.createP256Key(pin: nil)
        let peer = P256.KeyAgreement.PrivateKey()
        let before = try tpm.device.sharedSecret(blob, with: peer.publicKey, pin: nil)

        let stranger = try SoftwareTPM()
        #expect(throws: HardwareKeyError.wrongDevice) { try stranger.device.sharedSecret(blob, with: peer.publicKey, pin: nil) }
        let sealed = try tpm.device.seal(Array("the main key".utf8), pin: nil)
        #expect(throws: HardwareKeyError.wrongDevice) { try stranger.device.unseal(sealed, pin: nil) }

        tpm.stop()
        #expect {
            try tpm.device.sharedSecret(blob, with: peer.publicKey, pin: nil)
        } throws: { error in
            guard case .deviceUnavailable(let why) = error as? HardwareKeyError else { return false }
            return why.contains("PARLEY_TPM_TCTI")
        }
        try tpm.start()
        #expect(try tpm.device.sharedSecret(blob, with: peer.publicKey, pin: nil) == before)
        #expect(try tpm.device.unseal(sealed, pin: nil) == Array("the main key".utf8))
    }

    @Test("a key tpm2-tools makes under the TCG storage template works through Parley: the same parent, the same format")
    func keyMadeByTPM2Tools() throws {
        let tpm = try SoftwareTPM()
        let directory = tpm.state.url
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let primary = try tpm.tool("tpm2_createprimary", [
            "-C", "o", "-g", "sha256", "-G", "ecc256:aes128cfb",
            "-a", "restricted|decrypt|fixedtpm|fixedparent|sensitivedataorigin|userwithauth|noda", "-c", path("primary.ctx"),
        ])
        #expect(primary.status == 0, "\(primary.output)")
        let created = try tpm.tool("tpm2_create", [
            "-C", path("primary.ctx"), "-g", "sha256", "-G", "ecc256:ecdh-sha256",
            "-a", "fixedtpm|fixedparent|sensitivedataorigin|userwithauth|decrypt|noda", "-u", path("key.pub"), "-r", path("key.priv"),
        ])
        #expect(created.status == 0, "\(created.output)")
        _ = try tpm.tool("tpm2_flushcontext", ["-t"])
        let bytes = Array("PHK1".utf8) + [1, 0, 1] + Array(try Data(contentsOf: URL(fileURLWithPath: path("key.pub"))))
            + Array(try Data(contentsOf: URL(fileURLWithPath: path("key.priv"))))
        let key = try HardwareP256Key(device: tpm.device, blob: try HardwareKeyBlob(bytes: bytes), pin: nil)
        #expect(created.output.contains("x: \(Self.hex(Array(key.publicKey.x963Representation)[1..<33]))"), "\(created.output)")
        let peer = P256.KeyAgreement.PrivateKey()
        #expect(try key.sharedSecretBytes(with: peer.publicKey) == (try peer.sharedSecretBytes(with: key.publicKey)))
    }

    @Test("an Apple ECIES blob made by Python's cryptography for the TPM key opens through the TPM")
    func independentECIES() throws {
        let tpm = try SoftwareTPM()
        let blob = try tpm.device.createP256Key(pin: nil)
        let key = try HardwareP256Key(device: tpm.device, blob: blob, pin: nil)
        let script = """
            import sys
            from cryptography.hazmat.primitives.asymmetric import ec
            from cryptography.hazmat.primitives import hashes, serialization
            from cryptography.hazmat.primitives.kdf.x963kdf import X963KDF
            from cryptography.hazmat.primitives.ciphers.aead import AESGCM
            recipient = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), bytes.fromhex(sys.argv[1]))
            ephemeral = ec.generate_private_key(ec.SECP256R1())
            point = ephemeral.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
            shared = ephemeral.exchange(ec.ECDH(), recipient)
            derived = X963KDF(algorithm=hashes.SHA256(), length=32, sharedinfo=point).derive(shared)
            sealed = AESGCM(derived[:16]).encrypt(derived[16:], b"opened by the TPM", None)
            print((point + sealed).hex())
            """
        let ecies = try Self.python(script, [Self.hex(Array(key.publicKey.x963Representation))])
        let opened = try AppleECIES.open(Self.bytes(ecies), using: key, variant: .variableIV)
        #expect(opened == Array("opened by the TPM".utf8))
        // The same blob against a software key that is not the TPM's: refused.
        #expect(throws: ECIESError.cannotDecrypt) { try AppleECIES.open(Self.bytes(ecies), using: P256.KeyAgreement.PrivateKey(), variant: .variableIV) }
    }

    @Test("a PIN is the TPM's authorization: wrong PINs count, the lockout refuses the right one, and it lasts across a restart")
    func pinAndLockout() throws {
        let tpm = try SoftwareTPM()
        // Three failures lock the TPM for five minutes (the defaults of a real TPM vary; the test sets its own).
        let lockout = try tpm.tool("tpm2_dictionarylockout", ["--setup-parameters", "--max-tries=3", "--recovery-time=300", "--lockout-recovery-time=300"])
        #expect(lockout.status == 0, "\(lockout.output)")
        let pin = Array("2468".utf8), wrong = Array("1357".utf8)
        let sealed = try tpm.device.seal(Array("main key".utf8), pin: pin)
        #expect(sealed.needsPIN)
        #expect(try tpm.device.unseal(sealed, pin: pin) == Array("main key".utf8))
        #expect(throws: HardwareKeyError.pinMismatch(needed: true)) { try tpm.device.unseal(sealed, pin: nil) }
        #expect(throws: HardwareKeyError.invalidPIN) { try tpm.device.unseal(sealed, pin: [1, 2]) }
        var answers: [HardwareKeyError] = []
        for _ in 0..<4 {
            do throws(HardwareKeyError) { _ = try tpm.device.unseal(sealed, pin: wrong) } catch { answers.append(error) }
        }
        #expect(answers.prefix(3).allSatisfy { $0 == .wrongPIN }, "\(answers)")
        #expect(answers.last == .lockedOut, "\(answers)")
        #expect(throws: HardwareKeyError.lockedOut) { try tpm.device.unseal(sealed, pin: pin) }
        tpm.stop()
        try tpm.start()
        #expect(throws: HardwareKeyError.lockedOut) { try tpm.device.unseal(sealed, pin: pin) }
        // The owner of the TPM may lift the lockout (tpm2_dictionarylockout --clear-lockout); then the PIN works again.
        #expect(try tpm.tool("tpm2_dictionarylockout", ["--clear-lockout"]).status == 0)
        #expect(try tpm.device.unseal(sealed, pin: pin) == Array("main key".utf8))
        // A key without a PIN is outside the lockout (noDA) and takes none.
        let free = try tpm.device.createP256Key(pin: nil)
        #expect(throws: HardwareKeyError.pinMismatch(needed: false)) { try tpm.device.sharedSecret(free, with: P256.KeyAgreement.PrivateKey().publicKey, pin: pin) }
    }

    @Test("sealing refuses what a TPM object cannot hold, and each blob works only for its kind")
    func sealingLimitsAndKinds() throws {
        let tpm = try SoftwareTPM()
        let largest = [UInt8](repeating: 7, count: TPMDevice.maximumSecret)
        #expect(try tpm.device.unseal(try tpm.device.seal(largest, pin: nil), pin: nil) == largest)
        #expect(throws: HardwareKeyError.secretTooLarge) { try tpm.device.seal(largest + [7], pin: nil) }
        #expect(throws: HardwareKeyError.secretTooLarge) { try tpm.device.seal([], pin: nil) }
        let key = try tpm.device.createP256Key(pin: nil)
        let sealed = try tpm.device.seal([1, 2, 3], pin: nil)
        #expect(throws: HardwareKeyError.wrongKind) { try tpm.device.unseal(key, pin: nil) }
        #expect(throws: HardwareKeyError.wrongKind) { try tpm.device.sharedSecret(sealed, with: P256.KeyAgreement.PrivateKey().publicKey, pin: nil) }
        #expect(throws: HardwareKeyError.wrongKind) { try HardwareP256Key(device: tpm.device, blob: sealed, pin: nil) }
        // Read back from its bytes, a blob is the same blob.
        #expect(try HardwareKeyBlob(bytes: key.bytes) == key)
    }

    @Test("no TPM at the configured place is said plainly")
    func noTPM() {
        let device = TPMDevice(tcti: "swtpm:host=127.0.0.1,port=1")
        #expect {
            try device.createP256Key(pin: nil)
        } throws: { error in
            guard case .deviceUnavailable = error as? HardwareKeyError else { return false }
            return "\(error)".contains("no TPM is available")
        }
    }

    // MARK: helpers

    /// The `TPM2B_PUBLIC` field of a PHK1 blob (after magic, kind, flags and device).
    static func publicArea(of blob: HardwareKeyBlob) throws -> [UInt8] {
        let bytes = blob.bytes
        let size = Int(bytes[7]) << 8 | Int(bytes[8])
        return Array(bytes[7..<(9 + size)])
    }

    static func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 { bytes.map { String(format: "%02x", $0) }.joined() }

    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex), next <= hex.endIndex, index < hex.endIndex {
            out.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return out
    }

    /// Runs Debian's python3 (with python3-cryptography) on `script`; returns its output, trimmed.
    static func python(_ script: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try ProcessLaunch.start(process)
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
