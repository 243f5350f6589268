import Foundation
import ParleyChatUI
import ParleyClient
// ParleyClient's file attachment, not Testing's `Attachment`.
import struct ParleyClient.Attachment
import Testing

/// How the command line names people and labels files (ParleyChatUI's `CommandText`): the same name in every
/// command, and a sender's file name that cannot drive the terminal.
@Suite struct CommandTextTests {
    static func contacts(_ json: String) throws -> [Contact] { try JSONDecoder().decode([Contact].self, from: Data(json.utf8)) }

    static func attachment(name: String, mime: String, size: Int64, width: Int? = nil, height: Int? = nil) throws -> Attachment {
        let zeros = Data(count: 32).base64EncodedString()
        var fields = "\"id\":5,\"key\":\"\(zeros)\",\"sha256\":\"\(zeros)\",\"size\":\(size),\"name\":\(try String(decoding: JSONEncoder().encode(name), as: UTF8.self)),\"mime\":\"\(mime)\""
        if let width, let height { fields += ",\"width\":\(width),\"height\":\(height)" }
        return try JSONDecoder().decode(Attachment.self, from: Data("{\(fields)}".utf8))
    }

    @Test func aPersonIsNamedTheSameWayEverywhere() throws {
        let contacts = try Self.contacts("""
            [{"accountID":1,"email":"ann@example.org","displayName":"Ann"},
             {"accountID":2,"email":"ann2@example.org","displayName":"Ann"},
             {"accountID":3,"email":"bob@example.org"},
             {"accountID":4,"displayName":"Cy"},
             {"accountID":5},
             {"accountID":6,"email":"dee@example.org","displayName":""},
             {"accountID":7,"displayName":"Bob"},
             {"accountID":8,"displayName":"Bob"},
             {"accountID":9,"email":"bob9@example.org","displayName":"Bob"}]
            """)
        #expect(PersonName.label(1, contacts: contacts) == "Ann (ann@example.org)")
        #expect(PersonName.label(3, contacts: contacts) == "bob@example.org")
        #expect(PersonName.label(4, contacts: contacts) == "Cy")
        #expect(PersonName.label(5, contacts: contacts) == "someone (account 5)")
        #expect(PersonName.label(6, contacts: contacts) == "dee@example.org")
        #expect(PersonName.label(99, contacts: contacts) == "someone (account 99)")
        // Two group members named Bob whose e-mails this device does not know: told apart by account (a probe had
        // a newcomer "Bob" pass for the Bob one knows).
        #expect(PersonName.label(7, contacts: contacts) == "Bob (account 7)")
        #expect(PersonName.label(8, contacts: contacts) == "Bob (account 8)")
        #expect(PersonName.label(9, contacts: contacts) == "Bob (bob9@example.org)")
        #expect(PersonName.label(1, contacts: []) == "someone (account 1)")
    }

    @Test func sizesReadForPeople() {
        #expect(FileLabel.size(1 << 53) == "8.0 PiB", "a probe's claimed size read 8589934592.0 MiB")
        #expect(FileLabel.size(3 << 30) == "3.0 GiB")
        #expect(FileLabel.size(0) == "0 B")
        #expect(FileLabel.size(1023) == "1023 B")
        #expect(FileLabel.size(1536) == "1.5 KiB")
        #expect(FileLabel.size(5 << 20) == "5.0 MiB")
        #expect(FileLabel.size(Int64.max) == "8192.0 PiB")
    }

    @Test func aFileLineKeepsTheSendersNamePrintable() throws {
        let file = try Self.attachment(name: "report.pdf", mime: "application/pdf", size: 2048)
        #expect(FileLabel.line(file, messageID: 9, caption: "") == "[file] report.pdf (2.0 KiB, application/pdf) — parley download 9 -o PATH")
        #expect(FileLabel.line(file, messageID: 9, caption: "see") == "see [file] report.pdf (2.0 KiB, application/pdf) — parley download 9 -o PATH")
        let image = try Self.attachment(name: "cat.jpg", mime: "image/jpeg", size: 10, width: 640, height: 480)
        #expect(FileLabel.line(image, messageID: 1, caption: "") == "[image cat.jpg] (640×480, 10 B, image/jpeg) — parley download 1 -o PATH")
        let hostile = try Self.attachment(name: "a\u{1B}[2Jb\u{9B}c\u{7F}.txt", mime: "text/plain", size: 1)
        let line = FileLabel.line(hostile, messageID: 2, caption: "")
        #expect(line.hasPrefix("[file] a␛[2Jb<U+9B>c␡.txt "), "shown, not dropped: \(line)")
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        // What could make one name pass for another is shown too.
        let disguised = try Self.attachment(name: "invoice\u{202E}fdp.exe\u{200B}\u{00A0}", mime: "text/plain", size: 1)
        #expect(FileLabel.line(disguised, messageID: 3, caption: "").hasPrefix("[file] invoice<U+202E>fdp.exe<U+200B><U+A0> "))
    }
}
