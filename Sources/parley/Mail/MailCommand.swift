import ArgumentParser

extension Parley {
    /// `parley mail`: an encrypted mail client over IMAP (docs/MAIL.md).
    struct Mail: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mail",
            abstract: "Your mailbox over IMAP, kept encrypted on this machine, read with your OpenPGP keys.",
            discussion: """
                Add an account once, then `sync` fetches new mail (incrementally; a sync cut short resumes), \
                `list` shows what is stored (offline) and `read N` shows one message decrypted and verified. \
                See docs/MAIL.md.
                """,
            subcommands: [MailAccount.self, MailSyncCommand.self, MailList.self, MailRead.self, MailSend.self, MailReply.self, MailSave.self, MailWatchCommand.self, MailKeys.self]
        )
    }
}
