/// How OpenPGP fingerprints and key ids are shown: uppercase hex, as gpg and sqop show them.
enum Fingerprint {
    static func text(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02X", $0) }.joined() }
}
