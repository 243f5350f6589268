import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import ParleyMailFormats
import ParleyPGP
import ParleyTLS

/// Asks an address's Web Key Directory for its key over HTTPS (docs/MAIL.md §6.2): the advanced method, then
/// the direct method when the advanced host cannot be reached.
public struct WKDLookup: Sendable {
    /// What a lookup found.
    public enum Outcome: Sendable {
        /// A certificate naming the address that can encrypt now, and where it was found.
        case found(Certificate, url: String)
        /// The directory answered and has no usable key for the address.
        case none(String)
    }

    /// The largest answer taken.
    public static let largestAnswer = 256 * 1024
    /// The longest a lookup may take, in seconds.
    public static let timeout: Int64 = 10

    let group: any EventLoopGroup
    let trustedCertificatesFile: String?
    /// Host → address to connect to instead of resolving the name (PARLEY_WKD_ADDRESS); when set, a host not in
    /// it cannot be reached.
    let addresses: [String: (host: String, port: Int)]?

    public init(group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws(MailboxError) {
        self.group = group
        trustedCertificatesFile = environment["PARLEY_WKD_CA"]
        guard let list = environment["PARLEY_WKD_ADDRESS"] else {
            addresses = nil
            return
        }
        var addresses: [String: (host: String, port: Int)] = [:]
        for entry in list.split(separator: ",") {
            let pair = entry.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, let colon = pair[1].lastIndex(of: ":"), let port = Int(pair[1][pair[1].index(after: colon)...]),
                  (1...65535).contains(port) else {
                throw .invalidInput("PARLEY_WKD_ADDRESS must be HOST=IP:PORT[,HOST=IP:PORT…]")
            }
            addresses[pair[0].lowercased()] = (String(pair[1][..<colon]), port)
        }
        self.addresses = addresses
    }

    /// Looks `address` up. Throws `.connection` / `.tls` / `.protocolViolation` when no directory could be asked
    /// or its answer is unusable, in words.
    public func key(for address: String, now: UInt32 = UInt32(Date().timeIntervalSince1970)) async throws(MailboxError) -> Outcome {
        guard let candidates = WKDLocation.candidates(for: address) else {
            throw .invalidInput("\"\(address.prefix(80))\" is not an address a Web Key Directory can be asked about")
        }
        var unreachable: [String] = []
        for location in candidates {
            let response: WKDAnswer.Response
            do {
                response = try await fetch(location)
            } catch Unreachable.host(let why) {
                unreachable.append("\(location.host): \(why)")
                continue
            } catch let error as MailboxError {
                throw error
            } catch {
                throw .keyLookup("the Web Key Directory at \(location.host) failed: \(error)")
            }
            switch response.status {
            case 200:
                guard let certificate = Self.certificate(in: response.body, for: address, now: now) else {
                    return .none("\(location.host) has no usable key naming \(address)")
                }
                return .found(certificate, url: location.url)
            case 404:
                return .none("\(location.host) has no key for \(address)")
            default:
                throw .keyLookup("\(location.host) answered the key lookup with HTTP status \(response.status)")
            }
        }
        return .none("no Web Key Directory for \(address) could be reached: \(unreachable.joined(separator: "; "))")
    }

    /// The first certificate in a directory's answer (binary, or armored) that names `address` and can encrypt.
    static func certificate(in body: [UInt8], for address: String, now: UInt32) -> Certificate? {
        var bytes = body
        if body.starts(with: Array("-----BEGIN".utf8)), let armor = try? Armor.decode(String(decoding: body, as: UTF8.self)) {
            bytes = armor.data
        }
        return LearnedKey.usable(bytes, for: address.lowercased(), mustName: true, now: now)
    }

    enum Unreachable: Error {
        case host(String)
    }

    private func fetch(_ location: WKDLocation) async throws -> WKDAnswer.Response {
        let target: (host: String, port: Int)
        if let addresses {
            guard let mapped = addresses[location.host] else { throw Unreachable.host("the name does not resolve") }
            target = mapped
        } else {
            target = (location.host, 443)
        }
        let trust: TLSTrust
        do {
            trust = try TLSTrust(host: location.host, pinnedKeySHA256: nil, trustedCertificatesFile: trustedCertificatesFile)
        } catch {
            throw MailboxError.invalidInput("cannot set up TLS with \(trustedCertificatesFile ?? "the system's certificates")")
        }
        let loop = group.next()
        let done = loop.makePromise(of: WKDAnswer.Response.self)
        let timer = loop.scheduleTask(in: .seconds(Self.timeout)) {
            done.fail(MailboxError.keyLookup("\(location.host) did not answer the key lookup within \(Self.timeout) s"))
        }
        defer { timer.cancel() }
        let channel: Channel
        do {
            channel = try await ClientBootstrap(group: loop)
                .connectTimeout(.seconds(Self.timeout))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ReadGate())
                        try channel.pipeline.syncOperations.addHandler(trust.makeHandler())
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(
                            WKDAnswer(host: location.host, path: location.path, limit: Self.largestAnswer, done: done))
                    }
                }
                .connect(host: target.host, port: target.port).get()
        } catch {
            done.fail(error)
            throw Unreachable.host(MailBridge.words(error))
        }
        do {
            return try await done.futureResult.get()
        } catch WKDAnswer.Failure.tooLarge {
            channel.giveUp()
            throw MailboxError.keyLookup("\(location.host) sent a key answer over \(Self.largestAnswer / 1024) KiB; refused")
        } catch let error as MailboxError {
            channel.giveUp()
            throw error
        } catch {
            channel.giveUp()
            let text = String(describing: error)
            if text.contains("CERTIFICATE_VERIFY_FAILED") || text.lowercased().contains("certificate") || error is NIOSSLError {
                throw MailboxError.keyLookup("\(location.host)'s certificate is not trusted here")
            }
            throw MailboxError.keyLookup("the key lookup at \(location.host) broke off")
        }
    }
}
