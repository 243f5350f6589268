import Foundation
import ParleyTestSupport
import Testing

@Suite("parley binary", .offThePool)
struct VersionTests {
    @Test("--version prints the version and exits 0")
    func version() throws {
        let result = try ParleyBinary.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
    }

    @Test("--help lists the subcommands that exist")
    func help() throws {
        let result = try ParleyBinary.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("SUBCOMMANDS:"))
        #expect(result.stdout.contains("envelope"))
    }

    @Test("an unknown subcommand is a usage error with exit code 64")
    func unknown() throws {
        let result = try ParleyBinary.run(["frobnicate"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("Error"))
    }
}
