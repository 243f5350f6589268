import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A TPM 2.0 reached through the TSS's TCTI loader: `device:/dev/tpmrm0` (the kernel's resource manager) on a
/// real machine, `swtpm:host=…,port=…` for a software TPM. `PARLEY_TPM_TCTI` chooses, when set.
public struct TPMDevice: HardwareKeyDevice {
    /// The kernel's TPM resource manager, used unless PARLEY_TPM_TCTI or `tcti` says otherwise.
    public static let defaultTCTI = "device:/dev/tpmrm0"
    /// The largest secret `seal` takes (a keyed-hash object's sensitive data holds 128 bytes).
    public static let maximumSecret = 128

    /// How the TSS reaches the TPM (a TCTI configuration string).
    public let tcti: String

    /// The TPM at `tcti`, else at PARLEY_TPM_TCTI, else at `defaultTCTI`.
    public init(tcti: String? = nil) {
        self.tcti = tcti ?? ProcessInfo.processInfo.environment["PARLEY_TPM_TCTI"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultTCTI
    }

    public func createP256Key(pin: [UInt8]?) throws(HardwareKeyError) -> HardwareKeyBlob {
        try Self.check(pin)
        return try withStoragePrimary { session, primary throws(HardwareKeyError) in
            let made = try session.create(
                under: primary, template: TPMTemplates.p256Key(pin: pin != nil),
                sensitive: TPMTemplates.sensitive(authorization: pin ?? [], data: []))
            return HardwareKeyBlob(kind: .p256, needsPIN: pin != nil, publicArea: made.public, privateArea: made.private)
        }
    }

    public func sharedSecret(_ blob: HardwareKeyBlob, with peer: P256.KeyAgreement.PublicKey, pin: [UInt8]?) throws(HardwareKeyError) -> [UInt8] {
        guard blob.kind == .p256 else { throw .wrongKind }
        try Self.check(pin, for: blob)
        let point = Array(peer.x963Representation)
        return try withLoaded(blob, pin: pin) { session, key throws(HardwareKeyError) in
            try session.ecdhZGen(key, x: Array(point[1..<33]), y: Array(point[33..<65]))
        }
    }

    public func seal(_ secret: [UInt8], pin: [UInt8]?) throws(HardwareKeyError) -> HardwareKeyBlob {
        guard (1...Self.maximumSecret).contains(secret.count) else { throw .secretTooLarge }
        try Self.check(pin)
        return try withStoragePrimary { session, primary throws(HardwareKeyError) in
            let made = try session.create(
                under: primary, template: TPMTemplates.sealedSecret(pin: pin != nil),
                sensitive: TPMTemplates.sensitive(authorization: pin ?? [], data: secret))
            return HardwareKeyBlob(kind: .sealedSecret, needsPIN: pin != nil, publicArea: made.public, privateArea: made.private)
        }
    }

    public func unseal(_ blob: HardwareKeyBlob, pin: [UInt8]?) throws(HardwareKeyError) -> [UInt8] {
        guard blob.kind == .sealedSecret else { throw .wrongKind }
        try Self.check(pin, for: blob)
        return try withLoaded(blob, pin: pin) { session, object throws(HardwareKeyError) in try session.unseal(object) }
    }

    /// A PIN is 4–32 bytes.
    static func check(_ pin: [UInt8]?) throws(HardwareKeyError) {
        if let pin, !(4...32).contains(pin.count) { throw .invalidPIN }
    }

    /// The PIN must be given exactly when the object has one.
    static func check(_ pin: [UInt8]?, for blob: HardwareKeyBlob) throws(HardwareKeyError) {
        guard blob.needsPIN == (pin != nil) else { throw .pinMismatch(needed: blob.needsPIN) }
        try check(pin)
    }

    private func withStoragePrimary<T>(_ body: (TPMSession, UInt32) throws(HardwareKeyError) -> T) throws(HardwareKeyError) -> T {
        let session = try TPMSession(tcti: tcti)
        let primary = try session.storagePrimary()
        defer { session.flush(primary) }
        return try body(session, primary)
    }

    private func withLoaded<T>(_ blob: HardwareKeyBlob, pin: [UInt8]?, _ body: (TPMSession, UInt32) throws(HardwareKeyError) -> T) throws(HardwareKeyError) -> T {
        try withStoragePrimary { session, primary throws(HardwareKeyError) in
            let object = try session.load(blob, under: primary, pin: pin)
            defer { session.flush(object) }
            return try body(session, object)
        }
    }
}
