import Foundation

/// The Ed448 and X448 vectors in Vectors/rfc9580/curve448, made by scripts/vectors/rfc9580_448.py from RFC 8032,
/// RFC 7748 and Sequoia-PGP (see that script).
enum Curve448Vectors {
    struct Ed448File: Decodable {
        struct Vector: Decodable {
            let name: String, secret: String, `public`: String, message: String, context: String, signature: String
        }
        let vectors: [Vector]
    }

    struct X448File: Decodable {
        struct Multiplication: Decodable { let scalar: String, u: String, result: String }
        struct Iterated: Decodable { let iterations: Int, result: String }
        struct DiffieHellman: Decodable {
            let alice_private: String, alice_public: String, bob_private: String, bob_public: String, shared: String
        }
        let multiplications: [Multiplication]
        let iterated: [Iterated]
        let diffieHellman: DiffieHellman
    }

    static func url(_ name: String, _ ext: String, in directory: String = "") throws -> URL {
        let subdirectory = "Vectors/rfc9580/curve448" + (directory.isEmpty ? "" : "/" + directory)
        guard let url = Bundle.module.url(forResource: name, withExtension: ext, subdirectory: subdirectory) else {
            throw CocoaError(.fileNoSuchFile)
        }
        return url
    }

    static let ed448 = try! JSONDecoder().decode(Ed448File.self, from: Data(contentsOf: url("rfc8032-ed448", "json")))
    static let x448 = try! JSONDecoder().decode(X448File.self, from: Data(contentsOf: url("rfc7748-x448", "json")))

    /// A Sequoia-made file from Vectors/rfc9580/curve448/sequoia.
    static func sequoia(_ name: String) throws -> [UInt8] {
        let base = (name as NSString).deletingPathExtension, ext = (name as NSString).pathExtension
        return [UInt8](try Data(contentsOf: url(base, ext, in: "sequoia")))
    }
}
