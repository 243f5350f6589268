import Foundation
import ParleyPGP
import Testing

/// Saving a read message's attachments into a directory: hostile names stay inside it, nothing is overwritten.
@Suite struct MailTranscriptSavingTests {
    static func mail(_ names: [String?]) throws -> Mail {
        let headers = try MailHeaders.of(eml: Array("From: a@example.org\r\n\r\n".utf8))
        return Mail(headers: headers, blocks: names.enumerated().map { index, name in
            .attachment(MailAttachment(name: name, mediaType: "application/octet-stream", data: [UInt8(index)]))
        })
    }

    @Test func hostileNamesAreSavedInsideTheDirectory() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-attachments-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("out/deeper", isDirectory: true)
        let names: [String?] = ["../../escape", "/etc/passwd-copy", "..\\..\\windows", "\u{1B}[2Jtitle\u{07}", ".hidden", nil,
                                String(repeating: "n", count: 10_000)]
        let (lines, saved) = try MailTranscript.lines(try Self.mail(names), savingInto: directory)
        #expect(saved == names.count)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(files.count == names.count)
        #expect(files.allSatisfy { !$0.contains("/") && !$0.hasPrefix(".") && $0.utf8.count <= 200 && !$0.unicodeScalars.contains { $0.value < 0x20 } })
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["out"], "something was written outside the directory")
        #expect(lines.filter { $0.contains(" → saved to \(directory.path)/") }.count == names.count)
    }

    @Test func anExistingFileIsNeverReplaced() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-attachments-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: directory.appendingPathComponent("report.pdf"))
        #expect(throws: MailTranscript.AttachmentExists(path: directory.appendingPathComponent("report.pdf").path)) {
            _ = try MailTranscript.lines(try Self.mail(["report.pdf"]), savingInto: directory)
        }
        #expect(try Data(contentsOf: directory.appendingPathComponent("report.pdf")) == Data("mine".utf8))
        #expect(MailTranscript.AttachmentExists(path: "/x/a").description == "/x/a exists already; pick another --out directory")
        // Two attachments of one name: the first is saved, the second refused.
        #expect(throws: MailTranscript.AttachmentExists.self) {
            _ = try MailTranscript.lines(try Self.mail(["twice", "dir/twice"]), savingInto: directory)
        }
        #expect(try Data(contentsOf: directory.appendingPathComponent("twice")) == Data([0]))
    }
}
