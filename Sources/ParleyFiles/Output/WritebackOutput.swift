#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file output that asks the kernel to start writing each finished 8 MiB window to disk while
/// the next one is still being produced.
///
/// `AtomicOutput` must `fsync` before it renames a file into place. Without this, every byte of
/// a large output would still be dirty at that point and the whole write-out would happen after
/// the work is done; with it, the disk works in parallel and the final `fsync` only waits for
/// the last window. On Linux `POSIX_FADV_DONTNEED` starts asynchronous write-back of dirty pages
/// (and drops the clean ones, so a large output does not push other files out of the cache).
/// It never blocks on the disk and never replaces the `fsync`: durability still comes from that.
public final class WritebackOutput: ByteOutput {
    /// Bytes per window handed to the kernel.
    public static let window = 8 << 20

    private let file: FileDescriptorOutput
    private let descriptor: Int32
    private var written = 0
    private var advised = 0

    /// Wraps `descriptor`, a regular file opened for writing; the caller keeps ownership.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
        file = FileDescriptorOutput(descriptor: descriptor)
    }

    /// Writes `bytes`, then hands each finished window to the kernel's write-back.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        try file.write(bytes)
        written += bytes.count
        while written - advised >= Self.window {
            #if os(Linux)
            // Advice only: a failure changes nothing but speed, and the fsync still follows.
            _ = posix_fadvise(descriptor, off_t(advised), off_t(Self.window), POSIX_FADV_DONTNEED)
            #endif
            advised += Self.window
        }
    }
}
