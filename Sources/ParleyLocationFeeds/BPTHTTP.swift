import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP exchange with a tracker server, bounded in time and size: a server that stalls, trickles or
/// answers without end gets a clear error instead of holding the command or its memory.
final class BPTHTTP: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// The status and body of a finished exchange.
    struct Response {
        let status: Int
        let body: Data
    }

    /// Why no response came.
    enum Failure: Error {
        case unreachable(String)
        case tooLarge(Int)
        case timedOut(Double)
    }

    private let limit: Int
    private let lock = NSLock()
    private var status = 0
    private var body = Data()
    private var failure: Failure?
    private var continuation: CheckedContinuation<Response, any Error>?

    private init(limit: Int) { self.limit = limit }

    /// Sends `request`; the answer must arrive whole within `timeout` seconds and hold at most `limit` bytes.
    static func exchange(_ request: URLRequest, limit: Int, timeout: Double) async throws -> Response {
        let delegate = BPTHTTP(limit: limit)
        var request = request
        request.timeoutInterval = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForResource = timeout
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        return try await withCheckedThrowingContinuation { continuation in
            delegate.lock.withLock { delegate.continuation = continuation }
            let task = session.dataTask(with: request)
            // The request timeout only bounds silence; this bounds the whole exchange (a trickling server).
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak task] in
                delegate.fail(.timedOut(timeout))
                task?.cancel()
            }
            task.resume()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        lock.withLock { status = http?.statusCode ?? 0 }
        if response.expectedContentLength > Int64(limit) {
            fail(.tooLarge(limit))
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over: Bool = lock.withLock {
            body.append(data)
            return body.count > limit
        }
        if over {
            fail(.tooLarge(limit))
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, result): (CheckedContinuation<Response, any Error>?, Result<Response, any Error>) = lock.withLock {
            let waiting = self.continuation
            self.continuation = nil
            if let failure { return (waiting, .failure(failure)) }
            if let error, (error as? URLError)?.code == .timedOut {
                // URLSession's own clock ran out before ours: the same answer, in the same words.
                return (waiting, .failure(Failure.timedOut(task.originalRequest?.timeoutInterval ?? 0)))
            }
            if let error { return (waiting, .failure(Failure.unreachable(error.localizedDescription))) }
            return (waiting, .success(Response(status: status, body: body)))
        }
        continuation?.resume(with: result)
    }

    /// Records the first reason the exchange failed; the task's completion reports it.
    private func fail(_ reason: Failure) {
        lock.withLock {
            if failure == nil, continuation != nil { failure = reason }
        }
    }
}
