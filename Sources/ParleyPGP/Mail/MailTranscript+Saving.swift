#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension MailTranscript {
    /// An attachment would replace a file: nothing is overwritten.
    public struct AttachmentExists: Error, Sendable, Equatable, CustomStringConvertible {
        /// The file that is there already.
        public let path: String

        /// The refusal for `path`.
        public init(path: String) { self.path = path }

        /// What to do, in the user's words.
        public var description: String { "\(path) exists already; pick another --out directory" }
    }

    /// The lines of `mail`, each attachment saved into `directory` (made when missing) under its `safeName`.
    /// Stops at an attachment whose file exists already (`AttachmentExists`); attachments saved before it stay.
    public static func lines(_ mail: Mail, savingInto directory: URL) throws -> (lines: [String], saved: Int) {
        try lines(mail) { attachment in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let target = directory.appendingPathComponent(attachment.safeName)
            guard !FileManager.default.fileExists(atPath: target.path) else { throw AttachmentExists(path: target.path) }
            try Data(attachment.data).write(to: target, options: .atomic)
            return target.path
        }
    }
}
