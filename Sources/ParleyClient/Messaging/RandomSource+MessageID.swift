import Foundation
import ParleyCrypto

extension RandomSource {
    /// A fresh client message id: 16 random bytes in hex, which makes a resend after a lost answer harmless.
    func clientMessageID() -> String {
        Hex.lower(bytes(16))
    }
}
