import CTSS2

/// Between the marshalled bytes Parley builds and stores and the TSS's C structures, always through the TSS's
/// own (un)marshalling functions, which check every size.
enum TPMStructures {
    typealias Unmarshal<T> = (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<Int>?, UnsafeMutablePointer<T>?) -> TSS2_RC
    typealias Marshal<T> = (UnsafePointer<T>?, UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<Int>?) -> TSS2_RC

    /// `bytes` as one `T`, refusing leftovers.
    static func unmarshal<T>(_ bytes: [UInt8], _ empty: T, _ function: Unmarshal<T>) throws(HardwareKeyError) -> T {
        var value = empty
        var offset = 0
        let rc = bytes.withUnsafeBufferPointer { buffer in function(buffer.baseAddress, buffer.count, &offset, &value) }
        guard rc == 0, offset == bytes.count else { throw .malformed("the TPM structure does not read back") }
        return value
    }

    /// `value` marshalled.
    static func marshal<T>(_ value: T, _ function: Marshal<T>) throws(HardwareKeyError) -> [UInt8] {
        var value = value
        var buffer = [UInt8](repeating: 0, count: MemoryLayout<T>.size + 64)
        var offset = 0
        let rc = buffer.withUnsafeMutableBufferPointer { out in function(&value, out.baseAddress, out.count, &offset) }
        guard rc == 0 else { throw .deviceFailure("a TPM structure could not be written (\(TPMResponse.text(rc)))") }
        return Array(buffer.prefix(offset))
    }

    static func publicArea(_ bytes: [UInt8]) throws(HardwareKeyError) -> TPM2B_PUBLIC {
        try unmarshal(bytes, TPM2B_PUBLIC(), Tss2_MU_TPM2B_PUBLIC_Unmarshal)
    }

    static func sensitive(_ bytes: [UInt8]) throws(HardwareKeyError) -> TPM2B_SENSITIVE_CREATE {
        try unmarshal(bytes, TPM2B_SENSITIVE_CREATE(), Tss2_MU_TPM2B_SENSITIVE_CREATE_Unmarshal)
    }
}
