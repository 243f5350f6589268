import Foundation
import ParleyLocation

extension FuzzTarget {
    static let locationTargets: [FuzzTarget] = [
        FuzzTarget("location-bpt", "Berry Picker Tracker values, keys and route responses decode or fail cleanly (CryptoES has no MAC, so random values may decrypt: no property beyond that)", run: locationBPT),
        FuzzTarget("location-links", "bpt: and parley://location links parse or fail cleanly; a parsed link, written again, parses to the same fields", run: locationLinks),
        FuzzTarget("location-gpx", "GPX, gpsd lines and ISO 8601 times read or fail cleanly; GPX and times written from what was read are stable", run: locationGPX),
        FuzzTarget("location-v2", "no v2 value opens under the fixture key; compact waypoint JSON re-encodes stably", run: locationV2),
        FuzzTarget("location-bpt-answer", "a tracker server's new-user/start-route answer gives an id only when it is 1–128 visible ASCII characters and the answer a JSON object with that id", run: locationBPTAnswer),
    ]
}

private let legacyKey = try! LegacyKey(bytes: [UInt8](repeating: 0x66, count: 16))
private let locationKey = try! LocationKey(bytes: [UInt8](repeating: 0x77, count: 32))

private func locationBPT(_ bytes: [UInt8]) {
    if let text = bytes.utf8Text {
        _ = try? LegacyCipher.decryptText(text, key: legacyKey)
        _ = try? LegacyCipher.decryptNumber(text, key: legacyKey)
        if let key = try? LegacyKey(base64: text) {
            require(key.base64 == text, "a legacy key's base64 reads back as other text")
        }
    }
    if let route = try? BPTRoute(json: Data(bytes)) {
        _ = route.decrypt(with: legacyKey)
    }
}

private func locationLinks(_ bytes: [UInt8]) {
    guard let text = bytes.utf8Text else { return }
    if let link = try? BPTShareLink(parsing: text) {
        let again = try? BPTShareLink(parsing: link.link)
        require(again?.key.base64 == link.key.base64 && again?.userID == link.userID && again?.username == link.username,
                "a bpt: link written again parses to other fields")
    }
    if let link = try? ParleyLocationLink(parsing: text) {
        let again = try? ParleyLocationLink(parsing: link.link)
        require(again?.owner == link.owner && again?.key.bytes == link.key.bytes && again?.server == link.server && again?.name == link.name,
                "a parley://location link written again parses to other fields")
    }
}

private func locationGPX(_ bytes: [UInt8]) {
    requireStable(bytes, "GPXTrack", decode: { try GPXTrack(gpx: Data($0)) }, encode: { Array($0.gpx.utf8) })
    _ = GPSDReport.waypoint(fromLine: bytes)
    if let text = bytes.utf8Text, let millis = ISO8601Time.parse(text) {
        let written = ISO8601Time.format(millis)
        require(ISO8601Time.parse(written) == millis, "a time written from what was read reads as another time")
    }
}

private func locationV2(_ bytes: [UInt8]) {
    if let text = bytes.utf8Text {
        let binding = WaypointV2.Binding(owner: 1, routeID: 2, timestamp: 3)
        require((try? WaypointV2.open(text, binding: binding, key: locationKey)) == nil, "a v2 value opened under a key the fuzzer does not know")
    }
    requireStable(bytes, "Waypoint", decode: { try Waypoint(compactJSON: $0) }, encode: { Array($0.compactJSON.utf8) })
}

private func locationBPTAnswer(_ bytes: [UInt8]) {
    guard let id = try? BPTCreatedID.parse(json: Data(bytes)) else { return }
    require((1...128).contains(id.utf8.count) && id.utf8.allSatisfy { (0x21...0x7E).contains($0) }, "an id that could not travel in a header passed")
    require((try? BPTCreatedID.check(id)) != nil, "a parsed id fails its own check")
    let object = (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) as? [String: Any]
    require(object?["id"] != nil, "an id came from an answer that is not an object with an id")
    if let text = object?["id"] as? String { require(text == id, "a string id came back changed") }
}
