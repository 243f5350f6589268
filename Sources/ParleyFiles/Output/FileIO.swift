#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reading inputs and writing outputs the careful way: `-` is stdin/stdout, and an
/// existing file is never replaced unless the user said `force`.
public enum FileIO {
    /// Reads all of `path`, or standard input for `-`.
    public static func read(_ path: String) throws(FilePathError) -> Data {
        if path == "-" {
            do { return Data(try FileDescriptorInput(descriptor: 0).readAll()) } catch {
                throw FilePathError("standard input cannot be read")
            }
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw FilePathError("\(path): no such file")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw FilePathError("\(path): cannot be read (check its permissions)")
        }
    }

    /// Writes `data` to `path` (stdout for `-`) as one `AtomicOutput`: a temporary file made
    /// durable and moved into place, never replacing a file without `force`; `private` means mode 600.
    public static func write(_ data: Data, to path: String, force: Bool, private isPrivate: Bool) throws {
        try AtomicOutput.write(to: path, force: force, mode: isPrivate ? 0o600 : 0o644) { try $0.write(data) }
    }
}
