import Foundation
import ParleyLocation

/// Shapes of the JSON files written by scripts/vectors/parley_location_vectors.py.
struct LegacyVectors: Decodable {
    struct Valid: Decodable {
        let comment: String, key: String, iv: String, text: String, number: Double, stored: String
    }
    struct Invalid: Decodable {
        let comment: String, key: String, stored: String, error: String
    }
    struct InvalidKey: Decodable {
        let comment: String, key: String
    }
    let valid: [Valid]
    let invalid: [Invalid]
    let invalid_keys: [InvalidKey]
}

struct JSNumberVector: Decodable {
    let js: String, bits: String, text: String
    var value: Double { Double(bitPattern: UInt64(bits, radix: 16)!) }
}

struct V2Vectors: Decodable {
    struct Valid: Decodable {
        let key: String, nonce: String, owner: UInt64, route: UInt64
        let latitude: Double, longitude: Double, timestamp: Int64, accuracy: Double, altitude: Double?
        let json: String, ad: String, stored: String
        var waypoint: Waypoint {
            Waypoint(latitude: latitude, longitude: longitude, timestamp: timestamp, accuracy: accuracy, altitude: altitude)
        }
    }
    struct Invalid: Decodable {
        let comment: String, key: String, owner: UInt64, route: UInt64, timestamp: Int64, stored: String, error: String
    }
    struct Accepted: Decodable {
        let comment: String, key: String, owner: UInt64, route: UInt64, timestamp: Int64, stored: String
        let latitude: Double, longitude: Double, accuracy: Double, altitude: Double?
    }
    let valid: [Valid]
    let invalid: [Invalid]
    let accepted: [Accepted]
}

struct LinkVectors: Decodable {
    struct BPT: Decodable {
        let key: String, user_id: String, username: String?, app_link: String, once_link: String
    }
    struct Parley: Decodable {
        let owner: UInt64, key: String, server: String?, name: String?, link: String
    }
    struct Bad: Decodable {
        let comment: String, link: String
    }
    let bpt: [BPT]
    let bpt_invalid: [Bad]
    let parley: [Parley]
    let parley_invalid: [Bad]
}

extension LocationError {
    /// The case name the vector files use for an expected error.
    var vectorName: String {
        switch self {
        case .invalidKey: "invalidKey"
        case .malformed: "malformed"
        case .couldNotDecrypt: "couldNotDecrypt"
        case .invalidPlaintext, .outOfRange: "invalidPlaintext"
        case .invalidLink: "invalidLink"
        case .invalidGPX: "invalidGPX"
        }
    }
}
