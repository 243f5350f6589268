/// Why a hardware key could not be made or used, in the user's words (never key material or a PIN).
public enum HardwareKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No TPM answers at the configured place (no /dev/tpmrm0, swtpm not running, no permission).
    case deviceUnavailable(String)
    /// The blob was made by another TPM, or this TPM was cleared since: its storage key is gone.
    case wrongDevice
    /// The PIN was wrong; the TPM counted the failure.
    case wrongPIN
    /// The TPM is in dictionary-attack lockout: it refuses every PIN-protected object, the right PIN too, for a while.
    case lockedOut
    /// The object needs a PIN and none was given, or a PIN was given to an object that has none.
    case pinMismatch(needed: Bool)
    /// The PIN is not 4–32 bytes.
    case invalidPIN
    /// The file is not a hardware key blob Parley can read; the text says what is wrong.
    case malformed(String)
    /// The blob holds another kind of object than the operation needs.
    case wrongKind
    /// The secret to seal is empty or over the TPM's limit.
    case secretTooLarge
    /// The TPM refused for another reason; the TSS's own wording follows.
    case deviceFailure(String)

    public var description: String {
        switch self {
        case .deviceUnavailable(let why): "no TPM is available (\(why))"
        case .wrongDevice: "this key belongs to a different TPM, or this TPM was cleared since it was made; it cannot be used here"
        case .wrongPIN: "the PIN is wrong (the TPM counts wrong PINs and locks them out after a few)"
        case .lockedOut: "the TPM is locked out after too many wrong PINs; wait for its lockout to pass, then try again"
        case .pinMismatch(let needed): needed ? "this key needs its PIN" : "this key has no PIN; do not give one"
        case .invalidPIN: "a PIN must be 4 to 32 bytes"
        case .malformed(let what): "not a Parley hardware key: \(what)"
        case .wrongKind: "this hardware key is of another kind than the operation needs"
        case .secretTooLarge: "a sealed secret must be 1 to 128 bytes"
        case .deviceFailure(let why): "the TPM refused: \(why)"
        }
    }
}
