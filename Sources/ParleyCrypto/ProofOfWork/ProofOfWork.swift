import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Hashcash-style proof of work the server asks for during registration surges.
///
/// A solution is a `nonce` (u64) such that SHA-256(challenge || nonce as 8 big-endian bytes)
/// starts with at least `difficulty` zero bits. Verifying costs one hash.
public enum ProofOfWork {
    /// The largest difficulty either side accepts; beyond it nobody could solve a challenge.
    public static let maximumDifficulty = 64
    /// The longest challenge accepted, so verification stays one small hash.
    public static let maximumChallengeLength = 256

    /// Why a challenge could not be solved.
    public enum Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        /// The difficulty or challenge is outside the accepted range.
        case invalidParameters
        /// No solution was found within the attempt budget.
        case budgetExhausted

        public var description: String {
            switch self {
            case .invalidParameters:
                "proof-of-work challenge must be 1–\(maximumChallengeLength) bytes with difficulty 0–\(maximumDifficulty)"
            case .budgetExhausted:
                "no proof-of-work solution found within the allowed attempts (try again later)"
            }
        }
    }

    /// Returns whether `nonce` solves `challenge` at `difficulty`.
    public static func verify<D: DataProtocol>(challenge: D, difficulty: Int, nonce: UInt64) -> Bool {
        guard isValid(challengeLength: challenge.count, difficulty: difficulty) else { return false }
        return leadingZeroBits(of: digest(challenge: Array(challenge), nonce: nonce)) >= difficulty
    }

    /// Finds the smallest nonce at or after `start` that solves the challenge.
    public static func solve<D: DataProtocol>(
        challenge: D, difficulty: Int, start: UInt64 = 0, maximumAttempts: UInt64 = .max
    ) throws(Error) -> UInt64 {
        guard isValid(challengeLength: challenge.count, difficulty: difficulty) else {
            throw .invalidParameters
        }
        let challengeBytes = Array(challenge)
        var nonce = start
        var attempts: UInt64 = 0
        while attempts < maximumAttempts {
            if leadingZeroBits(of: digest(challenge: challengeBytes, nonce: nonce)) >= difficulty {
                return nonce
            }
            attempts += 1
            nonce &+= 1
        }
        throw .budgetExhausted
    }

    /// The number of zero bits at the start of `digest`.
    public static func leadingZeroBits<D: Sequence<UInt8>>(of digest: D) -> Int {
        var bits = 0
        for byte in digest {
            if byte == 0 {
                bits += 8
                continue
            }
            return bits + byte.leadingZeroBitCount
        }
        return bits
    }

    static func digest(challenge: [UInt8], nonce: UInt64) -> SHA256.Digest {
        var hasher = SHA256()
        hasher.update(data: challenge)
        hasher.update(data: nonce.bigEndianBytes)
        return hasher.finalize()
    }

    static func isValid(challengeLength: Int, difficulty: Int) -> Bool {
        (1...maximumChallengeLength).contains(challengeLength) && (0...maximumDifficulty).contains(difficulty)
    }
}
