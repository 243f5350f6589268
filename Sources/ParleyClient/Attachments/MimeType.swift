/// Names a file's type for its label: magic bytes first, the file name's extension second.
///
/// Contents decide where they can (a PNG renamed `.txt` is still a PNG); the extension refines a
/// container (a ZIP named `.docx`) or names text formats that have no magic.
public enum MimeType {
    /// The type when nothing is known.
    public static let fallback = "application/octet-stream"

    /// The MIME type of a file whose first bytes (a few KiB are enough) are `prefix`.
    public static func detect(prefix: [UInt8], fileName: String) -> String {
        let fileExtension = fileName.split(separator: ".").count > 1 ? String(fileName.split(separator: ".").last!).lowercased() : ""
        if let magic = byMagic(prefix) {
            if magic == "application/zip", let refined = zipFormats[fileExtension] { return refined }
            return magic
        }
        if let byName = byExtension[fileExtension] { return byName }
        return looksLikeText(prefix) ? "text/plain" : fallback
    }

    /// Signatures at fixed offsets, most specific first.
    private static let signatures: [(offset: Int, bytes: [UInt8], type: String)] = [
        (0, [0xFF, 0xD8, 0xFF], "image/jpeg"),
        (0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "image/png"),
        (0, Array("GIF87a".utf8), "image/gif"),
        (0, Array("GIF89a".utf8), "image/gif"),
        (0, Array("BM".utf8), "image/bmp"),
        (0, [0x49, 0x49, 0x2A, 0x00], "image/tiff"),
        (0, [0x4D, 0x4D, 0x00, 0x2A], "image/tiff"),
        (0, Array("%PDF-".utf8), "application/pdf"),
        (0, [0x50, 0x4B, 0x03, 0x04], "application/zip"),
        (0, [0x50, 0x4B, 0x05, 0x06], "application/zip"),
        (0, [0x1F, 0x8B], "application/gzip"),
        (0, Array("BZh".utf8), "application/x-bzip2"),
        (0, [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "application/x-xz"),
        (0, [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C], "application/x-7z-compressed"),
        (0, [0x28, 0xB5, 0x2F, 0xFD], "application/zstd"),
        (257, Array("ustar".utf8), "application/x-tar"),
        (0, Array("OggS".utf8), "audio/ogg"),
        (0, Array("fLaC".utf8), "audio/flac"),
        (0, Array("ID3".utf8), "audio/mpeg"),
        (0, Array("SQLite format 3\0".utf8), "application/vnd.sqlite3"),
        (0, Array("PRLYFILE".utf8), "application/vnd.parley.file"),
        (0, Array("-----BEGIN PGP MESSAGE-----".utf8), "application/pgp-encrypted"),
        (0, [0x7F, 0x45, 0x4C, 0x46], "application/x-elf"),
    ]

    private static func byMagic(_ bytes: [UInt8]) -> String? {
        for signature in signatures where bytes.count >= signature.offset + signature.bytes.count {
            if Array(bytes[signature.offset..<(signature.offset + signature.bytes.count)]) == signature.bytes { return signature.type }
        }
        // RIFF containers and ISO media name their kind after a size field.
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)) {
            switch String(decoding: bytes[8..<12], as: UTF8.self) {
            case "WEBP": return "image/webp"
            case "WAVE": return "audio/wav"
            case "AVI ": return "video/x-msvideo"
            default: return nil
            }
        }
        if bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            if ["heic", "heix", "mif1", "msf1"].contains(brand) { return "image/heic" }
            if brand == "avif" { return "image/avif" }
            if brand.hasPrefix("M4A") { return "audio/mp4" }
            if brand == "qt  " { return "video/quicktime" }
            return "video/mp4"
        }
        return nil
    }

    private static let zipFormats: [String: String] = [
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt": "application/vnd.oasis.opendocument.text",
        "ods": "application/vnd.oasis.opendocument.spreadsheet",
        "epub": "application/epub+zip",
        "jar": "application/java-archive",
        "apk": "application/vnd.android.package-archive",
    ]

    private static let byExtension: [String: String] = [
        "txt": "text/plain", "md": "text/markdown", "csv": "text/csv", "html": "text/html", "htm": "text/html",
        "css": "text/css", "js": "text/javascript", "json": "application/json", "xml": "application/xml",
        "svg": "image/svg+xml", "swift": "text/x-swift", "py": "text/x-python", "c": "text/x-c", "h": "text/x-c",
        "sh": "application/x-sh", "yaml": "application/yaml", "yml": "application/yaml", "toml": "application/toml",
        "ics": "text/calendar", "vcf": "text/vcard", "eml": "message/rfc822", "asc": "application/pgp-keys",
        "mp3": "audio/mpeg", "mp4": "video/mp4", "mov": "video/quicktime", "webm": "video/webm", "mkv": "video/x-matroska",
    ]

    /// UTF-8 without NUL or other control bytes (tabs and line ends aside); a sequence cut at the end is fine.
    private static func looksLikeText(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return false }
        if bytes.contains(where: { ($0 < 0x20 && ![0x09, 0x0A, 0x0D, 0x0C].contains($0)) || $0 == 0x7F }) { return false }
        // Allow a multi-byte character cut by the end of the prefix.
        for trim in 0...min(3, bytes.count - 1) where String(validating: bytes.dropLast(trim), as: UTF8.self) != nil { return true }
        return false
    }
}
