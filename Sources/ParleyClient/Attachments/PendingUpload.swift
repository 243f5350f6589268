import Crypto
import Foundation
import ParleyCrypto

/// An upload that has not finished, kept (sealed, in `records` namespace `pending_upload`) with its
/// encrypted copy, so sending the same file again after a crash or a lost connection continues at the
/// server's offset with the same key and message id instead of starting over.
struct PendingUpload: Codable, Sendable {
    /// The client message id the file message will carry (so a retry is idempotent end to end).
    var id: String
    var key: Data
    var sha256: Data
    /// The encrypted size.
    var ciphertextSize: Int64
    var plaintextSize: Int64
    var name: String
    var mimeType: String
    var thumbnail: Data?
    var width: Int?
    var height: Int?
    /// Set once `upload_start` answered.
    var fileID: Int64?
    /// The piece size `upload_start` offered, for resuming (a record from before it was kept: the small piece).
    var pieceSize: Int?

    static let namespace = "pending_upload"

    /// The record key of sending `file` (as it is now: path, size, modification time) to a conversation.
    static func recordKey(file: URL, size: Int64, conversationID: Int64) -> String {
        let modified = ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let identity = "\(conversationID)\n\(file.standardizedFileURL.path)\n\(size)\n\(modified)"
        return Hex.lower(SHA256.hash(data: Array(identity.utf8)))
    }

    /// Where its encrypted copy lives.
    func ciphertextPath(in directory: URL) -> URL {
        directory.appendingPathComponent("upload-\(id).prla")
    }
}

/// The records of unfinished uploads, each beside its encrypted copy in the account directory.
struct PendingUploads: Sendable {
    typealias Dependencies = HasDatabase & HasAccountDirectory & Sendable
    let dependencies: any Dependencies

    /// The upload recorded under `recordKey`, if its encrypted copy is still there, whole.
    func load(_ recordKey: String) throws(ClientError) -> PendingUpload? {
        let bytes = try dependencies.database.read { try $0.get(PendingUpload.namespace, recordKey) }
        guard let bytes, let pending = try? JSONDecoder().decode(PendingUpload.self, from: Data(bytes)) else { return nil }
        let path = pending.ciphertextPath(in: dependencies.directory)
        let size = (try? FileManager.default.attributesOfItem(atPath: path.path))?[.size] as? NSNumber
        return size?.int64Value == pending.ciphertextSize ? pending : nil
    }

    /// Records `pending` under `recordKey` (sealed, like every record).
    func save(_ pending: PendingUpload, _ recordKey: String) throws(ClientError) {
        let bytes = Array(try! JSONEncoder().encode(pending))
        try dependencies.database.write { try $0.put(PendingUpload.namespace, recordKey, bytes) }
    }

    /// Forgets the record and removes the encrypted copy.
    func discard(_ pending: PendingUpload, _ recordKey: String) {
        try? dependencies.database.write { try $0.delete(PendingUpload.namespace, recordKey) }
        try? FileManager.default.removeItem(at: pending.ciphertextPath(in: dependencies.directory))
    }
}
