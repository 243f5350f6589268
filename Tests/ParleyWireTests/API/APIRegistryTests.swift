import Foundation
import ParleyWire
import Testing

/// The typed registry and docs/API.md's method index (§14) must describe the same API.
@Suite("API registry")
struct APIRegistryTests {
    /// One row of the index: `| `name` | yes/no | request fields | response fields |`.
    struct Row: Equatable, CustomStringConvertible {
        var name: String
        var login: Bool
        var request: [String]
        var response: [String]
        var description: String { "\(name) login=\(login) request=\(request) response=\(response)" }
    }

    static func documentedRows() throws -> [Row] {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/API.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        guard let start = text.range(of: "\n## 14. Method index") else { throw CocoaError(.fileReadCorruptFile) }
        let section = text[start.upperBound...]
        // The methods' tables, up to the notifications' table (ServerEventTests reads that one).
        let end = section.range(of: "\n### Notifications").map { section[..<$0.lowerBound] } ?? section
        return try end.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 4 else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "not 4 cells: \(line)"]) }
            return Row(name: fields(cells[0]).first ?? "", login: cells[1] == "yes", request: fields(cells[2]), response: fields(cells[3]))
        }
    }

    /// The backticked names of a cell, each with the `?` that follows it.
    static func fields(_ cell: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: "`([a-z0-9_]+)`(\\?)?")
        return pattern.matches(in: cell, range: NSRange(cell.startIndex..., in: cell)).map { match in
            let name = String(cell[Range(match.range(at: 1), in: cell)!])
            return match.range(at: 2).location == NSNotFound ? name : name + "?"
        }.sorted()
    }

    static func registryRow(_ method: any APIMethod.Type) -> Row {
        Row(name: method.name, login: method.requiresLogin, request: method.requestFields.sorted(), response: method.responseFields.sorted())
    }

    @Test("every typed method is in docs/API.md's index with the same login rule and fields, and nothing else is")
    func indexMatchesRegistry() throws {
        let documented = try Self.documentedRows()
        let registered = API.methods.map(Self.registryRow)
        #expect(Set(documented.map(\.name)).count == documented.count, "a method is listed twice in the index")
        #expect(Set(registered.map(\.name)).count == registered.count, "a method is registered twice")
        let byName = Dictionary(documented.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for row in registered {
            #expect(byName[row.name] == row, "docs/API.md §14 disagrees with ParleyWire/API about \(row.name)")
        }
        let missing = Set(documented.map(\.name)).subtracting(registered.map(\.name))
        #expect(missing.isEmpty, "documented but not typed: \(missing.sorted())")
    }

    @Test("a method's name is found in the registry by name")
    func lookup() {
        for method in API.methods { #expect(API.method(named: method.name) == method) }
        #expect(API.method(named: "no_such_method") == nil)
    }
}

extension APIMethod {
    static var requestFields: [String] { Request.fieldNames }
    static var responseFields: [String] { Response.fieldNames }
}
