import ArgumentParser
import Foundation
import ParleyClient
import ParleyQR
import ParleyTerminal

extension Parley.Account {
    /// `parley account pair`: this device joins an account that is signed in elsewhere.
    struct Pair: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pair",
            abstract: "Add this device to your account: shows a code to type on a signed-in device.",
            discussion: """
                Run this on the new device, then on a device already signed in run \
                'parley account authorize CODE'. Your keys travel end-to-end encrypted under the code; \
                your history follows. The code works once and for 15 minutes.
                """)

        @OptionGroup var options: ClientOptions
        @Option(help: "The account's e-mail address.") var email: String
        @OptionGroup var server: ServerOptions
        @Option(help: "A name for this device (default: the host name).") var name: String?
        @Flag(help: "Protect this device's vault with a PIN (asked for, or PARLEY_PIN).") var pin = false
        @Flag(help: "Do not draw the code as a QR code in the terminal.") var noQR = false
        @Option(help: ArgumentHelp("Also write the QR code as a PNG here (for 'authorize --scan').", valueName: "path"))
        var png: String?

        func run() async throws {
            let address = try server.address()
            let vaultPIN = pin ? try SecretInput.pin(prompt: "New vault PIN: ") : nil
            let deviceName = name ?? ProcessInfo.processInfo.hostName
            let json = options.json
            do {
                let pairing = try await DevicePairing.begin(email: email, server: address, deviceName: deviceName)
                let qr = try? QRMatrix.encode(Array(pairing.code.qrText.utf8))
                if let png {
                    guard let bytes = try? qr?.png() else { throw CommandFailure("cannot draw the pairing QR code") }
                    do { try Data(bytes).write(to: URL(fileURLWithPath: (png as NSString).expandingTildeInPath), options: .atomic) } catch {
                        throw CommandFailure("cannot write \(png)")
                    }
                }
                let drawing = noQR || json ? "" : (qr?.terminalText() ?? "") + "\n"
                options.output(["code": pairing.code.text, "email": pairing.email]) {
                    """
                    \(drawing)Pairing code for \(pairing.email): \(pairing.code.text)

                    On a device where you are signed in, run:
                        parley account authorize \(pairing.code.text)
                    Waiting (the code expires in 15 minutes) …
                    """
                }
                let paired = try await PairingFlow.complete(pairing, home: options.homeURL, pin: vaultPIN) { step in
                    guard !json else { return }
                    switch step {
                    case .authorized(let displayName): ClientOptions.say("Authorized: this device now holds \(displayName)'s keys.")
                    case .added(let id): ClientOptions.say("Added as device \(id). Receiving history …")
                    case .history: break
                    }
                }
                let (email, device) = (paired.client.email, paired.deviceID)
                options.output(["status": "paired", "email": email, "device_id": String(device)]) {
                    "Paired: \(email) on this device (device \(device)), \(paired.conversations) conversation(s) with their history. See them with 'parley conversations' and 'parley read --conversation ID'."
                }
            } catch {
                throw CommandFailure("\(error)")
            }
        }
    }

    /// `parley account authorize CODE`: let a new device into this account.
    struct Authorize: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "authorize",
            abstract: "Authorize a new device showing a pairing code; it receives your keys and history.",
            discussion: "Only type a code shown by a device you hold: whoever has the code gets your account.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The code the new device shows (e.g. 4V2K-J8QZ-…).") var code: String?
        @Option(help: ArgumentHelp("Read the code from a PNG of the new device's QR code instead.", valueName: "image"))
        var scan: String?

        func validate() throws {
            guard (code == nil) != (scan == nil) else { throw ValidationError("give the CODE the new device shows, or --scan IMAGE") }
        }

        /// The typed code, or the `parley-pair:` text of the first QR code in the image.
        func codeText() throws -> String {
            if let code { return code }
            guard let data = FileManager.default.contents(atPath: (scan! as NSString).expandingTildeInPath) else {
                throw CommandFailure("cannot read \(scan!)")
            }
            let texts: [[UInt8]]
            do { texts = try QRScanner.decode(png: Array(data)) } catch { throw CommandFailure("\(scan!): \(error)") }
            guard let text = PairingFlow.code(inScanned: texts) else {
                throw CommandFailure("\(scan!) holds no Parley pairing code")
            }
            return text
        }

        func run() async throws {
            let code = try codeText()
            let json = options.json
            let (name, id) = try await options.withClient { client in
                try await client.devices.authorize(code: code) { step in
                    guard !json else { return }
                    switch step {
                    case .sealed(let name): ClientOptions.say("Sent your keys to “\(name)”; waiting for it to join …")
                    case .joined(let id): ClientOptions.say("It joined as device \(id); sending your history …")
                    case .history(let sent, let total) where sent == total: ClientOptions.say("History sent (\(total) part(s)).")
                    case .history: break
                    }
                    }
            }
            options.output(["status": "authorized", "device_name": name, "device_id": String(id)]) {
                "Authorized “\(name)” as device \(id). Remove it any time with 'parley devices remove \(id)'."
            }
        }
    }
}

extension Parley {
    /// `parley devices`: this account's devices.
    struct Devices: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "devices",
            abstract: "List your devices, or remove one.", subcommands: [List.self, Remove.self], defaultSubcommand: List.self)
    }
}

extension Parley.Devices {
    /// `parley devices list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List this account's devices: name, added, last seen.")
        @OptionGroup var options: ClientOptions

        func run() async throws {
            let devices = try await options.withClient { try await $0.devices.list() }
            options.output(devices) {
                devices.map { device in
                    let marker = device.isThisDevice ? "  (this device)" : ""
                    return "\(device.id)  \(device.name)  added \(Self.format(device.createdAt))  last seen \(Self.format(device.lastSeen))\(marker)"
                }.joined(separator: "\n")
            }
        }

        static func format(_ milliseconds: Int64) -> String {
            let formatter = DateFormatter()
            formatter.dateFormat = "yyyy-MM-dd HH:mm"
            return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000))
        }
    }

    /// `parley devices remove ID`.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Revoke a device: it is signed out at once and receives nothing more.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The device number from 'parley devices'.") var id: UInt32

        func run() async throws {
            try await options.withClient { try await $0.devices.remove(id) }
            options.output(["status": "removed", "device_id": String(id)]) { "Removed device \(id)." }
        }
    }
}
