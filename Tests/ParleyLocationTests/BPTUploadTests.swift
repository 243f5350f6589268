import Foundation
import ParleyLocation
import Testing

/// The writing side of Berry Picker Tracker: what `post --bpt` sends, pinned by the app's known answers
/// and read back by the reading side's own parser.
@Suite struct BPTUploadTests {
    @Test func sealedWaypointsMatchTheAppsKnownAnswers() throws {
        let vectors = try Vectors.load("legacy", as: LegacyVectors.self)
        let usable = vectors.valid.filter { (-90...90).contains($0.number) }
        #expect(usable.count >= 10)
        for vector in usable {
            let key = try LegacyKey(bytes: [UInt8](hex: vector.key))
            let iv = [UInt8](hex: vector.iv)
            let waypoint = Waypoint(latitude: vector.number, longitude: vector.number, timestamp: 1_800_000_000_000)
            let sealed = try LegacyWaypoint.seal(waypoint, key: key, ivs: (iv, iv))
            #expect(sealed.latitude == vector.stored && sealed.longitude == vector.stored, "\(vector.comment)")
            #expect(sealed.timestamp == 1_800_000_000_000)
        }
    }

    @Test func theUploadBodyHasTheAppsFieldsAndReadsBackAsARoute() throws {
        let key = try LegacyKey.random()
        let waypoints = [Waypoint(latitude: 61.4978, longitude: 23.761, timestamp: 1_800_000_000_000),
                         Waypoint(latitude: -33.86882, longitude: 151.20929, timestamp: 1_800_000_005_000)]
        let body = BPTRequestBody.waypoints(try waypoints.map { try LegacyWaypoint.seal($0, key: key) }, routeID: "r\"1\\\n")
        let objects = try #require(try JSONSerialization.jsonObject(with: body) as? [[String: Any]])
        #expect(objects.count == 2)
        for object in objects {
            #expect(Set(object.keys) == ["route_id", "routeId", "latitude", "longitude", "mnc", "connection", "ts"])
            #expect(object["route_id"] as? String == "r\"1\\\n" && object["routeId"] as? String == "r\"1\\\n")
            #expect(object["mnc"] is NSNull && object["connection"] is NSNull)
        }
        // The server hands them back as `[routeId, active, [waypoints]]`: the follow side decrypts them.
        let served = try JSONSerialization.data(withJSONObject: ["r1", true, objects])
        let (points, failed) = try BPTRoute(json: served).decrypt(with: key)
        #expect(failed == 0)
        #expect(points.map(\.latitude) == [61.4978, -33.86882] && points.map(\.longitude) == [23.761, 151.20929])
        #expect(points.map(\.time) == [1_800_000_000_000, 1_800_000_005_000])
        #expect(String(decoding: BPTRequestBody.startRoute(userID: "a1B2c3D4e5F6"), as: UTF8.self) == "{\"active\":true,\"user_id\":\"a1B2c3D4e5F6\"}")
    }

    @Test func outOfRangePositionsAreNotSealed() throws {
        let key = try LegacyKey.random()
        #expect(throws: LocationError.self) { try LegacyWaypoint.seal(Waypoint(latitude: 91, longitude: 0, timestamp: 0), key: key) }
        #expect(throws: LocationError.self) { try LegacyWaypoint.seal(Waypoint(latitude: 0, longitude: .nan, timestamp: 0), key: key) }
    }

    @Test func createdIDsAreReadAndBadAnswersRefused() throws {
        #expect(try BPTCreatedID.parse(json: Data("{\"id\":\"a1B2c3D4e5F6\",\"username\":null}".utf8)) == "a1B2c3D4e5F6")
        #expect(try BPTCreatedID.parse(json: Data("{\"id\":42}".utf8)) == "42")
        let bad = ["", "<html>", "[\"a\"]", "{}", "{\"id\":\"\"}", "{\"id\":true}", "{\"id\":1.5}", "{\"id\":null}",
                   "{\"id\":\"a\\r\\nX-Evil: 1\"}", "{\"id\":\"has space\"}", "{\"id\":\"\(String(repeating: "a", count: 129))\"}",
                   "{\"id\":\"é\"}", "\"a1B2c3D4e5F6\""]
        for text in bad {
            #expect(throws: LocationError.self, "\(text)") { try BPTCreatedID.parse(json: Data(text.utf8)) }
        }
        let valid = Data("{\"id\":\"a1B2c3D4e5F6\"}".utf8)
        for length in 0..<valid.count {
            #expect(throws: LocationError.self) { try BPTCreatedID.parse(json: valid.prefix(length)) }
        }
        let huge = Data("{\"id\":\"a\",\"pad\":\"".utf8) + Data(repeating: 0x61, count: BPTCreatedID.maxResponseSize) + Data("\"}".utf8)
        #expect(throws: LocationError.self) { try BPTCreatedID.parse(json: huge) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let bytes = (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? BPTCreatedID.parse(json: Data(bytes))
        }
    }
}
