import Foundation
import Testing

@Suite("parley binary")
struct VersionTests {
    @Test("--version prints the version and exits 0")
    func version() throws {
        let result = try ParleyBinary.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
    }
}
