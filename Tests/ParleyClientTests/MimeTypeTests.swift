import ParleyClient
import Testing

@Suite("MIME type detection")
struct MimeTypeTests {
    @Test func magicBytesWinOverTheExtension() {
        #expect(MimeType.detect(prefix: [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], fileName: "holiday.txt") == "image/jpeg")
        #expect(MimeType.detect(prefix: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0], fileName: "x.jpg") == "image/png")
        #expect(MimeType.detect(prefix: Array("%PDF-1.7\n".utf8), fileName: "report") == "application/pdf")
        #expect(MimeType.detect(prefix: Array("GIF89a....".utf8), fileName: "a.png") == "image/gif")
        #expect(MimeType.detect(prefix: Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), fileName: "a") == "image/webp")
        #expect(MimeType.detect(prefix: [0, 0, 0, 0x18] + Array("ftypheic".utf8), fileName: "IMG_1.HEIC") == "image/heic")
        #expect(MimeType.detect(prefix: [0x1F, 0x8B, 8, 0], fileName: "backup.zip") == "application/gzip")
        var tar = [UInt8](repeating: 0, count: 512)
        tar.replaceSubrange(257..<262, with: Array("ustar".utf8))
        #expect(MimeType.detect(prefix: tar, fileName: "a.bin") == "application/x-tar")
    }

    @Test func theExtensionRefinesContainersAndNamesText() {
        let zip: [UInt8] = [0x50, 0x4B, 0x03, 0x04, 20, 0]
        #expect(MimeType.detect(prefix: zip, fileName: "Budget.XLSX") == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
        #expect(MimeType.detect(prefix: zip, fileName: "photos.zip") == "application/zip")
        #expect(MimeType.detect(prefix: Array("{\"a\": 1}".utf8), fileName: "data.json") == "application/json")
        #expect(MimeType.detect(prefix: Array("# Title\n".utf8), fileName: "README.md") == "text/markdown")
        #expect(MimeType.detect(prefix: Array("just words, é and ü\n".utf8), fileName: "notes") == "text/plain")
    }

    @Test func unknownBinaryIsOctetStream() {
        #expect(MimeType.detect(prefix: [0, 1, 2, 3, 0xFE], fileName: "blob") == "application/octet-stream")
        #expect(MimeType.detect(prefix: [], fileName: "") == "application/octet-stream")
        #expect(MimeType.detect(prefix: [], fileName: ".hidden") == "application/octet-stream")
        // A UTF-8 character cut by the end of the prefix is still text.
        #expect(MimeType.detect(prefix: Array(Array("abc é".utf8).dropLast()), fileName: "x") == "text/plain")
    }
}
