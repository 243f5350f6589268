import Foundation

/// Reading a child's output pipe without Foundation's `availableData`, which traps when a read is interrupted
/// by a signal (EINTR) — and Foundation's own SIGCHLD handling interrupts reads whenever any child exits.
public enum PipeRead {
    /// Reads `handle` until end of file, handing each chunk to `body`; interrupted reads are retried.
    public static func chunks(_ handle: FileHandle, _ body: (Data) -> Void) {
        let descriptor = handle.fileDescriptor
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count > 0 {
                body(Data(buffer[0..<count]))
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
