import Foundation
import ParleyCrypto

extension RandomSource {
    /// A fresh client message id: 16 random bytes in hex, which makes a resend after a lost answer harmless.
    func clientMessageID() -> String {
        bytes(16).map { String(format: "%02x", $0) }.joined()
    }
}
