import Foundation
import ParleyCrypto

/// Verifying a contact from a picture of their code (then `ParleyClient.verify(scannedPayload:)`).
public enum VerificationFlow {
    /// The first of the codes read from an image that is a Parley verification code (an image may hold others).
    public static func verificationCode(inScanned codes: [[UInt8]]) -> [UInt8]? {
        codes.first { (try? VerificationPayload(scanned: $0)) != nil }
    }
}
