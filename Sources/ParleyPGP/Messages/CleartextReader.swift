/// Reads a cleartext-signed message (RFC 4880 §7) as a stream: the text goes to an output with its
/// dash-escaping undone and every line ended by LF, as Sequoia and GnuPG print it; its canonical form
/// goes to a hash (`CanonicalText`); the signature block at the end is decoded.
///
/// Memory is bounded whatever the text: lines pass through in pieces, and only the first
/// `recognisedLength` bytes of a line are held, long enough to recognise the armor lines.
struct CleartextReader {
    /// Bytes of a line held to tell an armor line or a blank line from text; longer lines are text.
    static let recognisedLength = 128
    /// The largest signature block read: many signatures fit in far less.
    static let maxSignatureBlock = 1 << 20

    private enum Phase { case preamble, headers, text, signature }

    /// What is known of the current line.
    private enum Line {
        /// Its first bytes are held in `head` until it ends or outgrows it.
        case recognising
        /// It is text and streams (it outgrew `head`, or starts with neither a dash nor a blank).
        case streaming
        /// Outside the text, it outgrew `head`: no armor line, skipped.
        case skipped
    }

    private let text: CoalescingOutput
    private let canonicalOut: (ArraySlice<UInt8>) -> Void
    private var phase = Phase.preamble
    private var canonical = CanonicalText()
    /// The current line's first bytes, while it is being recognised.
    private var head: [UInt8] = []
    private var line = Line.recognising
    private var signatureBlock: [UInt8] = []
    /// Whether bytes of a line came after the last line ending.
    private var lineOpen = false

    /// Reads the message in `input`, writing its text to `output` and passing its canonical form to
    /// `canonical`; returns the signatures. The text reaches `output` before they are checked.
    static func read(from input: PGPInput, to output: PGPOutput, canonical: @escaping (ArraySlice<UInt8>) -> Void) throws -> [Signature] {
        var reader = CleartextReader(text: CoalescingOutput(output), canonicalOut: canonical)
        var scanner = TextLineScanner()
        var utf8 = UTF8StreamCheck()
        try input.forEachChunk { chunk in
            guard utf8.accepts(chunk) else { throw PGPError.malformed("cleartext-signed message is not UTF-8 text") }
            try scanner.feed(chunk[...]) { try reader.piece($0) } end: { try reader.endLine() }
        }
        guard utf8.endsWell else { throw PGPError.malformed("cleartext-signed message is not UTF-8 text") }
        if reader.lineOpen { try reader.endLine() }
        return try reader.finish()
    }

    private init(text: CoalescingOutput, canonicalOut: @escaping (ArraySlice<UInt8>) -> Void) {
        self.text = text
        self.canonicalOut = canonicalOut
    }

    private mutating func piece(_ bytes: ArraySlice<UInt8>) throws {
        lineOpen = true
        switch (phase, line) {
        case (.signature, _):
            signatureBlock += bytes
            guard signatureBlock.count <= Self.maxSignatureBlock else { throw PGPError.malformed("signature block larger than 1 MiB") }
        case (_, .skipped):
            return
        case (.text, .streaming):
            try addText(bytes)
        case (.text, .recognising) where head.isEmpty && !(bytes.first == 0x2D || bytes.first == 0x20 || bytes.first == 0x09):
            // Neither an armor line nor a dash-escaped one can start this way: it streams as text at once.
            line = .streaming
            try addText(bytes)
        default:
            head += bytes
            guard head.count > Self.recognisedLength else { return }
            if phase == .text {
                line = .streaming
                try addText(Self.unescaped(head))
            } else {
                line = .skipped
            }
            head.removeAll(keepingCapacity: true)
        }
    }

    private mutating func endLine() throws {
        defer {
            head.removeAll(keepingCapacity: true)
            line = .recognising
            lineOpen = false
        }
        let recognised = line == .recognising
        switch phase {
        case .preamble:
            if recognised, Self.trimmed(head).elementsEqual("-----BEGIN PGP SIGNED MESSAGE-----".utf8) { phase = .headers }
        case .headers:
            // "Hash:" headers end at a blank line; the hash is taken from each signature itself.
            if recognised, Self.trimmed(head).isEmpty { phase = .text }
        case .text:
            if recognised, Self.trimmed(head).elementsEqual("-----BEGIN PGP SIGNATURE-----".utf8) {
                phase = .signature
                signatureBlock = head + [0x0A]
                return
            }
            if recognised { try addText(Self.unescaped(head)) }
            canonical.endLine()
            try text.write([0x0A])
        case .signature:
            signatureBlock.append(0x0A)
        }
    }

    private mutating func addText(_ bytes: ArraySlice<UInt8>) throws {
        canonical.add(bytes, emit: canonicalOut)
        try text.write(bytes)
    }

    private mutating func finish() throws -> [Signature] {
        switch phase {
        case .preamble: throw PGPError.badArmor("no BEGIN PGP SIGNED MESSAGE line")
        case .headers, .text: throw PGPError.badArmor("no BEGIN PGP SIGNATURE line after the signed text")
        case .signature: break
        }
        try text.flush()
        canonical.flush(emit: canonicalOut)
        let decoded = try Armor.decode(String(decoding: signatureBlock, as: UTF8.self))
        guard decoded.kind == .signature else { throw PGPError.badArmor("cleartext message without a signature block") }
        let signatures = try PacketParser.parse(decoded.data).filter { $0.tag == .signature }.map { try Signature(packetBody: $0.body) }
        guard !signatures.isEmpty else { throw PGPError.malformed("no signature packets") }
        return signatures
    }

    /// A text line without its dash-escape ("- ").
    private static func unescaped(_ line: [UInt8]) -> ArraySlice<UInt8> {
        line.starts(with: [0x2D, 0x20]) ? line.dropFirst(2) : line[...]
    }

    /// A line without the spaces and tabs around it.
    private static func trimmed(_ line: [UInt8]) -> ArraySlice<UInt8> {
        let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = line.firstIndex(where: { !isBlank($0) }), let last = line.lastIndex(where: { !isBlank($0) }) else { return [] }
        return line[first...last]
    }
}
