#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reading inputs and writing outputs the careful way: `-` is stdin/stdout, and an
/// existing file is never replaced unless the user said `force`.
public enum FileIO {
    /// The most `read` takes into memory: inputs read whole are keys, envelopes, images and small packages.
    public static let maximumReadBytes = 1 << 30

    /// Reads all of `path`, or standard input for `-`, up to `maximumReadBytes`.
    public static func read(_ path: String) throws(FilePathError) -> Data {
        if path == "-" {
            do { return Data(try FileDescriptorInput(descriptor: 0).readAll(maximumBytes: maximumReadBytes)) } catch {
                throw FilePathError("standard input cannot be read (\(error))")
            }
        }
        // A file, a device or a pipe (`<(command)`) alike; a directory or a missing file said as such.
        let (input, _, close) = try StreamInput.stream(path)
        defer { close() }
        do { return Data(try input.readAll(maximumBytes: maximumReadBytes)) } catch {
            throw FilePathError("\(path): cannot be read (\(error))")
        }
    }

    /// Writes `data` to `path` (stdout for `-`) as one `AtomicOutput`: a temporary file made
    /// durable and moved into place, never replacing a file without `force`; `private` means mode 600.
    public static func write(_ data: Data, to path: String, force: Bool, private isPrivate: Bool) throws {
        try AtomicOutput.write(to: path, force: force, mode: isPrivate ? 0o600 : 0o644) { try $0.write(data) }
    }
}
