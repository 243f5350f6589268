import CArgon2
import Foundation
@testable import ParleyPGP
import Testing

/// Argon2id as Parley links it (Debian's libargon2), against RFC 9106 §5.3's test vector — secret and associated
/// data included, which OpenPGP never uses, so it goes through libargon2's full interface; RFC 9580 Appendix A.12
/// proves Parley's own call end to end (`RFC9580AppendixTests`), and Python's argon2-cffi checks the wrapper below.
@Suite struct Argon2VectorTests {
    @Test("RFC 9106 §5.3: Argon2id, t=3, m=32 KiB, p=4, with secret and associated data")
    func rfc9106() throws {
        var password = [UInt8](repeating: 0x01, count: 32), salt = [UInt8](repeating: 0x02, count: 16)
        var secret = [UInt8](repeating: 0x03, count: 8), associated = [UInt8](repeating: 0x04, count: 12)
        var tag = [UInt8](repeating: 0, count: 32)
        let status = password.withUnsafeMutableBufferPointer { pwd in
            salt.withUnsafeMutableBufferPointer { salt in
                secret.withUnsafeMutableBufferPointer { secret in
                    associated.withUnsafeMutableBufferPointer { ad in
                        tag.withUnsafeMutableBufferPointer { out in
                            var context = argon2_context(
                                out: out.baseAddress, outlen: 32, pwd: pwd.baseAddress, pwdlen: 32, salt: salt.baseAddress, saltlen: 16,
                                secret: secret.baseAddress, secretlen: 8, ad: ad.baseAddress, adlen: 12, t_cost: 3, m_cost: 32,
                                lanes: 4, threads: 4, version: UInt32(ARGON2_VERSION_13.rawValue), allocate_cbk: nil, free_cbk: nil,
                                flags: 0)  // ARGON2_DEFAULT_FLAGS: no clearing of inputs
                            return argon2_ctx(&context, Argon2_id)
                        }
                    }
                }
            }
        }
        #expect(status == Int32(ARGON2_OK.rawValue))
        #expect(tag == [UInt8](hex: "0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659"))
    }

    @Test("Parley's Argon2.derive gives what Python's argon2-cffi gives for the same OpenPGP-style inputs")
    func wrapperAgreesWithArgon2CFFI() throws {
        // argon2.low_level.hash_secret_raw(b"password", bytes(range(16)), time_cost=1, memory_cost=2**10,
        //     parallelism=4, hash_len=32, type=Type.ID)
        let derived = try Argon2.derive(password: Array("password".utf8), salt: Array(0..<16), passes: 1, parallelism: 4,
                                        memoryExponent: 10, length: 32)
        #expect(derived == [UInt8](hex: "56b7f50ed10015933ab3b7ad253fa70374a1083aecf2acaa1d076ecd8a017875"))
    }
}
