import Foundation
import ParleyFiles

/// Questions about files on this device that sending and saving attachments ask.
enum LocalFile {
    /// The size of a regular file, or a clear error.
    static func regularFileSize(_ url: URL) throws(ClientError) -> Int64 {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else {
            throw .attachment(.unreadable("\(url.path) does not exist or cannot be read"))
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular, let size = attributes[.size] as? NSNumber else {
            throw .attachment(.unreadable("\(url.path) is not a regular file"))
        }
        return size.int64Value
    }

    /// Up to `count` bytes from the start of `url` (empty when it cannot be read).
    static func prefix(of url: URL, count: Int) -> [UInt8] {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return [] }
        defer { try? handle.close() }
        return Array((try? handle.read(upToCount: count)) ?? Data())
    }

    /// Whether `url` names an existing device or named pipe, which a download writes into instead of replacing.
    static func isDeviceOrPipe(_ url: URL) -> Bool {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        return kind != S_IFREG && kind != S_IFDIR
    }

    /// Writes what `scratch` holds into the device or pipe `destination`, on a thread of its own: opening a pipe
    /// waits for its reader and writing into it waits on the reader, and neither may hold one of the few threads
    /// (one per core) that every other task of the process runs on.
    static func releaseOnItsOwnThread(_ scratch: SealedScratch, into destination: URL) async throws(ClientError) {
        nonisolated(unsafe) let handedOver = scratch  // used by that thread alone from here on
        try await OwnThread.run { () throws(ClientError) in
            guard let output = FileHandle(forWritingAtPath: destination.path) else {
                throw .attachment(.output("cannot write to \(destination.path)"))
            }
            defer { try? output.close() }
            do throws(SealedScratch.Failure) { try handedOver.release(to: output.fileDescriptor) } catch { throw .attachment(.output(error.description)) }
        }
    }

    /// Writes what `scratch` holds into `output` (standard output, an open pipe), on a thread of its own.
    static func releaseOnItsOwnThread(_ scratch: SealedScratch, into output: FileHandle) async throws(ClientError) {
        nonisolated(unsafe) let handedOver = scratch
        try await OwnThread.run { () throws(ClientError) in
            do throws(SealedScratch.Failure) { try handedOver.release(to: output.fileDescriptor) } catch { throw .attachment(.output(error.description)) }
        }
    }
}
