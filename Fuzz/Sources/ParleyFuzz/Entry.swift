import CLibFuzzer
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's entry points. One executable holds every target; `PARLEY_FUZZ_TARGET` names the one to run
/// (building one executable per decoder would link the whole product twenty times).
nonisolated(unsafe) private var selected: FuzzTarget?

@_cdecl("LLVMFuzzerInitialize")
public func parleyFuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    let name = getenv("PARLEY_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    if name == "list" {
        for target in FuzzTarget.all { print("\(target.name)\t\(target.summary)") }
        exit(0)
    }
    guard let target = FuzzTarget.all.first(where: { $0.name == name }) else {
        let names = FuzzTarget.all.map(\.name).joined(separator: " ")
        printError("ParleyFuzz: set PARLEY_FUZZ_TARGET to one of: \(names) (or 'list')")
        exit(2)
    }
    target.prepare()
    selected = target
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func parleyFuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    selected?.run(bytes)
    return 0
}

/// The executable's entry point (SwiftPM links it as `main`): hands over to libFuzzer's driver.
@_cdecl("ParleyFuzz_main")
public func parleyFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { start, count in parleyFuzzTestOneInput(start, count) }
}
