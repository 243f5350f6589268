import ArgumentParser
import Foundation
import ParleyServerSettings

extension ServerSettings {
    /// `parley`'s command line with `parley server`'s settings from its file and the environment put in front
    /// (ParleyServerSettings' `ServerSettings`), each setting checked by parsing it as `parley server` does.
    static func arguments(_ arguments: [String], environment: [String: String]) throws -> [String] {
        try self.arguments(arguments, environment: environment,
                           subcommands: Set(Parley.Server.configuration.subcommands.map { $0._commandName }),
                           problem: { words in
                               do {
                                   _ = try Parley.Server.parse(words)
                                   return nil
                               } catch {
                                   return Parley.Server.message(for: error)
                               }
                           })
    }
}
