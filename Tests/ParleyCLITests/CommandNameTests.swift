import ArgumentParser
@testable import parley
import ParleyTestSupport
import Testing

/// Every command spells its own name. Without one, ArgumentParser derives it with
/// `String(describing:)`, and in a binary this size each of those reflective lookups scans every
/// protocol conformance: it was 40 % of `parley`'s start-up (22 ms of 54) before any work began.
@Suite("parley commands: names", .offThePool)
struct CommandNameTests {
    /// Every command type below `parley`, with the path that reaches it.
    static func commands() -> [(path: String, type: ParsableCommand.Type)] {
        var found: [(String, ParsableCommand.Type)] = []
        func walk(_ type: ParsableCommand.Type, _ path: String) {
            found.append((path, type))
            for sub in type.configuration.subcommands {
                walk(sub, path + " " + (sub.configuration.commandName ?? "?"))
            }
        }
        walk(Parley.self, "parley")
        return found
    }

    @Test("each command sets its commandName, in kebab case")
    func everyCommandIsNamed() {
        let commands = Self.commands()
        #expect(commands.count > 90)
        for (path, type) in commands {
            let name = type.configuration.commandName
            #expect(name != nil, "\(path) (\(type)) has no commandName")
            if let name {
                #expect(!name.isEmpty && name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(path): \(name)")
            }
        }
    }

    @Test("no two subcommands of one command share a name")
    func namesAreUnique() {
        for (path, type) in Self.commands() {
            let names = type.configuration.subcommands.compactMap { $0.configuration.commandName }
            #expect(Set(names).count == names.count, "\(path): \(names)")
        }
    }
}
