import ArgumentParser
import ParleySOPCommands
import ParleyTerminal

/// `parley-sop`: `parley sop` as a program of its own, the shape OpenPGP interoperability harnesses expect of a
/// Stateless OpenPGP implementation (as sqop and gosop are): the same nineteen subcommands, options, exit codes and
/// bytes, without Foundation, ICU, the server or the chat linked in, so it runs in a third of the memory.
@main
struct ParleySOPProgram: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parley-sop",
        abstract: "Stateless OpenPGP (SOP) interface to ParleyPGP: `parley sop` as a program of its own.",
        version: ParleyVersion.current,
        subcommands: SOPCommand.subcommands
    )

    /// ArgumentParser's `main`, except that SOP's failures and command-line mistakes exit with the codes the SOP
    /// draft gives them, and what is printed of an error has its controls made visible.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            SOPUsage.exitIfSOP(error, sopRoot: ParleySOPProgram.self, name: "parley-sop")
            exitShowing(error)
        }
    }
}
