import Foundation
import ParleyMailFormats
import ParleyPGP

extension FuzzTarget {
    static let mailTargets: [FuzzTarget] = [
        FuzzTarget("mail-autocrypt", "Autocrypt headers, a message's sender receipt, address lists and WKD locations: a parsed header writes back to itself; a receipt's address is an address and its date is never in the future; WKD hashes are 32 z-base-32 characters", run: mailAutocrypt),
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

private let fixedNow = Date(timeIntervalSince1970: 1_800_000_000)

private func mailAutocrypt(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    if let header = AutocryptHeader(text) {
        require(header.keydata.count <= AutocryptHeader.largestKey, "keydata over the limit was taken")
        require(MailAddresses.isAddress(header.address) && header.address == header.address.lowercased(), "addr is not a lowercase address")
        require(AutocryptHeader(header.value) == header, "a header does not read back as itself")
    }
    for address in MailAddresses.parse(text) {
        require(MailAddresses.isAddress(address) && address == address.lowercased(), "a parsed address is not a lowercase address")
    }
    if let locations = WKDLocation.candidates(for: text) {
        require(locations.count == 2 && locations[0].host == "openpgpkey." + locations[1].host, "WKD hosts are not advanced then direct")
        let hash = locations[1].path.split(separator: "?", maxSplits: 1).first?.split(separator: "/").last ?? ""
        require(hash.count == 32 && hash.allSatisfy { "ybndrfg8ejkmcpqxot1uwisza345h769".contains($0) }, "a WKD hash is not 32 z-base-32 characters")
    }
    guard let headers = try? MailHeaders.of(eml: bytes) else { return }
    if let receipt = AutocryptReceipt.sender(headers, account: "ann@example.org", now: fixedNow) {
        require(MailAddresses.isAddress(receipt.address) && receipt.address != "ann@example.org", "a receipt for a non-address or the account")
        require(receipt.date <= Int64(fixedNow.timeIntervalSince1970), "an effective date in the future")
        require(receipt.header.map { $0.address == receipt.address } ?? true, "a header taken for another address than From")
    }
}
