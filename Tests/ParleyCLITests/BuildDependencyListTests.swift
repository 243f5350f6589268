import Foundation
import ParleyTestSupport
import Testing

/// `scripts/demo` installs the packages marked `build` in scripts/test-tools.txt before the first build on a
/// fresh machine (issue 21, item 1): each C library the package builds against must be marked there.
@Suite("the build's Debian packages", .offThePool)
struct BuildDependencyListTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The packages marked `build` in scripts/test-tools.txt.
    static func markedForBuild() throws -> Set<String> {
        let list = try String(contentsOf: root.appendingPathComponent("scripts/test-tools.txt"), encoding: .utf8)
        return Set(list.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard words.count >= 2, !words[0].hasPrefix("#"), words[1] == "build" else { return nil }
            return String(words[0])
        })
    }

    @Test func everyCLibraryOfPackageSwiftIsMarked() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let providers = try Regex(#"\.apt\(\["([^"]+)"\]\)"#)
        var needed = Set(manifest.matches(of: providers).map { String($0.output[1].substring!) })
        #expect(needed.count >= 3, "Package.swift names its system libraries' Debian packages")
        // Linked or included without a provider line: libjpeg (CParleyImage), zlib (CZlib), SQLite (GRDB), pkg-config.
        needed.formUnion(["libjpeg-dev", "zlib1g-dev", "libsqlite3-dev", "pkg-config"])
        let marked = try Self.markedForBuild()
        #expect(needed.subtracting(marked).isEmpty, "not marked build in scripts/test-tools.txt: \(needed.subtracting(marked).sorted())")
        #expect(!marked.contains("tmux") && !marked.contains("gnupg"), "only what the build needs is marked")
    }
}
