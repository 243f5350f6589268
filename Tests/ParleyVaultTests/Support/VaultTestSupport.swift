import Crypto
import Foundation
import Synchronization
@testable import ParleyVault

/// A fresh directory under the system's temporary folder, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("parley-vault-tests-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The account directory inside, not yet created.
    var account: URL { url.appendingPathComponent("account", isDirectory: true) }

    var mainKeyFile: URL { account.appendingPathComponent(MainKeyFile.fileName) }

    /// The bytes of the MainKey file.
    func fileBytes() -> [UInt8] { Array(try! Data(contentsOf: mainKeyFile)) }

    /// Overwrites the MainKey file (creating the account directory).
    func write(_ bytes: [UInt8]) {
        try! FileManager.default.createDirectory(at: account, withIntermediateDirectories: true)
        try! Data(bytes).write(to: mainKeyFile)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A clock the test moves by hand.
final class ManualClock: VaultClock {
    private let times = Mutex<(wall: TimeInterval, monotonic: TimeInterval)>((1_700_000_000, 1_000))

    var wallClock: TimeInterval { times.withLock { $0.wall } }
    var monotonic: TimeInterval { times.withLock { $0.monotonic } }

    /// Both clocks move forward together, as real time passes.
    func advance(_ seconds: TimeInterval) {
        times.withLock { $0.wall += seconds; $0.monotonic += seconds }
    }

    /// Only the wall clock moves: someone set the system time.
    func setWall(by seconds: TimeInterval) {
        times.withLock { $0.wall += seconds }
    }
}

/// A software stand-in for a Secure Enclave or TPM: AES-GCM under a key it keeps.
/// Blob = nonce(12) || AES-GCM(kek, nonce, key, "parley-test-protector"), as the vector generator builds it.
struct SoftwareProtector: HardwareKeyProtector {
    let name: String
    let kek: SymmetricKey
    var failing = false

    struct Unavailable: Error {}

    init(name: String = "test-software", kek: [UInt8]? = nil) {
        self.name = name
        self.kek = kek.map { SymmetricKey(data: $0) } ?? SymmetricKey(size: .bits256)
    }

    func wrap(_ key: MainKey) throws -> [UInt8] {
        if failing { throw Unavailable() }
        let nonce = AES.GCM.Nonce()
        let box = try key.withUnsafeBytes { try AES.GCM.seal($0, using: kek, nonce: nonce, authenticating: Self.ad) }
        return Array(nonce) + Array(box.ciphertext) + Array(box.tag)
    }

    func unwrap(_ blob: [UInt8]) throws -> MainKey {
        if failing { throw Unavailable() }
        let box = try AES.GCM.SealedBox(combined: blob)
        return try MainKey(bytes: Array(AES.GCM.open(box, using: kek, authenticating: Self.ad)))
    }

    static let ad = Array("parley-test-protector".utf8)
}

/// The error `body` throws as a VaultError, nil if it does not throw.
func vaultError<T>(_ body: () throws -> T) -> VaultError? {
    do {
        _ = try body()
        return nil
    } catch let error as VaultError {
        return error
    } catch {
        return .io("unexpected \(error)")
    }
}

extension MainKey {
    /// The raw bytes, for comparing with vectors.
    var bytes: [UInt8] { withUnsafeBytes { Array($0) } }
}
