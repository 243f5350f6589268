#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A streamed output that appears at its path only when complete: written to a file without a name in the same
/// directory (`UnnamedFile`, so a killed run leaves nothing), or where the system has none to a hidden temporary file,
/// and given its name by `commit`, never replacing a file without `force`.
/// A path that is not a regular file — `/dev/null`, a terminal, a named pipe — is written directly: it is a
/// place bytes go, not a file to replace (renaming over it would have put a regular file where the device was).
public final class AtomicOutput {
    /// Where the bytes go while the output is open.
    public let stream: ByteOutput
    private let path: String
    private let temporary: String?
    /// Whether the file being written has no name yet (`UnnamedFile`).
    private let unnamed: Bool
    /// The open file the bytes go to, for a writer of its own (`stream` writes to it too); closed by `commit`/`discard`.
    public let descriptor: Int32
    private let force: Bool
    /// Whether `path` is a device or pipe written in place (closed by `commit`, never renamed).
    private var direct = false

    /// Opens `path` for writing (`-` is standard output, written directly); a new file gets `mode`.
    public init(path: String, force: Bool, mode: mode_t = 0o644) throws(FilePathError) {
        self.path = path
        self.force = force
        if path == "-" {
            descriptor = STDOUT_FILENO
            temporary = nil
            unnamed = false
        } else if OutputPlace(path) == .device {
            descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw FilePathError("\(path): cannot be written (check its permissions)") }
            temporary = nil
            unnamed = false
            direct = true
        } else {
            try OutputPlace.check(path, force: force)
            let temp = Self.temporaryPath(for: path)
            if let file = UnnamedFile.open(in: URL(fileURLWithPath: path).deletingLastPathComponent().path, mode: mode) {
                descriptor = file
                unnamed = true
            } else {
                unnamed = false
                descriptor = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
                guard descriptor >= 0 else {
                    throw FilePathError("\(path): cannot write here (check the directory exists and is writable)")
                }
            }
            temporary = temp
        }
        stream = temporary == nil ? FileDescriptorOutput(descriptor: descriptor) : WritebackOutput(descriptor: descriptor)
    }

    /// A hidden name beside `path` for the file while it is written (or, for an unnamed one, for the instant
    /// between naming it and renaming it over a file `force` replaces).
    private static func temporaryPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial").path
    }

    /// Moves the finished file into place. Without `force`, `link` fails if the path appeared meanwhile.
    public func commit() throws(FilePathError) {
        if direct {
            guard close(descriptor) == 0 else { throw FilePathError("\(path): could not be written completely") }
            return
        }
        guard let temporary else { return }
        guard fsync(descriptor) == 0 else {
            discard()
            throw FilePathError("\(path): could not be written completely (disk full?)")
        }
        if unnamed {
            defer { close(descriptor) }
            // Without force the file takes its name only if the name is free; with it, a hidden name first, then a
            // rename over the old file, so readers see the old file or the whole new one.
            let error = UnnamedFile.name(descriptor, force ? temporary : path)
            guard error == 0 else {
                throw FilePathError(
                    error == EEXIST
                        ? "\(path) already exists: choose another path or pass --force to replace it"
                        : "\(path): cannot be created (check the directory is writable)")
            }
            guard !force || rename(temporary, path) == 0 else {
                unlink(temporary)
                throw FilePathError("\(path): cannot be replaced (check its permissions)")
            }
            return
        }
        guard close(descriptor) == 0 else {
            unlink(temporary)
            throw FilePathError("\(path): could not be written completely (disk full?)")
        }
        if force {
            guard rename(temporary, path) == 0 else {
                unlink(temporary)
                throw FilePathError("\(path): cannot be replaced (check its permissions)")
            }
        } else {
            let linked = link(temporary, path)
            let error = errno
            unlink(temporary)
            guard linked == 0 else {
                throw FilePathError(
                    error == EEXIST
                        ? "\(path) already exists: choose another path or pass --force to replace it"
                        : "\(path): cannot be created (check the directory is writable)")
            }
        }
    }

    /// Removes the temporary file: nothing of a failed run stays on disk.
    public func discard() {
        if direct { close(descriptor) }
        guard let temporary else { return }
        close(descriptor)
        // An unnamed file goes with its descriptor.
        if !unnamed { unlink(temporary) }
    }

    /// Runs `body` with the stream, then commits, or discards on any error.
    public static func write(to path: String, force: Bool, mode: mode_t = 0o644, _ body: (ByteOutput) throws -> Void) throws {
        let output = try AtomicOutput(path: path, force: force, mode: mode)
        do {
            try body(output.stream)
        } catch {
            output.discard()
            throw error
        }
        try output.commit()
    }
}
