import Foundation

/// Parley's data directory: the `--home` given, else PARLEY_HOME, else ~/.parley.
enum ParleyHome {
    static func url(_ explicit: String?) -> URL {
        if let explicit { return URL(fileURLWithPath: (explicit as NSString).expandingTildeInPath) }
        if let env = ProcessInfo.processInfo.environment["PARLEY_HOME"], !env.isEmpty { return URL(fileURLWithPath: env) }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".parley")
    }
}
