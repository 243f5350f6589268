import Crypto
import ParleyVault

extension FuzzTarget {
    static let vaultTargets: [FuzzTarget] = [
        FuzzTarget("mainkey-file", "MainKey files decode or fail cleanly and re-encode to the same bytes (inputs are also tried with a valid checksum appended, so the fuzzer reaches the body); no sealed value opens under the fixture MainKey", run: mainKeyFile),
    ]
}

private let fixtureMainKey = try! MainKey(bytes: [UInt8](repeating: 0x55, count: MainKey.byteCount))

private func mainKeyFile(_ bytes: [UInt8]) {
    requireCanonical(bytes, "MainKeyFile", decode: { try MainKeyFile.decode($0) }, encode: \.encoded)
    // A SHA-256 checksum is beyond the fuzzer: append the right one so the mode and body checks get exercised.
    let checked = bytes + SHA256.hash(data: bytes)
    requireCanonical(checked, "MainKeyFile (checksummed)", decode: { try MainKeyFile.decode($0) }, encode: \.encoded)
    require((try? fixtureMainKey.open(bytes, binding: "fuzz")) == nil, "a sealed value opened under a key the fuzzer does not know")
}
