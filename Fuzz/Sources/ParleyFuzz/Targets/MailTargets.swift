import ParleyMail

extension FuzzTarget {
    static let mailTargets: [FuzzTarget] = [
        FuzzTarget("mail-imap-response", "libetpan's IMAP response parser and Parley's flattening of FETCH results never trap; a body is never longer than the input; parsing is deterministic", run: mailIMAPResponse),
    ]
}

/// libetpan 1.9.4 allocates a literal's announced size before reading it (`{4000000000}` is a 4 GB malloc, which
/// libFuzzer's malloc limit reports). In a sync that malloc is lazy or fails cleanly, and the bridge's byte budget
/// cuts the bytes that would fill it (HostileIMAPTests); here such inputs are skipped so the run explores the rest.
private func announcesAHugeLiteral(_ bytes: [UInt8]) -> Bool {
    var digits = 0
    var value = 0
    var open = false
    for byte in bytes {
        switch byte {
        case UInt8(ascii: "{"): open = true; digits = 0; value = 0
        case UInt8(ascii: "0")...UInt8(ascii: "9") where open:
            digits += 1
            value = digits > 12 ? Int.max : value * 10 + Int(byte - UInt8(ascii: "0"))
            if value > 1 << 24 { return true }
        default: open = false
        }
    }
    return false
}

private func mailIMAPResponse(_ bytes: [UInt8]) {
    guard !announcesAHugeLiteral(bytes) else { return }
    let first = IMAPResponseProbe.parse(bytes)
    for fetched in first.fetched {
        require((fetched.body?.count ?? 0) <= bytes.count, "a FETCH body is longer than the whole response")
    }
    if first.code != 0 { require(first.fetched.isEmpty, "a refused response still gave FETCH results") }
    let second = IMAPResponseProbe.parse(bytes)
    require(first.code == second.code && first.fetched == second.fetched, "the same bytes parsed two ways")
}
