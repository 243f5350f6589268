import Foundation
import ParleyLocation
import ParleyTestSupport
import Testing

/// Inputs the fuzzer found (Vectors/gpx-invalid.json, docs/TESTING.md): each is refused, none crashes.
@Suite struct GPXFuzzRegressionTests {
    struct File: Decodable {
        struct Vector: Decodable { let name: String, hex: String }
        let invalid: [Vector]
        let valid: [Vector]
    }

    @Test func foundInputsAreRefusedNotCrashedOn() throws {
        let file = try Vectors.load("gpx-invalid", from: .module, as: File.self)
        #expect(!file.invalid.isEmpty)
        for vector in file.invalid {
            #expect(throws: LocationError.self, "\(vector.name)") { try GPXTrack(gpx: Data([UInt8](hex: vector.hex))) }
        }
    }

    @Test func whatTheScreenMustStillLetThroughReads() throws {
        let file = try Vectors.load("gpx-invalid", from: .module, as: File.self)
        for vector in file.valid {
            #expect(try GPXTrack(gpx: Data([UInt8](hex: vector.hex))).points.count == 1, "\(vector.name)")
        }
    }
}
