/// The file format without the file: for format checkers and fuzzers, which have bytes and no directory.
extension MainKeyFile {
    /// Parses MainKey file `bytes` (no I/O, no unlocking) and returns the protection they record and
    /// the bytes encoded again, which for any file that parses are the same bytes (the format is canonical).
    public static func decode(_ bytes: [UInt8]) throws(VaultError) -> (protection: VaultProtection, encoded: [UInt8]) {
        let contents = try MainKeyFileContents.decode(bytes)
        return (contents.protection, contents.encoded())
    }
}
