import CParleyMail

/// libetpan's IMAP response parser and Parley's flattening of FETCH results, on bytes in memory: what a sync
/// runs on a server's answer, without a network. For the fuzz target (`mail-imap-response`) and tests.
public enum IMAPResponseProbe {
    /// One FETCH result as the sync would take it.
    public struct Fetched: Sendable, Equatable {
        public var uid: UInt32
        public var size: UInt32?
        public var flags: UInt8?
        public var internalDate: Int64?
        public var body: [UInt8]?
    }

    /// libetpan's result code (0 = parsed) and the FETCH results of one complete response.
    public static func parse(_ bytes: [UInt8]) -> (code: Int, fetched: [Fetched]) {
        final class Collector {
            var fetched: [Fetched] = []
        }
        let collector = Collector()
        let code = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { text in
                parley_parse_response(text.baseAddress, text.count, { item, context in
                    guard let item = item?.pointee, let context else { return }
                    let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
                    let body = item.has_body == 0 ? nil
                        : item.body.map { Array(UnsafeRawBufferPointer(start: $0, count: item.body_length)) } ?? []
                    collector.fetched.append(Fetched(uid: item.uid, size: item.has_size != 0 ? item.size : nil,
                                                     flags: item.has_flags != 0 ? UInt8(truncatingIfNeeded: item.flags) : nil,
                                                     internalDate: item.internal_date >= 0 ? item.internal_date : nil, body: body))
                }, Unmanaged.passUnretained(collector).toOpaque())
            }
        }
        return (Int(code), collector.fetched)
    }
}
