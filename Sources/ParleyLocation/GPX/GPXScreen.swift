import Foundation

/// What a document must look like before Foundation's XMLParser sees it.
///
/// On Linux, XMLParser traps on input libxml2 accepts (found by fuzzing, docs/TESTING.md): a name or entity that
/// is not UTF-8, a processing instruction without data (`<?x?>`). GPX needs none of that — it is UTF-8, starts
/// at most with an XML declaration and has no DTD — so those shapes are refused here with a clear reason.
enum GPXScreen {
    /// Why `data` is refused, or nil when it may be parsed.
    static func problem(_ data: Data) -> String? {
        guard String(validating: data, as: UTF8.self) != nil else { return "not UTF-8 text" }
        let bytes = [UInt8](data)
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0  // a UTF-8 byte-order mark, as Windows tools write
        var index = bytes.firstIndex(of: UInt8(ascii: "<")) ?? bytes.endIndex
        while index < bytes.endIndex {
            if bytes[index...].starts(with: Array("<?".utf8)) {
                let isDeclaration = index == start && bytes.count > start + 6
                    && bytes[start..<(start + 5)].elementsEqual("<?xml".utf8) && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start + 5])
                guard isDeclaration else { return "processing instructions other than the XML declaration are not read" }
            } else if bytes[index...].starts(with: Array("<!DOCTYPE".utf8)) {
                return "a document type declaration (DTD) is not read"
            }
            index = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.endIndex
        }
        return nil
    }
}
