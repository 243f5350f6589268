import Crypto
import Foundation
@testable import ParleyClient
import ParleyClientFormats
import ParleyWire
import Synchronization

/// A server of files in memory that speaks the typed file methods to the client's transfer components, and can be
/// told to misbehave (drop the connection, flip a bit, lie about sizes and offsets, acknowledge another part of an
/// upload, forget what it acknowledged) the way a hostile or unlucky server would. It stands in for the real server
/// only in tests of the components themselves; the real server carries files in AttachmentTests and the CLI's file
/// tests.
final class ScriptedFileServer: ServerCalling {
    struct State {
        var files: [Int64: (bytes: [UInt8], size: Int64, sha256: [UInt8])] = [:]
        var nextID: Int64 = 7
        /// Calls to answer `disconnected` instead, counted down.
        var dropsLeft = 0
        /// Drop once the upload has this many bytes (then clears).
        var dropAt: Int64?
        var calls: [String] = []
        /// What to do to each `download_file` answer.
        var tamper: (@Sendable (inout API.DownloadFile.Response) -> Void)?
        /// What to do to each `upload_file` answer (the server keeps the piece either way).
        var tamperUpload: (@Sendable (inout API.UploadFile.Response) -> Void)?
        /// What `upload_status` says the server holds, instead of the truth.
        var statusLie: Int64?
        /// `conflict` for every piece, claiming this much is held.
        var conflictClaim: Int64?
        /// Speak as a server from before the larger chunks: `chunk_size` 24 KiB, and `invalid_field` for a larger
        /// piece or `length`, as such a server's body limits answer.
        var smallChunksOnly = false
        /// The largest piece and `length` asked for.
        var largestPiece = 0
        var largestLength = 0
        /// Become a server of small chunks when `dropAt` drops the connection (an older server took over).
        var smallChunksAfterDrop = false
    }

    let state = Mutex(State())

    func call<M: APIMethod>(_ method: M.Type, _ request: M.Request) async throws(ClientError) -> M.Response {
        try state.withLock { (state: inout State) throws(ClientError) -> M.Response in
            state.calls.append(M.name)
            if state.dropsLeft > 0 {
                state.dropsLeft -= 1
                throw .disconnected
            }
            switch request {
            case let start as API.UploadStart.Request:
                let id = state.nextID
                state.nextID += 1
                state.files[id] = ([], start.size, start.sha256)
                let size = state.smallChunksOnly ? API.smallFileChunkSize : API.fileChunkSize
                return API.UploadStart.Response(fileID: id, chunkSize: Int64(size)) as! M.Response
            case let piece as API.UploadFile.Request:
                guard var file = state.files[piece.fileID] else { throw .server(WireError(.notFound, "no such upload")) }
                state.largestPiece = max(state.largestPiece, piece.chunk.count)
                if state.smallChunksOnly, piece.chunk.count > API.smallFileChunkSize {
                    throw .server(.invalid("chunk", "is longer than \(API.smallFileChunkSize) bytes"))
                }
                if let at = state.dropAt, Int64(file.bytes.count) >= at {
                    state.dropAt = nil
                    if state.smallChunksAfterDrop { state.smallChunksOnly = true }
                    throw .disconnected
                }
                if let claim = state.conflictClaim { throw .server(WireError(.conflict, "offset", details: ["received": .int(claim)])) }
                guard piece.offset == Int64(file.bytes.count) else {
                    throw .server(WireError(.conflict, "offset", details: ["received": .int(Int64(file.bytes.count))]))
                }
                file.bytes += piece.chunk
                state.files[piece.fileID] = file
                var answer = API.UploadFile.Response(received: Int64(file.bytes.count), complete: Int64(file.bytes.count) == file.size)
                state.tamperUpload?(&answer)
                return answer as! M.Response
            case let status as API.UploadStatus.Request:
                guard let file = state.files[status.fileID] else { throw .server(WireError(.notFound, "no such upload")) }
                let received = state.statusLie ?? Int64(file.bytes.count)
                return API.UploadStatus.Response(received: received, size: file.size, complete: received == file.size) as! M.Response
            case let download as API.DownloadFile.Request:
                guard let file = state.files[download.fileID] else { throw .server(WireError(.notFound, "no such file")) }
                state.largestLength = max(state.largestLength, Int(download.length ?? 0))
                if state.smallChunksOnly, (download.length ?? 0) > Int64(API.smallFileChunkSize) {
                    throw .server(.invalid("length", "must be between 1 and \(API.smallFileChunkSize)"))
                }
                let start = Int(download.offset ?? 0)
                let end = min(file.bytes.count, start + Int(download.length ?? Int64(API.fileChunkSize)))
                var answer = API.DownloadFile.Response(chunk: Array(file.bytes[start..<end]), offset: Int64(start), size: file.size, sha256: file.sha256)
                state.tamper?(&answer)
                return answer as! M.Response
            default:
                throw .server(WireError(.unknownMethod, M.name))
            }
        }
    }

    var isConnected: Bool { get async { true } }

    func awaitConnection(until deadline: ContinuousClock.Instant) async throws(ClientError) {}
}

/// The client's attachment type, named apart from Swift Testing's `Attachment`.
typealias ClientAttachment = Attachment
