import Foundation
import ParleyTerminal

/// A message's text from standard input (`parley send -`): UTF-8, at most `limit` bytes, without the line breaks
/// that end it (`echo hello | parley send --to … -` sends "hello").
enum StandardInputText {
    /// 64 KiB: a message this long still fits the server's 256 KiB envelopes sealed for each device; longer text
    /// goes as a file.
    static let limit = 64 * 1024

    /// Reads standard input to its end (never more than `limit` + 1 bytes are kept).
    static func read(from handle: FileHandle = .standardInput) throws -> String {
        var data = Data()
        while data.count <= limit {
            let chunk: Data?
            do { chunk = try handle.read(upToCount: limit + 1 - data.count) } catch {
                throw CommandFailure("standard input cannot be read: \(error.localizedDescription)")
            }
            guard let chunk, !chunk.isEmpty else { break }
            data.append(chunk)
        }
        guard data.count <= limit else {
            throw CommandFailure("standard input holds more than 64 KiB, longer than a message may be: send it as a file (--file PATH)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CommandFailure("standard input is not UTF-8 text: send it as a file (--file PATH)")
        }
        var end = text.endIndex
        while end > text.startIndex, text[text.index(before: end)].isNewline { end = text.index(before: end) }
        return String(text[..<end])
    }
}
