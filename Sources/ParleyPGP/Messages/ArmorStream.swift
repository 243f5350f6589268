#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// CRC-24 (RFC 4880 §6.1) computed a chunk at a time with a table, for armor of any length.
struct CRC24Stream {
    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index) << 16
        for _ in 0..<8 {
            crc <<= 1
            if crc & 0x100_0000 != 0 { crc ^= 0x186_4CFB }
        }
        return crc & 0xFF_FFFF
    }

    private(set) var value: UInt32 = 0xB7_04CE

    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var crc = value
        for byte in bytes {
            crc = (crc << 8 & 0xFF_FFFF) ^ Self.table[Int((crc >> 16) ^ UInt32(byte)) & 0xFF]
        }
        value = crc
    }

    /// The checksum as the three bytes armor carries.
    var bytes: [UInt8] { [UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
}

/// Removes ASCII armor as the data streams by: BEGIN line, optional headers, base64 lines, the
/// optional CRC-24 line (checked when present) and the matching END line. Lines may end in LF, CRLF
/// or a bare CR, mixed, and carry leading or trailing spaces, as the whole-buffer `Armor.decode` accepts.
final class DearmorInput: PGPInput {
    private let source: BufferedInput
    private var endLine: [UInt8] = []
    private var pendingBase64: [UInt8] = []
    private var decoded: [UInt8] = []
    private var crc = CRC24Stream()
    private var done = false
    private static let maxLine = 1 << 16

    /// Reads up to the first data line; throws `.badArmor` when there is no BEGIN line.
    init(_ source: BufferedInput) throws {
        self.source = source
        let begin = Array("-----BEGIN PGP ".utf8)
        while true {
            guard let line = try nextLine() else { throw PGPError.badArmor("no BEGIN PGP line") }
            if line.starts(with: begin), line.count > begin.count + 5, line.suffix(5).allSatisfy({ $0 == 0x2D }) {
                let label = line[begin.count..<(line.count - 5)]
                guard Armor.Kind(rawValue: String(decoding: label, as: UTF8.self)) != nil else {
                    throw PGPError.badArmor("unsupported armor type \"\(String(decoding: label.prefix(40), as: UTF8.self))\"")
                }
                endLine = Array("-----END PGP ".utf8) + label + Array("-----".utf8)
                break
            }
        }
        // Headers ("Key: value") until a blank line or the first line that is not one.
        while true {
            guard let line = try nextLine() else { throw PGPError.badArmor("no matching END line") }
            if line.isEmpty { break }
            if line.firstRange(of: [0x3A, 0x20]) != nil { continue }
            try dataLine(line)
            break
        }
    }

    func read(upTo count: Int) throws -> [UInt8] {
        while decoded.count < count, !done {
            guard let line = try nextLine() else { throw PGPError.badArmor("no matching END line") }
            try dataLine(line)
        }
        let take = min(count, decoded.count)
        defer { decoded.removeFirst(take) }
        return Array(decoded[0..<take])
    }

    /// Once the END line was read: throws `.trailingData` unless only blank lines follow it.
    func requireNothingAfterEnd() throws {
        while let line = try nextLine() {
            guard line.isEmpty else { throw PGPError.trailingData }
        }
    }

    private func dataLine(_ line: [UInt8]) throws {
        if line == endLine {
            try decode(final: true)
            done = true
        } else if line.first == 0x3D, line.count == 5 {
            // The CRC line: everything before it is the data.
            try decode(final: true)
            guard let checksum = Data(base64Encoded: Data(line.dropFirst())), checksum.count == 3 else {
                throw PGPError.badArmor("unreadable checksum line")
            }
            guard [UInt8](checksum) == crc.bytes else { throw PGPError.badArmor("CRC-24 checksum mismatch") }
        } else if line.starts(with: Array("-----".utf8)) {
            throw PGPError.badArmor("no matching END line")
        } else if !line.isEmpty {
            pendingBase64 += line
            try decode(final: false)
        }
    }

    private func decode(final: Bool) throws {
        // Whole lines are collected and decoded 16 KiB at a time, not line by line.
        guard final || pendingBase64.count >= 1 << 14 else { return }
        let usable = final ? pendingBase64.count : pendingBase64.count / 4 * 4
        guard usable > 0 else { return }
        guard let data = Data(base64Encoded: Data(pendingBase64[0..<usable])) else { throw PGPError.badArmor("invalid base64") }
        pendingBase64.removeFirst(usable)
        let bytes = [UInt8](data)
        crc.update(bytes)
        decoded += bytes
    }

    /// The next line without its ending and surrounding spaces/tabs; nil at the end of input.
    private func nextLine() throws -> [UInt8]? {
        guard let line = try source.line(maxLength: Self.maxLine) else { return nil }
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = line.firstIndex(where: { !isSpace($0) }), let last = line.lastIndex(where: { !isSpace($0) }) else { return [] }
        return Array(line[first...last])
    }
}

/// Writes ASCII armor around a stream: 64-character lines and a CRC-24 line, as `Armor.encode` does.
final class ArmorSink: PGPSink {
    private let output: PGPOutput
    private let kind: Armor.Kind
    private var pending: [UInt8] = []
    private var crc = CRC24Stream()

    init(_ output: PGPOutput, kind: Armor.Kind) throws {
        self.output = output
        self.kind = kind
        try output.write(Array("-----BEGIN PGP \(kind.rawValue)-----\n\n".utf8))
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        crc.update(bytes)
        pending.append(contentsOf: bytes)
        // 48 bytes make one 64-character line.
        let usable = pending.count / 48 * 48
        guard usable >= PGPStream.chunkSize / 2 else { return }
        try output.write(lines(Array(pending[0..<usable])))
        pending.removeFirst(usable)
    }

    func finish() throws {
        var tail = lines(pending)
        pending = []
        tail += Array("=\(Data(crc.bytes).base64EncodedString())\n-----END PGP \(kind.rawValue)-----\n".utf8)
        try output.write(tail)
    }

    private func lines(_ bytes: [UInt8]) -> [UInt8] {
        let base64 = Array(Data(bytes).base64EncodedString().utf8)
        var out: [UInt8] = []
        out.reserveCapacity(base64.count + base64.count / 64 + 1)
        var index = 0
        while index < base64.count {
            let end = min(base64.count, index + 64)
            out += base64[index..<end]
            out.append(0x0A)
            index = end
        }
        return out
    }
}
