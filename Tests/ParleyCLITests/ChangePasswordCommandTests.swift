import Foundation
import ParleyTestSupport
import Testing

/// `parley account change-password` asks for the current password first (an outside probe changed it from an unlocked
/// device with a wrong one in PARLEY_PASSWORD, and "changed" it to the same one).
@Suite("parley account change-password", .serialized, .offThePool)
struct ChangePasswordCommandTests {
    @Test func theCurrentPasswordComesFirst() async throws {
        let scene = try await CLIScene.start("change-password", people: ["ann"])
        let ann = scene.home("ann").path
        let old = CLIAccounts.environment["PARLEY_PASSWORD"]!
        let wrong = try await scene.run(["account", "change-password", "--home", ann],
                                        environment: ["PARLEY_PASSWORD": "not the password", "PARLEY_NEW_PASSWORD": "a new long password"])
        #expect(wrong.status == 1 && wrong.stderr.contains("the current password is not right; nothing changed"), "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("not the password") && !wrong.stderr.contains("a new long password"), "no password is repeated")
        let same = try await scene.run(["account", "change-password", "--home", ann, "--password-stdin"], environment: [:], stdin: "\(old)\n\(old)\n")
        #expect(same.status == 1 && same.stderr.contains("the new password is the one you have now"), "\(same.stderr)")
        let none = try await scene.run(["account", "change-password", "--home", ann], environment: ["PARLEY_PASSWORD": old])
        #expect(none.status != 0 && none.stderr.contains("PARLEY_NEW_PASSWORD"), "\(none.stderr)")

        let changed = try await scene.run(["account", "change-password", "--home", ann, "--password-stdin"], stdin: "\(old)\na new long password\n")
        #expect(changed.status == 0 && changed.stdout.contains("Password changed."), "\(changed.stderr)")
        // The old one is no longer the current one; the new one is.
        let again = try await scene.run(["account", "change-password", "--home", ann],
                                        environment: ["PARLEY_PASSWORD": old, "PARLEY_NEW_PASSWORD": "a third long password"])
        #expect(again.stderr.contains("the current password is not right"), "\(again.stderr)")
        let back = try await scene.run(["account", "change-password", "--home", ann],
                                       environment: ["PARLEY_PASSWORD": "a new long password", "PARLEY_NEW_PASSWORD": old])
        #expect(back.status == 0, "\(back.stderr)")
        try await scene.finish()
    }
}
