import Foundation
import Testing

/// The wire belongs to the client and the server: the command line and the terminal UI speak the client's
/// types only (issue 24), so a change of the wire never reaches them.
@Suite("Layering")
struct LayeringTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func swiftFiles(under folder: String) -> [URL] {
        let base = root.appendingPathComponent(folder)
        let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
        return (walker?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "swift" }
    }

    @Test("neither the command line nor the chat UI imports ParleyWire", arguments: ["Sources/parley", "Sources/ParleyChatUI"])
    func noWireAbove(folder: String) throws {
        let files = Self.swiftFiles(under: folder)
        #expect(!files.isEmpty, "no sources found under \(folder)")
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(!text.contains("import ParleyWire"), "\(file.lastPathComponent) imports ParleyWire")
        }
    }
}
