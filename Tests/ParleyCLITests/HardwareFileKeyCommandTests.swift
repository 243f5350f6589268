import Foundation
import ParleyTestSupport
import Testing

/// `parley file keygen --hardware` and opening files with the key the TPM holds, through the binary, against
/// a real software TPM (swtpm).
@Suite("parley file with a key held in a TPM", .serialized, .offThePool)
struct HardwareFileKeyCommandTests {
    @Test("a key made in the TPM opens Parley files and FileLock packages sealed to it; its blob is useless without that TPM")
    func keygenSealOpen() throws {
        let tpm = try SoftwareTPM()
        let scratch = try TemporaryDirectory("parley-hw-file")
        func path(_ name: String) -> String { scratch.url.appendingPathComponent(name).path }
        let environment = ["PARLEY_TPM_TCTI": tpm.tcti]
        let made = try ParleyBinary.run(["file", "keygen", "--hardware", "-o", path("key.phk"), "--public", path("key.pem")], environment: environment)
        #expect(made.status == 0 && made.stdout.contains("held by the TPM"), "\(made.stderr)")
        let blob = try Data(contentsOf: URL(fileURLWithPath: path("key.phk")))
        #expect(blob.starts(with: Array("PHK1".utf8)))
        #expect(try FileManager.default.attributesOfItem(atPath: path("key.phk"))[.posixPermissions] as? Int == 0o600)

        let secret = Data((0..<300_000).map { UInt8($0 % 251) })
        try secret.write(to: URL(fileURLWithPath: path("report.bin")))
        for format in ["v1", "filelock"] {
            let sealed = try ParleyBinary.run(["file", "seal", "-r", path("key.pem"), "--format", format, path("report.bin"), "-o", path("report.\(format)")])
            #expect(sealed.status == 0, "\(sealed.stderr)")
            let opened = try ParleyBinary.run(["file", "open", "-i", path("key.phk"), path("report.\(format)"), "-o", path("opened.\(format)")], environment: environment)
            #expect(opened.status == 0, "\(format): \(opened.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path("opened.\(format)"))) == secret)
            // parley-file, linked statically, reaches the same TPM through the TSS's loadable TCTI modules.
            let lean = try ParleyBinary.run(["open", "-i", path("key.phk"), path("report.\(format)"), "-o", path("lean.\(format)")],
                                            environment: environment, program: "parley-file")
            #expect(lean.status == 0, "parley-file, \(format): \(lean.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path("lean.\(format)"))) == secret)
        }

        // Another machine's TPM cannot use the blob: a clear error, and nothing written.
        let other = try SoftwareTPM()
        let elsewhere = try ParleyBinary.run(["file", "open", "-i", path("key.phk"), path("report.v1"), "-o", path("elsewhere.bin")], environment: ["PARLEY_TPM_TCTI": other.tcti])
        #expect(elsewhere.status != 0 && elsewhere.stderr.contains("belongs to a different TPM"), "\(elsewhere.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("elsewhere.bin")))
        // No TPM at all.
        tpm.stop()
        let gone = try ParleyBinary.run(["file", "open", "-i", path("key.phk"), path("report.v1"), "-o", path("gone.bin")], environment: environment)
        #expect(gone.status != 0 && gone.stderr.contains("no TPM is available"), "\(gone.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("gone.bin")))
    }

    @Test("a PIN-protected key needs its PIN: a wrong one is refused and counted, nothing is written")
    func pin() throws {
        let tpm = try SoftwareTPM()
        let scratch = try TemporaryDirectory("parley-hw-file")
        func path(_ name: String) -> String { scratch.url.appendingPathComponent(name).path }
        let made = try ParleyBinary.run(
            ["file", "keygen", "--hardware", "--pin", "-o", path("key.phk"), "--public", path("key.pem")],
            environment: ["PARLEY_TPM_TCTI": tpm.tcti, "PARLEY_PIN": "2468"])
        #expect(made.status == 0 && made.stdout.contains("PIN-protected"), "\(made.stderr)")
        try Data("for the PIN holder".utf8).write(to: URL(fileURLWithPath: path("note.txt")))
        #expect(try ParleyBinary.run(["file", "seal", "-r", path("key.pem"), path("note.txt"), "-o", path("note.parley")]).status == 0)

        let wrong = try ParleyBinary.run(["file", "open", "-i", path("key.phk"), path("note.parley"), "-o", path("wrong.txt")],
                                         environment: ["PARLEY_TPM_TCTI": tpm.tcti, "PARLEY_PIN": "1357"])
        #expect(wrong.status != 0 && wrong.stderr.contains("the PIN is wrong"), "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("1357") && !FileManager.default.fileExists(atPath: path("wrong.txt")))
        let none = try ParleyBinary.run(["file", "open", "-i", path("key.phk"), path("note.parley"), "-o", path("none.txt")],
                                        environment: ["PARLEY_TPM_TCTI": tpm.tcti])
        #expect(none.status != 0 && none.stderr.contains("PIN"), "\(none.stderr)")
        let right = try ParleyBinary.run(["file", "open", "-i", path("key.phk"), path("note.parley"), "-o", path("note.out")],
                                         environment: ["PARLEY_TPM_TCTI": tpm.tcti, "PARLEY_PIN": "2468"])
        #expect(right.status == 0, "\(right.stderr)")
        #expect(try String(contentsOfFile: path("note.out"), encoding: .utf8) == "for the PIN holder")

        let short = try ParleyBinary.run(["file", "keygen", "--hardware", "--pin", "-o", path("short.phk"), "--public", path("short.pem")],
                                         environment: ["PARLEY_TPM_TCTI": tpm.tcti, "PARLEY_PIN": "12"])
        #expect(short.status != 0 && short.stderr.contains("4 to 32 bytes"), "\(short.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("short.phk")))
    }

    @Test("a damaged key blob is refused in words before any TPM is asked")
    func damagedBlob() throws {
        let scratch = try TemporaryDirectory("parley-hw-file")
        func path(_ name: String) -> String { scratch.url.appendingPathComponent(name).path }
        try Data(Array("PHK1".utf8) + [1, 0, 1, 0x00]).write(to: URL(fileURLWithPath: path("cut.phk")))
        try Data("PRLYFILE".utf8).write(to: URL(fileURLWithPath: path("some.parley")))
        let result = try ParleyBinary.run(["file", "open", "-i", path("cut.phk"), path("some.parley"), "-o", path("out.bin")],
                                          environment: ["PARLEY_TPM_TCTI": "swtpm:host=127.0.0.1,port=1"])
        #expect(result.status != 0 && result.stderr.contains("not a Parley hardware key"), "\(result.stderr)")
    }
}
