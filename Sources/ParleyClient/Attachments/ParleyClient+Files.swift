import Foundation
import ParleyClientFormats

extension ParleyClient {
    /// Encrypts `file` with a fresh key, uploads it in chunks (resuming after a dropped connection), then
    /// sends a message carrying its id, key, digest, size, name, type and, for images, a thumbnail.
    ///
    /// A file over `options.maximumSize` is refused before anything is uploaded. Needs a connection to
    /// start; an interruption later waits up to `options.reconnectWait` for the client to reconnect.
    public func send(file: URL, to conversationID: Int64, options: AttachmentOptions = AttachmentOptions()) async throws(ClientError) -> SendOutcome {
        let size = try FileUploader.checkedSize(of: file, options: options)
        guard await connection.isConnected else { throw .notConnected }
        let content = try await uploader.upload(file, size: size, to: conversationID, options: options)
        return try await outgoing.enqueue(OutboxEntry(conversationID: conversationID, content: content,
                                             kind: content.file?.isImage == true ? "image" : "file", forwardOf: nil, created: dependencies.clock.now()))
    }

    /// Downloads the file of message `messageID`, checks the digest the sender put in the message and every
    /// chunk's authentication, and only then moves it to `destination` (replacing what is there; a device or a
    /// named pipe is written into instead).
    ///
    /// Memory stays at about one chunk, and a tampered or truncated download never leaves a partial file.
    @discardableResult
    public func download(messageID: Int64, to destination: URL, options: AttachmentOptions = AttachmentOptions()) async throws(ClientError) -> Attachment {
        let attachment = try attachment(of: messageID)
        try await downloader.download(attachment, to: destination, options: options)
        return attachment
    }

    /// Downloads the file of message `messageID` and writes it into `output` (standard output, a pipe) only after
    /// every check passed; meanwhile it waits sealed in an unlinked scratch file, never in the clear on the disk.
    @discardableResult
    public func download(messageID: Int64, into output: FileHandle, options: AttachmentOptions = AttachmentOptions()) async throws(ClientError) -> Attachment {
        let attachment = try attachment(of: messageID)
        try await downloader.download(attachment, into: output, options: options)
        return attachment
    }

    private func attachment(of messageID: Int64) throws(ClientError) -> Attachment {
        guard let message = try history.message(messageID), !message.deleted else {
            throw .invalidInput("message \(messageID) is not in this device's history")
        }
        guard let attachment = message.attachment else { throw .attachment(.noAttachment(messageID: messageID)) }
        return attachment
    }
}
