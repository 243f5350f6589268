import ParleyChatUI
import ParleyTerminal
import ParleyFiles
import ParleyLocationFeeds
import ParleyMail
import ParleyPGP
import ParleyServer
import ParleyServerSettings

extension CommandFailure {
    /// `error` as the command line shows it: a library's failure written for the user (a gpsd or tracker
    /// exchange, a key store, a configuration file, an input or output path) becomes a `CommandFailure`, so its
    /// controls are made visible as the command's own would be.
    static func shown(_ error: any Error) -> any Error {
        switch error {
        case let failure as LocationFeedError: CommandFailure(failure.description)
        case let failure as PGPKeyStoreError: CommandFailure(failure.description)
        case let failure as ServerConfigError: CommandFailure(failure.description)
        case let failure as FilePathError: CommandFailure(failure.description)
        case let failure as PGPFiles.Failure: CommandFailure(failure.description)
        case let failure as ServerLaunch.Failure: CommandFailure(failure.description)
        case let failure as MailFlowError: CommandFailure(failure.description)
        case let failure as AdministrationError: CommandFailure(failure.description)
        case let failure as MailTranscript.AttachmentExists: CommandFailure(failure.description)
        default: error
        }
    }
}
