#if canImport(Glibc)
import Glibc
#endif

/// One fuzz target: a decoder and the properties its results must have.
struct FuzzTarget: Sendable {
    /// The name `PARLEY_FUZZ_TARGET` and `Fuzz/Corpus/<name>/` use.
    let name: String
    /// What the target decodes and asserts, one line (`PARLEY_FUZZ_TARGET=list` prints it).
    let summary: String
    /// Work done once before the first input (keys, channels), so inputs run fast.
    let prepare: @Sendable () -> Void
    /// Runs one input; a broken property calls `violated`, which aborts and makes libFuzzer keep the input.
    let run: @Sendable ([UInt8]) -> Void

    init(_ name: String, _ summary: String, prepare: @escaping @Sendable () -> Void = {}, run: @escaping @Sendable ([UInt8]) -> Void) {
        self.name = name
        self.summary = summary
        self.prepare = prepare
        self.run = run
    }

    /// Every target, in the order `scripts/fuzz --all` runs them.
    static let all: [FuzzTarget] =
        wireTargets + wireAPITargets + protocolTargets + protocolDecryptTargets + sessionDecryptTargets + cryptoTargets + vaultTargets + filesTargets + pgpTargets
        + pgpSecretKeyTargets + pgpStreamTargets
        + locationTargets + clusterTargets + clientTargets + qrTargets + imageTargets + mailTargets + peerDialectTargets
}

/// Stops the run: libFuzzer reports a deadly signal and writes the input to `crash-…`.
func violated(_ property: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    printError("ParleyFuzz: property violated at \(file):\(line): \(property)")
    abort()
}

/// Checks a property of one input.
func require(_ condition: Bool, _ property: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    if !condition { violated(property(), file: file, line: line) }
}

extension Array where Element == UInt8 {
    /// The bytes as text when they are valid UTF-8 (most text decoders take a String).
    var utf8Text: String? { String(validating: self, as: UTF8.self) }

    /// Splits the input at its first byte's value: a selector byte and the rest, for targets with several decoders.
    var selectorAndRest: (UInt8, [UInt8])? {
        guard let first else { return nil }
        return (first, Array(dropFirst()))
    }
}

/// Writes a line to standard error (libFuzzer's log), unbuffered so it survives the abort that follows.
func printError(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
