import Foundation

/// Runs blocking mail work (libetpan) on a thread of its own and awaits its result, so neither an event
/// loop nor Swift's cooperative pool is ever blocked on the network.
public enum MailThread {
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws(MailboxError) -> T) async throws(MailboxError) -> T {
        let result: Result<T, MailboxError> = await withCheckedContinuation { continuation in
            let thread = Thread {
                do throws(MailboxError) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            thread.name = "parley-mail"
            thread.start()
        }
        return try result.get()
    }
}
