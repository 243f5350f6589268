import Foundation
import ParleyTestSupport
import Testing

/// `parley account set-protection hardware|pin|none` (docs/HARDWARE-KEYS.md): the vault's MainKey sealed to a
/// real software TPM, through the binary, with what a person sees across several commands.
@Suite("parley account set-protection: the vault's key in the TPM", .serialized, .offThePool)
struct VaultProtectionCommandTests {
    /// The MainKey file's mode byte (docs/FORMATS.md §11): 0 none, 1 PIN, 2 hardware.
    static func mode(_ home: URL, _ email: String) throws -> UInt8 {
        let file = home.appendingPathComponent("accounts").appendingPathComponent(email).appendingPathComponent("mainkey")
        return Array(try Data(contentsOf: file))[9]
    }

    @Test("sealed to the TPM, the vault opens only with that TPM; without it nothing is lost, and back to none it needs no TPM")
    func hardwareWithoutPIN() async throws {
        let scene = try await CLIScene.start("vault-tpm", people: ["ann", "bob"])
        defer { Task { try? await scene.finish() } }
        let tpm = try SoftwareTPM()
        let ann = scene.home("ann").path, bob = scene.home("bob").path
        let withTPM = ["PARLEY_TPM_TCTI": tpm.tcti]
        let sent = try await scene.run(["send", "--home", ann, "--to", "bob@example.org", "before the move"])
        #expect(sent.status == 0, "\(sent.stderr)")
        _ = bob

        let moved = try await scene.run(["account", "set-protection", "--home", ann, "hardware"], environment: withTPM)
        #expect(moved.status == 0 && moved.stdout.contains("sealed to this machine's TPM"), "\(moved.stderr)")
        #expect(try Self.mode(scene.home("ann"), "ann@example.org") == 2)
        let read = try await scene.run(["read", "--home", ann, "--conversation", "1"], environment: withTPM)
        #expect(read.status == 0 && read.stdout.contains("before the move"), "\(read.stderr)")

        // The TPM gone (or another machine's): a clear error, and the data is still there for when it is back.
        tpm.stop()
        let without = try await scene.run(["conversations", "--home", ann], environment: withTPM)
        #expect(without.status != 0 && without.stderr.contains("no TPM is available"), "\(without.stderr)")
        let other = try SoftwareTPM()
        let elsewhere = try await scene.run(["conversations", "--home", ann], environment: ["PARLEY_TPM_TCTI": other.tcti])
        #expect(elsewhere.status != 0 && elsewhere.stderr.contains("different TPM"), "\(elsewhere.stderr)")
        // The documented way back when the TPM is lost for good: sign in again in a fresh home with an e-mailed
        // code and the password (a new device of the same account; history comes only from pairing).
        let fresh = scene.root.appendingPathComponent("ann-after-the-tpm").path
        let login = ["account", "login", "--home", fresh, "--email", "ann@example.org", "--server", "127.0.0.1:\(scene.server.port)"]
        _ = try await scene.run(login)
        let code = try #require(scene.server.latestCode(for: "ann@example.org"))
        let recovered = try await scene.run(login + ["--code", code], environment: CLIAccounts.environment)
        #expect(recovered.status == 0 && recovered.stdout.contains("Signed in: ann@example.org"), "\(recovered.stdout)\(recovered.stderr)")

        try tpm.start()
        let back = try await scene.run(["read", "--home", ann, "--conversation", "1"], environment: ["PARLEY_TPM_TCTI": tpm.tcti])
        #expect(back.status == 0 && back.stdout.contains("before the move"), "\(back.stderr)")

        let none = try await scene.run(["account", "set-protection", "--home", ann, "none"], environment: ["PARLEY_TPM_TCTI": tpm.tcti])
        #expect(none.status == 0, "\(none.stderr)")
        #expect(try Self.mode(scene.home("ann"), "ann@example.org") == 0)
        tpm.stop()
        let plain = try await scene.run(["read", "--home", ann, "--conversation", "1"])
        #expect(plain.status == 0 && plain.stdout.contains("before the move"), "\(plain.stderr)")
    }

    @Test("with a TPM PIN, the TPM counts wrong PINs and its lockout refuses the right one; the vault PIN mode moves to it and back")
    func hardwareWithPIN() async throws {
        let scene = try await CLIScene.start("vault-tpm-pin", people: ["ann"])
        defer { Task { try? await scene.finish() } }
        let tpm = try SoftwareTPM()
        #expect(try tpm.tool("tpm2_dictionarylockout", ["--setup-parameters", "--max-tries=3", "--recovery-time=600", "--lockout-recovery-time=600"]).status == 0)
        let ann = scene.home("ann").path
        // First a vault PIN, then from it to the TPM with a TPM PIN.
        #expect(try await scene.run(["account", "set-protection", "--home", ann, "pin"], environment: ["PARLEY_NEW_PIN": "vault-1234"]).status == 0)
        #expect(try Self.mode(scene.home("ann"), "ann@example.org") == 1)
        let moved = try await scene.run(["account", "set-protection", "--home", ann, "hardware", "--pin"],
                                        environment: ["PARLEY_TPM_TCTI": tpm.tcti, "PARLEY_PIN": "vault-1234", "PARLEY_NEW_PIN": "2468"])
        #expect(moved.status == 0 && moved.stdout.contains("behind a PIN the TPM checks"), "\(moved.stderr)")
        #expect(try Self.mode(scene.home("ann"), "ann@example.org") == 2)

        let right = try await scene.run(["conversations", "--home", ann], environment: ["PARLEY_TPM_TCTI": tpm.tcti, "PARLEY_PIN": "2468"])
        #expect(right.status == 0, "\(right.stderr)")
        var answers: [String] = []
        for _ in 0..<4 {
            let wrong = try await scene.run(["conversations", "--home", ann], environment: ["PARLEY_TPM_TCTI": tpm.tcti, "PARLEY_PIN": "1357"])
            #expect(wrong.status != 0 && !wrong.stderr.contains("1357"))
            answers.append(wrong.stderr)
        }
        #expect(answers.prefix(3).allSatisfy { $0.contains("the PIN is wrong") }, "\(answers)")
        #expect(answers.last?.contains("locked out") == true, "\(answers)")
        let locked = try await scene.run(["conversations", "--home", ann], environment: ["PARLEY_TPM_TCTI": tpm.tcti, "PARLEY_PIN": "2468"])
        #expect(locked.status != 0 && locked.stderr.contains("locked out"), "\(locked.stderr)")
        // Unlike the vault PIN's ten tries, the TPM's lockout erases nothing: the owner clears it and the PIN works.
        #expect(FileManager.default.fileExists(atPath: scene.home("ann").appendingPathComponent("accounts/ann@example.org/client.sqlite").path))
        #expect(try tpm.tool("tpm2_dictionarylockout", ["--clear-lockout"]).status == 0)
        let again = try await scene.run(["conversations", "--home", ann], environment: ["PARLEY_TPM_TCTI": tpm.tcti, "PARLEY_PIN": "2468"])
        #expect(again.status == 0, "\(again.stderr)")
        let short = try await scene.run(["account", "set-protection", "--home", ann, "hardware", "--pin"],
                                        environment: ["PARLEY_TPM_TCTI": tpm.tcti, "PARLEY_PIN": "2468", "PARLEY_NEW_PIN": "12"])
        #expect(short.status != 0 && short.stderr.contains("4 to 32 bytes"), "\(short.stderr)")
        #expect(try Self.mode(scene.home("ann"), "ann@example.org") == 2, "a refused change changes nothing")
    }
}
