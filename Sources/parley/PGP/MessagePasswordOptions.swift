import ArgumentParser

/// Where `parley pgp read-mail`, `parley mail read` and `parley mail save` take the password of mail encrypted to a
/// password rather than to a key (gpg --symmetric, FlowCrypt's password messages).
struct MessagePasswordOptions: ParsableArguments {
    @Flag(help: "For parts encrypted to a password: ask for it (or take PARLEY_PGP_PASSWORD).") var password = false
    @Option(help: "A file whose first line is the password (implies --password).") var passwordFile: String?

    /// Whether a password was asked for.
    var given: Bool { password || passwordFile != nil }

    /// The password, when asked for: from the file, PARLEY_PGP_PASSWORD or a hidden prompt; none otherwise.
    func passwords() throws -> [[UInt8]] {
        guard given else { return [] }
        return [try PGPSecrets.read(file: passwordFile, environment: "PARLEY_PGP_PASSWORD", prompt: "Password for the message: ",
                                    advice: "pass --password-file FILE, set PARLEY_PGP_PASSWORD, or run in a terminal")]
    }
}
