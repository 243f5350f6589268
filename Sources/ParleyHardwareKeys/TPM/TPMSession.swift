import CTSS2
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// One conversation with a TPM through the TSS's ESAPI: opened on a TCTI ("device:/dev/tpmrm0",
/// "swtpm:host=127.0.0.1,port=2321"), closed when released. Not for sharing between threads; each
/// operation of `TPMDevice` opens its own.
///
/// Every command after the storage primary's creation is authorised in one salted HMAC session with parameter
/// encryption (docs/FORMATS.md §17, "Sessions"): a PIN never crosses the bus (the session proves it with an HMAC), and the
/// secrets that do — a sealed secret going in or coming out, an ECDH shared point — are encrypted with AES-128-CFB
/// under a session key salted to the storage primary, which someone listening on the bus cannot derive.
final class TPMSession {
    private var tcti: OpaquePointer?
    private var context: OpaquePointer?
    /// The salted HMAC session; password authorisation (`ESYS_TR_PASSWORD`) only until it exists.
    private var authorization = ESYS_TR(ESYS_TR_PASSWORD)

    init(tcti configuration: String) throws(HardwareKeyError) {
        // The TSS logs its own errors to standard error unless told not to; Parley says what went wrong itself.
        setenv("TSS2_LOG", "all+NONE", 0)
        var tcti: OpaquePointer?
        let loaded = Tss2_TctiLdr_Initialize(configuration, &tcti)
        guard loaded == 0, tcti != nil else {
            throw .deviceUnavailable("nothing answers at \(configuration); set PARLEY_TPM_TCTI")
        }
        self.tcti = tcti
        var context: OpaquePointer?
        let started = Esys_Initialize(&context, tcti, nil)
        guard started == 0, context != nil else {
            Tss2_TctiLdr_Finalize(&self.tcti)
            throw .deviceUnavailable("the TPM at \(configuration) did not start a session: \(TPMResponse.text(started))")
        }
        self.context = context
    }

    deinit {
        if authorization != ESYS_TR(ESYS_TR_PASSWORD) { _ = Esys_FlushContext(context, authorization) }
        Esys_Finalize(&context)
        Tss2_TctiLdr_Finalize(&tcti)
    }

    /// The storage-root primary key, derived again from the owner seed (docs/FORMATS.md §17).
    func storagePrimary() throws(HardwareKeyError) -> ESYS_TR {
        var template = try TPMStructures.publicArea(TPMTemplates.storagePrimary)
        var sensitive = try TPMStructures.sensitive(TPMTemplates.sensitive(authorization: [], data: []))
        var outside = TPM2B_DATA()
        var pcrs = TPML_PCR_SELECTION()
        var handle = ESYS_TR(ESYS_TR_NONE)
        let rc = Esys_CreatePrimary(
            context, ESYS_TR(ESYS_TR_RH_OWNER), ESYS_TR(ESYS_TR_PASSWORD), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE),
            &sensitive, &template, &outside, &pcrs, &handle, nil, nil, nil, nil)
        try TPMResponse.check(rc, doing: "making its storage key")
        try startEncryptedSession(saltedTo: handle)
        return handle
    }

    /// Starts the salted HMAC session that authorises and encrypts everything after (TPM2_StartAuthSession with
    /// `tpmKey` = the storage primary, unbound, AES-128-CFB, SHA-256). ESAPI makes the salt and sends it sealed
    /// to the primary's public key.
    private func startEncryptedSession(saltedTo primary: ESYS_TR) throws(HardwareKeyError) {
        // TPMT_SYM_DEF: TPM_ALG_AES (0x0006), 128 bits, TPM_ALG_CFB (0x0043).
        var symmetric = try TPMStructures.unmarshal([0x00, 0x06, 0x00, 0x80, 0x00, 0x43], TPMT_SYM_DEF(), Tss2_MU_TPMT_SYM_DEF_Unmarshal)
        var session = ESYS_TR(ESYS_TR_NONE)
        let rc = Esys_StartAuthSession(
            context, primary, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE),
            nil, TPM2_SE(0x00) /* TPM2_SE_HMAC */, &symmetric, TPMI_ALG_HASH(0x000B) /* SHA-256 */, &session)
        try TPMResponse.check(rc, doing: "starting an encrypted session")
        authorization = session
    }

    /// Which parameters the next command encrypts: its first command parameter (`decrypt`, only where that is a
    /// sized buffer) and its first response parameter (`encrypt`). The session stays open between commands.
    private func encrypting(command: Bool, response: Bool) throws(HardwareKeyError) {
        guard authorization != ESYS_TR(ESYS_TR_PASSWORD) else { throw .deviceFailure("no encrypted session is open") }
        // TPMA_SESSION: continueSession 0x01, decrypt 0x20, encrypt 0x40.
        let flags = TPMA_SESSION(0x01 | (command ? 0x20 : 0) | (response ? 0x40 : 0))
        try TPMResponse.check(Esys_TRSess_SetAttributes(context, authorization, flags, 0xFF), doing: "setting up the encrypted session")
    }

    /// Creates an object under `parent`; returns its marshalled public and private areas.
    func create(under parent: ESYS_TR, template: [UInt8], sensitive: [UInt8]) throws(HardwareKeyError) -> (public: [UInt8], private: [UInt8]) {
        var inPublic = try TPMStructures.publicArea(template)
        var inSensitive = try TPMStructures.sensitive(sensitive)
        var outside = TPM2B_DATA()
        var pcrs = TPML_PCR_SELECTION()
        var outPrivate: UnsafeMutablePointer<TPM2B_PRIVATE>?
        var outPublic: UnsafeMutablePointer<TPM2B_PUBLIC>?
        defer {
            Esys_Free(outPrivate)
            Esys_Free(outPublic)
        }
        try encrypting(command: true, response: false)
        let rc = Esys_Create(
            context, parent, authorization, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE),
            &inSensitive, &inPublic, &outside, &pcrs, &outPrivate, &outPublic, nil, nil, nil)
        try TPMResponse.check(rc, doing: "making the key")
        guard let outPublic, let outPrivate else { throw .deviceFailure("the TPM returned no key") }
        return (try TPMStructures.marshal(outPublic.pointee, Tss2_MU_TPM2B_PUBLIC_Marshal),
                try TPMStructures.marshal(outPrivate.pointee, Tss2_MU_TPM2B_PRIVATE_Marshal))
    }

    /// Loads an object made by this TPM under `parent`, with `pin` as its authorization.
    func load(_ blob: HardwareKeyBlob, under parent: ESYS_TR, pin: [UInt8]?) throws(HardwareKeyError) -> ESYS_TR {
        var inPublic = try TPMStructures.publicArea(blob.publicArea)
        var inPrivate = try TPMStructures.unmarshal(blob.privateArea, TPM2B_PRIVATE(), Tss2_MU_TPM2B_PRIVATE_Unmarshal)
        var handle = ESYS_TR(ESYS_TR_NONE)
        try encrypting(command: true, response: false)
        let rc = Esys_Load(context, parent, authorization, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), &inPrivate, &inPublic, &handle)
        // The private area is bound to the parent: any refusal to load it means another TPM's (or a cleared one's).
        if TPMResponse.isTPMFormatOne(rc) { throw .wrongDevice }
        try TPMResponse.check(rc, doing: "loading the key")
        if let pin {
            var authorization = try TPMStructures.unmarshal(
                [UInt8(pin.count >> 8), UInt8(pin.count & 0xFF)] + pin, TPM2B_AUTH(), Tss2_MU_TPM2B_AUTH_Unmarshal)
            defer { SecureZero.value(&authorization) }
            try TPMResponse.check(Esys_TR_SetAuth(context, handle, &authorization), doing: "taking the PIN")
        }
        return handle
    }

    /// `TPM2_ECDH_ZGen`: the shared point's x coordinate with the peer point (x, y).
    func ecdhZGen(_ key: ESYS_TR, x: [UInt8], y: [UInt8]) throws(HardwareKeyError) -> [UInt8] {
        var point = try TPMStructures.unmarshal(TPMTemplates.eccPoint(x: x, y: y), TPM2B_ECC_POINT(), Tss2_MU_TPM2B_ECC_POINT_Unmarshal)
        var out: UnsafeMutablePointer<TPM2B_ECC_POINT>?
        defer { Esys_Free(out) }
        try encrypting(command: false, response: true)
        let rc = Esys_ECDH_ZGen(context, key, authorization, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), &point, &out)
        try TPMResponse.check(rc, doing: "computing the shared secret")
        guard let out else { throw .deviceFailure("the TPM returned no point") }
        var shared = try TPMStructures.marshal(out.pointee, Tss2_MU_TPM2B_ECC_POINT_Marshal)
        defer { SecureZero.bytes(&shared) }
        // u16 size, u16 x size, x, u16 y size, y.
        guard shared.count >= 4 + 32, Int(shared[2]) << 8 | Int(shared[3]) == 32 else { throw .deviceFailure("the TPM returned a malformed point") }
        return Array(shared[4..<36])
    }

    /// `TPM2_Unseal`: the sealed object's secret.
    func unseal(_ object: ESYS_TR) throws(HardwareKeyError) -> [UInt8] {
        var out: UnsafeMutablePointer<TPM2B_SENSITIVE_DATA>?
        defer {
            if let out { SecureZero.value(&out.pointee) }
            Esys_Free(out)
        }
        try encrypting(command: false, response: true)
        let rc = Esys_Unseal(context, object, authorization, ESYS_TR(ESYS_TR_NONE), ESYS_TR(ESYS_TR_NONE), &out)
        try TPMResponse.check(rc, doing: "unsealing")
        guard let out else { throw .deviceFailure("the TPM returned nothing") }
        let marshalled = try TPMStructures.marshal(out.pointee, Tss2_MU_TPM2B_SENSITIVE_DATA_Marshal)
        return Array(marshalled.dropFirst(2))
    }

    /// Frees a transient object's slot in the TPM.
    func flush(_ handle: ESYS_TR) {
        _ = Esys_FlushContext(context, handle)
    }
}
