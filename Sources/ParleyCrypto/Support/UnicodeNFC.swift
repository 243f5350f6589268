/// Unicode Normalization Form C, from the Swift standard library's own tables: the form passwords and passphrases
/// are turned into before a key is derived from them, so that "é" typed as one code point or as "e" and a combining
/// accent opens the same file. It replaced Foundation's `precomposedStringWithCanonicalMapping`, which needs all of
/// Foundation and ICU loaded, so that ParleyCrypto and ParleyFiles stand on FoundationEssentials alone.
/// `UnicodeNFCTests` holds it to Unicode's NormalizationTest.txt and compares it with Foundation's: they agree except
/// where Foundation is wrong (a Hangul LV syllable and a trailing jamo after a lone leading jamo, which Unicode
/// composes and Foundation leaves apart: a passphrase typed so before this change would no longer open its file —
/// no keyboard types that sequence).
extension String {
    /// This string in Normalization Form C.
    public var nfc: String {
        String(decoding: _nfcCodeUnits, as: UTF8.self)
    }

    /// This string's NFC form as UTF-8 bytes, as key derivation takes it.
    public var nfcBytes: [UInt8] {
        _nfcCodeUnits
    }
}
