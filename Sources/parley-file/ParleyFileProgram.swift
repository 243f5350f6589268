import ArgumentParser
import ParleyFileCommands
import ParleyTerminal

/// `parley-file`: `parley file`'s commands as a program of their own, for machines and scripts that only encrypt
/// files. The same commands, options and file formats; a smaller start (no Foundation, ICU, server or chat linked
/// in), so it runs in about a third of the memory.
@main
struct ParleyFileProgram: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parley-file",
        abstract: "Encrypt and decrypt files (Parley v1, FileLock, Apple ECIES): `parley file` as a program of its own.",
        discussion: FileCommand.discussion,
        version: ParleyVersion.current,
        subcommands: FileCommand.subcommands
    )

    /// ArgumentParser's `main`, except that what it prints of an error (which may quote a file name or a value
    /// someone else chose) has its controls made visible, as `parley` does.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exitShowing(error)
        }
    }
}
