/// Which encrypted-file format some bytes are, judged from their first eight bytes.
public enum FileFormat: String, Sendable {
    /// Parley file format v1 (starts with "PRLYFILE").
    case parleyV1 = "parley-v1"
    /// A FileLock package (starts with the u32 length 113 of its wrapped key).
    case fileLock = "filelock"

    /// How many leading bytes `detect` needs.
    public static let prefixLength = 8

    /// The format of data starting with `prefix`, or nil when it is neither.
    public static func detect(_ prefix: [UInt8]) -> FileFormat? {
        if prefix.starts(with: FileFormatV1.magic) { return .parleyV1 }
        if prefix.starts(with: FileLockPackage.prefix) { return .fileLock }
        // A prefix of the magic could still grow into a truncated v1 header.
        if !prefix.isEmpty, FileFormatV1.magic.starts(with: prefix) { return .parleyV1 }
        return nil
    }
}
