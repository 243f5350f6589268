import ParleyLocation
import Testing

@Suite struct WaypointV2Tests {
    @Test func knownAnswersSealAndOpen() throws {
        let vectors = try Vectors.load("v2", as: V2Vectors.self)
        #expect(vectors.valid.count == 4)
        for vector in vectors.valid {
            let key = try LocationKey(bytes: [UInt8](hex: vector.key))
            #expect(vector.waypoint.compactJSON == vector.json)
            let binding = WaypointV2.Binding(owner: vector.owner, routeID: vector.route, timestamp: vector.timestamp)
            #expect(binding.associatedData.hex == vector.ad)
            let stored = try WaypointV2.seal(vector.waypoint, owner: vector.owner, routeID: vector.route, key: key,
                                             nonce: [UInt8](hex: vector.nonce))
            #expect(stored == vector.stored)
            #expect(try WaypointV2.open(vector.stored, binding: binding, key: key) == vector.waypoint)
        }
    }

    @Test func invalidValuesGiveTheExpectedError() throws {
        let vectors = try Vectors.load("v2", as: V2Vectors.self)
        #expect(vectors.invalid.count >= 20)
        for vector in vectors.invalid {
            let key = try LocationKey(bytes: [UInt8](hex: vector.key))
            let binding = WaypointV2.Binding(owner: vector.owner, routeID: vector.route, timestamp: vector.timestamp)
            do {
                _ = try WaypointV2.open(vector.stored, binding: binding, key: key)
                Issue.record("\(vector.comment): opened")
            } catch {
                #expect(error.vectorName == vector.error, "\(vector.comment): \(error)")
            }
        }
    }

    @Test func readersIgnoreKeyOrderAndUnknownFields() throws {
        let vectors = try Vectors.load("v2", as: V2Vectors.self)
        for vector in vectors.accepted {
            let key = try LocationKey(bytes: [UInt8](hex: vector.key))
            let binding = WaypointV2.Binding(owner: vector.owner, routeID: vector.route, timestamp: vector.timestamp)
            let waypoint = try WaypointV2.open(vector.stored, binding: binding, key: key)
            #expect(waypoint == Waypoint(latitude: vector.latitude, longitude: vector.longitude, timestamp: vector.timestamp,
                                         accuracy: vector.accuracy, altitude: vector.altitude), "\(vector.comment)")
        }
    }

    @Test func sealingRefusesImpossibleWaypoints() {
        let key = LocationKey.random()
        let bad = [
            Waypoint(latitude: 90.5, longitude: 0, timestamp: 1),
            Waypoint(latitude: 0, longitude: .nan, timestamp: 1),
            Waypoint(latitude: 0, longitude: 0, timestamp: -1),
            Waypoint(latitude: 0, longitude: 0, timestamp: 1, accuracy: -2),
            Waypoint(latitude: 0, longitude: 0, timestamp: 1, altitude: .infinity),
        ]
        for waypoint in bad {
            #expect(throws: LocationError.self) { try WaypointV2.seal(waypoint, owner: 1, routeID: 1, key: key) }
        }
    }

    @Test func freshNoncesAndAnotherKeyCannotOpen() throws {
        let key = LocationKey.random()
        let waypoint = Waypoint(latitude: 61.4978, longitude: 23.761, timestamp: 1_800_000_000_000, accuracy: 3, altitude: 120)
        let first = try WaypointV2.seal(waypoint, owner: 9, routeID: 4, key: key)
        let second = try WaypointV2.seal(waypoint, owner: 9, routeID: 4, key: key)
        #expect(first != second)
        let binding = WaypointV2.Binding(owner: 9, routeID: 4, timestamp: waypoint.timestamp)
        #expect(try WaypointV2.open(first, binding: binding, key: key) == waypoint)
        #expect(throws: LocationError.couldNotDecrypt) { try WaypointV2.open(first, binding: binding, key: LocationKey.random()) }
    }

    @Test func keysRoundTripAsBase64URL() throws {
        let key = LocationKey.random()
        #expect(key.base64URL.count == 43)
        #expect(try LocationKey(base64URL: key.base64URL).bytes == key.bytes)
        #expect(throws: LocationError.self) { try LocationKey(bytes: [UInt8](repeating: 1, count: 16)) }
        #expect(throws: LocationError.self) { try LocationKey(base64URL: "not a key") }
    }

    @Test func garbageNeverCrashes() {
        let key = LocationKey.random()
        let binding = WaypointV2.Binding(owner: 1, routeID: 1, timestamp: 1)
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=:v2 ")
        for _ in 0..<2000 {
            let length = Int.random(in: 0...200, using: &generator)
            let text = "v2:" + String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            #expect(throws: LocationError.self) { try WaypointV2.open(text, binding: binding, key: key) }
        }
    }
}
