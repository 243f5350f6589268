import ArgumentParser
import Foundation
import ParleyClient
import ParleyTerminal

extension Parley {
    /// `parley account …`: create, confirm and look after an account.
    struct Account: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "account",
            abstract: "Register, confirm and manage your account.",
            subcommands: [Register.self, Confirm.self, Pair.self, Authorize.self, Status.self, ChangePassword.self, SetPIN.self, SetProtection.self, RotateKeys.self,
                          Login.self, Logout.self, Delete.self, Lock.self, Unlock.self, Servers.self])
    }
}

extension Parley.Account {
    /// `parley account register`.
    struct Register: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "register",
            abstract: "Create an account on a server; a code is e-mailed to confirm it.",
            discussion: "The password protects a backup of your keys; PARLEY_PIN (or --pin) locks this device's vault.")

        @OptionGroup var options: ClientOptions
        @Option(help: "Your e-mail address.") var email: String
        @Option(help: "The name others see.") var name: String
        @OptionGroup var server: ServerOptions
        @Flag(help: "Protect this device's vault with a PIN (asked for, or PARLEY_PIN).") var pin = false
        @Flag(help: "Read the password from standard input.") var passwordStdin = false
        @Option(help: "The invite code the server's operator gave you (a server that takes accounts by invitation asks for it).")
        var invite: String?

        func run() async throws {
            let address = try server.address()
            let password = try SecretInput.password(prompt: "Account password: ", fromStandardInput: passwordStdin)
            let vaultPIN = pin ? try SecretInput.pin(prompt: "New vault PIN: ") : nil
            do {
                // An unconfirmed account from an earlier run (its code lost or expired) is replaced, not a dead end.
                if try await AccountHome.discardUnconfirmed(home: options.homeURL, email: email) {
                    Console.err("Replacing the unconfirmed registration of \(email.lowercased()) in this home; its old code no longer works.")
                }
                // A failed registration leaves nothing behind, so the same command can simply be run again
                // (with the server or trust settings corrected): the home is never wedged by a half account.
                _ = try await AccountSetup.register(
                    home: options.homeURL, email: email, displayName: name, server: address, pin: vaultPIN,
                    deviceName: ProcessInfo.processInfo.hostName, password: password, invite: invite)
            } catch {
                throw CommandFailure("\(error)")
            }
            options.output(["status": "verification_sent", "email": email.lowercased()]) {
                "Registered \(email.lowercased()) on \(address). Check your e-mail, then run: parley account confirm CODE"
            }
        }
    }

    /// `parley account confirm CODE`.
    struct Confirm: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "confirm", abstract: "Confirm registration with the e-mailed code.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The 8-digit code.") var code: String

        func run() async throws {
            let client = try options.open()
            do { try await client.registration.confirm(code: code) } catch { throw CommandFailure("\(error)") }
            let account = await client.accountID ?? 0
            options.output(["account_id": account]) { "Confirmed: \(client.email) is account \(account). You can send messages now." }
        }
    }

    /// `parley account status`.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the account, its server and whether it is reachable.")
        @OptionGroup var options: ClientOptions

        func run() async throws {
            let client = try options.open()
            let server = await client.server
            let account = await client.accountID, device = await client.deviceID
            var reachable = false
            if account != nil {
                reachable = (try? await client.connect(reconnect: false)) != nil
                await client.disconnect()
            }
            let fingerprint = IdentityFingerprint.short(await client.identityKey)
            let status = StatusOutput(email: client.email, accountID: account, deviceID: device, server: server.description,
                                      connected: reachable, confirmed: account != nil, identityFingerprint: fingerprint)
            options.output(status) {
                """
                account:   \(client.email)\(account.map { " (id \($0), device \(device ?? 0))" } ?? " — not confirmed yet")
                server:    \(server) — \(account == nil ? "not asked until the account is confirmed ('parley account confirm CODE')" : reachable ? "reachable, logged in" : "not reachable")
                identity:  \(fingerprint)
                """
            }
        }
    }

    struct StatusOutput: Encodable {
        let email: String
        let accountID: Int64?
        let deviceID: UInt32?
        let server: String
        let connected: Bool
        let confirmed: Bool
        let identityFingerprint: String
    }

    /// `parley account change-password`.
    struct ChangePassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "change-password", abstract: "Re-wrap the key backup under a new password (the current one first).",
            discussion: "The current password: PARLEY_PASSWORD or a prompt; the new one: PARLEY_NEW_PASSWORD or a prompt. With --password-stdin, standard input's first line is the current password and its second the new one.")
        @OptionGroup var options: ClientOptions
        @Flag(help: "Read the current password, then the new one, from standard input (a line each).") var passwordStdin = false

        func run() async throws {
            let current = try SecretInput.password(prompt: "Current account password: ", fromStandardInput: passwordStdin)
            let new = try SecretInput.password(prompt: "New account password: ", fromStandardInput: passwordStdin, variable: "PARLEY_NEW_PASSWORD")
            try await options.withClient { client in try await client.registration.changePassword(from: current, to: new) }
            options.output(["changed": true]) { "Password changed." }
        }
    }

    /// `parley account set-pin`.
    struct SetPIN: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-pin", abstract: "Set, change or remove the vault PIN (PARLEY_PIN is the current one, PARLEY_NEW_PIN the new).")
        @OptionGroup var options: ClientOptions
        @Flag(help: "Remove the PIN (the MainKey is then kept in a file only you can read).") var remove = false

        func run() async throws {
            let current = try options.vaultAccess()
            let client = try options.open(access: current)
            let new: String? = remove ? nil : try VaultAccess.newPIN(prompt: "New PIN: ")
            do {
                try await client.vault.changeProtection(current: current, to: new.map { .pin($0) } ?? .none)
            } catch {
                throw CommandFailure("\(error)")
            }
            options.output(["pin": new != nil]) { new == nil ? "The vault PIN was removed." : "The vault PIN was changed." }
        }
    }
}

extension Parley.Account {
    /// `parley account rotate-keys`.
    struct RotateKeys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-keys",
            abstract: "Replace your identity and login keys; contacts are told to verify you again, other devices are signed out.",
            discussion: "Asks you to type the account's e-mail to confirm, unless --yes.")
        @OptionGroup var options: ClientOptions
        @Flag(help: "Read the account password (for the new key backup) from standard input.") var passwordStdin = false
        @Flag(help: "Do not ask for confirmation (for scripts).") var yes = false

        func run() async throws {
            // Asked before anything else: without a terminal (or --yes) nothing is read or changed.
            let email = try options.accountEmail()
            try Confirmation.byTypingEmail(
                email, yes: yes,
                what: "New identity and login keys for \(email): your other devices are signed out, and every contact sees a new safety number to compare with you.",
                refusal: "rotate-keys replaces your keys for good: run it at a terminal to confirm, or add --yes")
            let password = try SecretInput.password(prompt: "Account password: ", fromStandardInput: passwordStdin)
            let fingerprint = try await options.withClient { client in
                try await client.rotateKeys(password: password)
                return IdentityFingerprint.short(await client.identityKey)
            }
            options.output(["identity_fingerprint": fingerprint]) {
                """
                New identity key: \(fingerprint) (as 'parley account status' shows it).
                Your contacts now see a new safety number with you: compare it with each of them ('parley verify THEIR-EMAIL').
                """
            }
        }
    }
}
