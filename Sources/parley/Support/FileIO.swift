import Foundation

/// Reading inputs and writing outputs the careful way: `-` is stdin/stdout, and an
/// existing file is never replaced unless the user said `--force`.
enum FileIO {
    /// Why an input or output could not be used.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Reads all of `path`, or standard input for `-`.
    static func read(_ path: String) throws -> Data {
        if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        guard FileManager.default.fileExists(atPath: path) else {
            throw Failure(description: "\(path): no such file")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Failure(description: "\(path): cannot be read (check its permissions)")
        }
    }

    /// Writes `data` to `path` (stdout for `-`) through a temporary file and a rename,
    /// so a reader never sees half a file; `private` makes it readable by the owner only.
    static func write(_ data: Data, to path: String, force: Bool, private isPrivate: Bool) throws {
        if path == "-" {
            FileHandle.standardOutput.write(data)
            return
        }
        if FileManager.default.fileExists(atPath: path), !force {
            throw Failure(description: "\(path) already exists: choose another path or pass --force to replace it")
        }
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial")
        let attributes: [FileAttributeKey: Any]? = isPrivate ? [.posixPermissions: 0o600] : nil
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: attributes) else {
            throw Failure(description: "\(path): cannot write here (check the directory exists and is writable)")
        }
        do {
            if FileManager.default.fileExists(atPath: path) {
                _ = try FileManager.default.replaceItemAt(url, withItemAt: temporary)
            } else {
                try FileManager.default.moveItem(at: temporary, to: url)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw Failure(description: "\(path): cannot be replaced (check its permissions)")
        }
    }
}
