import ArgumentParser
import Foundation
import ParleyClient
import ParleyTerminal

extension Parley.Account {
    /// `parley account login`: back into an account after losing every device, with the e-mailed code and the
    /// account password.
    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "login",
            abstract: "Sign in on this device with an e-mailed code and your password (when no other device is left).",
            discussion: """
                Without --code this asks the server to e-mail a code; at a terminal it then asks for the code, \
                otherwise run the command again with --code CODE. The password (prompt, --password-stdin or \
                PARLEY_PASSWORD) opens the key backup made at registration; this machine becomes a new device of \
                the account with the same identity, so contacts see no key change. Messages sent before are not \
                recovered this way: only pairing with a device that still has them brings history \
                ('parley account pair'). Revoke the lost device afterwards with 'parley devices remove ID'.
                """)

        @OptionGroup var options: ClientOptions
        @Option(help: "The account's e-mail address.") var email: String
        @OptionGroup var server: ServerOptions
        @Option(help: "The 8-digit code from the e-mail (omit it to have one sent).") var code: String?
        @Option(help: "A name for this device (default: the host name).") var name: String?
        @Flag(help: "Protect this device's vault with a PIN (asked for, or PARLEY_PIN).") var pin = false
        @Flag(help: "Read the password from standard input.") var passwordStdin = false

        func run() async throws {
            let address = try server.address()
            let email = self.email.trimmingCharacters(in: .whitespaces).lowercased()
            do { try AccountSetup.checkNotSignedIn(email, home: options.homeURL) } catch { throw CommandFailure("\(error)") }
            var code = self.code
            if code == nil {
                do { try await AccountRecovery.sendCode(email: email, server: address) } catch { throw CommandFailure("\(error)") }
                guard isatty(STDIN_FILENO) == 1, !passwordStdin else {
                    options.output(["status": "code_sent", "email": email]) {
                        "If \(email) has an account with a key backup on \(address), a code is on its way. Then run:\n"
                            + "    parley account login\(options.home.map { " --home \($0)" } ?? "") --email \(email) --server \(server.server) --code CODE"
                    }
                    return
                }
                FileHandle.standardError.write(Data("A code was e-mailed to \(email) (if it has an account there). Code: ".utf8))
                code = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces)
                guard let typed = code, !typed.isEmpty else { throw CommandFailure("no code given; run again with --code CODE") }
            }
            let password = try SecretInput.password(prompt: "Account password: ", fromStandardInput: passwordStdin)
            let vaultPIN = pin ? try SecretInput.pin(prompt: "New vault PIN: ") : nil
            let signedIn: AccountSetup.SignedIn
            do {
                signedIn = try await AccountSetup.signIn(
                    home: options.homeURL, email: email, server: address, code: code ?? "", password: password, pin: vaultPIN,
                    deviceName: name ?? ProcessInfo.processInfo.hostName)
            } catch {
                throw CommandFailure("\(error)")
            }
            await signedIn.client.disconnect()
            let (device, others) = (signedIn.deviceID, signedIn.otherDevices)
            options.output(["email": email, "device_id": "\(device)"]) {
                var text = "Signed in: \(email) on this device (device \(device)). Earlier messages stay on the devices that had them."
                if !others.isEmpty {
                    text += "\nOther devices still on the account: \(others.map(String.init).joined(separator: ", ")); "
                        + "remove a lost one with 'parley devices remove ID'."
                }
                return text
            }
        }
    }
}
