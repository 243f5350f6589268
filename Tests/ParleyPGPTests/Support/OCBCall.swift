import CParleyOpenSSL

/// OpenSSL's AES-OCB with any nonce length (the vector tests use RFC 7253's 12-byte nonces).
func parleyOCB(key: [UInt8], nonce: [UInt8], header: [UInt8], plain: [UInt8], out: UnsafeMutableBufferPointer<UInt8>) -> Bool {
    parley_aes_ocb(1, key, key.count, nonce, nonce.count, header, header.count, plain, plain.count,
                   out.baseAddress!, out.baseAddress! + plain.count) == 1
}
