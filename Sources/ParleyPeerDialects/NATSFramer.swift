/// The NATS client protocol's server operations (INFO, MSG, PING, PONG, +OK, -ERR) cut from a server's bytes.
package struct NATSFramer {
    package enum Operation: Equatable {
        case info
        case message(subject: String, replyTo: String?, payload: [UInt8])
        case ping
        case pong
        case ok
        case error(String)
    }

    /// The longest operation line and payload the benchmark accepts.
    package static let maximumLine = 4096
    package static let maximumPayload = 1 << 20

    private var buffer: [UInt8] = []

    /// Adds `bytes` and returns the operations now complete; throws on bytes NATS does not send.
    package mutating func feed(_ bytes: [UInt8]) throws(PeerWireError) -> [Operation] {
        buffer += bytes
        var operations: [Operation] = []
        var start = 0
        var waitingForPayload = false
        while let lineEnd = Self.lineEnd(in: buffer, from: start) {
            guard lineEnd - start <= Self.maximumLine else { throw PeerWireError("a NATS line longer than \(Self.maximumLine) bytes") }
            let line = String(decoding: buffer[start..<lineEnd], as: UTF8.self)
            let next = lineEnd + 2
            if line.hasPrefix("MSG ") {
                let parts = line.split(separator: " ", omittingEmptySubsequences: true)
                guard parts.count == 4 || parts.count == 5, let size = Int(parts[parts.count - 1]), size >= 0,
                    size <= Self.maximumPayload
                else { throw PeerWireError("a NATS MSG line the benchmark cannot read") }
                guard buffer.count - next >= size + 2 else {
                    waitingForPayload = true
                    break
                }
                guard buffer[next + size] == 0x0D, buffer[next + size + 1] == 0x0A else {
                    throw PeerWireError("a NATS MSG whose payload is not followed by CRLF")
                }
                operations.append(.message(
                    subject: String(parts[1]), replyTo: parts.count == 5 ? String(parts[3]) : nil,
                    payload: Array(buffer[next..<next + size])))
                start = next + size + 2
                continue
            }
            switch line {
            case "PING": operations.append(.ping)
            case "PONG": operations.append(.pong)
            case "+OK": operations.append(.ok)
            case _ where line.hasPrefix("INFO "): operations.append(.info)
            case _ where line.hasPrefix("-ERR"): operations.append(.error(Self.unquoted(line.dropFirst(4))))
            default: throw PeerWireError("a NATS operation the benchmark does not know")
            }
            start = next
        }
        if !waitingForPayload, buffer.count - start > Self.maximumLine {
            throw PeerWireError("a NATS line longer than \(Self.maximumLine) bytes")
        }
        buffer.removeFirst(start)
        return operations
    }

    /// An error's text without the spaces and quotes around it.
    private static func unquoted(_ text: Substring) -> String {
        var text = text
        while let first = text.first, first == " " || first == "'" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "'" { text = text.dropLast() }
        return String(text)
    }

    /// Where the CRLF that ends the line starting at `start` is.
    private static func lineEnd(in buffer: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 1 < buffer.count {
            if buffer[index] == 0x0D, buffer[index + 1] == 0x0A { return index }
            index += 1
        }
        return nil
    }
}
