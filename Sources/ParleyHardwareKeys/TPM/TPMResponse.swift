import CTSS2

/// What a TSS response code means for the person using the key (TPM 2.0 Part 2, §6.6; TSS layers).
enum TPMResponse {
    /// Response codes from the TPM itself have layer 0; the TSS's own layers are in bits 16–23.
    private static func isFromTPM(_ rc: TSS2_RC) -> Bool { rc & 0xFF_0000 == 0 }

    /// A TPM "format one" error: a handle, session or parameter was refused.
    static func isTPMFormatOne(_ rc: TSS2_RC) -> Bool { rc != 0 && isFromTPM(rc) && rc & 0x80 != 0 }

    /// Throws the error `rc` stands for; returns for success.
    static func check(_ rc: TSS2_RC, doing what: String) throws(HardwareKeyError) {
        guard rc != 0 else { return }
        if isTPMFormatOne(rc) {
            switch rc & 0x3F {
            case 0x0E, 0x22: throw .wrongPIN  // TPM_RC_AUTH_FAIL (counted), TPM_RC_BAD_AUTH (no DA)
            default: break
            }
        } else if isFromTPM(rc), rc & 0xFFF == 0x921 {  // TPM_RC_LOCKOUT
            throw .lockedOut
        }
        if !isFromTPM(rc) {
            // The TCTI or ESAPI layers: the device went away, or never answered.
            let layer = (rc >> 16) & 0xFF
            if layer == 0x0A || layer == 0x07 && rc & 0xFFFF == 0x000A {
                throw .deviceUnavailable("the TPM stopped answering while \(what): \(text(rc))")
            }
        }
        throw .deviceFailure("\(what): \(text(rc))")
    }

    /// The TSS's wording of `rc`.
    static func text(_ rc: TSS2_RC) -> String {
        guard let text = Tss2_RC_Decode(rc) else { let hex = String(rc, radix: 16)
            return "0x" + String(repeating: "0", count: max(0, 8 - hex.count)) + hex }
        return String(cString: text)
    }
}
