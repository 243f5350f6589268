import Foundation
import ParleyWire
import Testing

/// The typed prekey uploads and bundles (register, rotate_keys, add_device, ensure_prekeys, get_key_bundle): what the
/// client writes reads back the same, and a bad upload names the field by its path.
@Suite("API: prekeys")
struct PreKeysAPITests {
    static let preKeys = API.PreKeys(
        signed: API.SignedPreKey(id: 1, publicKey: Array(repeating: 1, count: 32), signature: Array(repeating: 2, count: 64)),
        pq: API.SignedPreKey(id: 1, publicKey: Array(repeating: 3, count: 1184), signature: Array(repeating: 4, count: 64)),
        oneTime: [API.OneTimePreKey(id: 7, key: Array(repeating: 5, count: 32)), API.OneTimePreKey(id: 8, key: Array(repeating: 6, count: 32))])

    static func read<T: WireBody>(_ body: T, as type: T.Type = T.self) throws(WireError) -> T {
        try T(from: WireFields(body.fields))
    }

    static func refusal<T: WireBody>(_ fields: [String: JSONValue], as type: T.Type) -> WireError? {
        do { _ = try T(from: WireFields(fields)); return nil } catch { return error }
    }

    @Test("bodies that carry prekeys read back as they were written")
    func roundTrips() throws {
        let register = API.Register.Request(
            email: "ann@example.org", displayName: "Ann", identityKey: Array(repeating: 9, count: 32),
            authKey: Array(repeating: 8, count: 32), preKeys: Self.preKeys,
            proofOfWork: API.ProofOfWorkAnswer(challenge: Array(repeating: 7, count: 32), nonce: 12345))
        #expect(try Self.read(register) == register)
        let rotate = API.RotateKeys.Request(identityKey: Array(repeating: 9, count: 32), authKey: Array(repeating: 8, count: 32), preKeys: Self.preKeys)
        #expect(try Self.read(rotate) == rotate)
        let onlyOneTime = API.EnsurePreKeys.Request(oneTime: Self.preKeys.oneTime)
        #expect(try Self.read(onlyOneTime) == onlyOneTime)
        #expect(onlyOneTime.fields["spk"] == nil)
        let rotatedOnly = API.EnsurePreKeys.Request(signed: Self.preKeys.signed, pq: Self.preKeys.pq)
        #expect(try Self.read(rotatedOnly) == rotatedOnly)
        #expect(rotatedOnly.fields["one_time_prekeys"] == .array([]), "the server requires the field, empty or not")
        let bundle = API.DeviceBundle(deviceID: 2, signed: Self.preKeys.signed, pq: Self.preKeys.pq, oneTime: Self.preKeys.oneTime[0])
        #expect(try Self.read(bundle) == bundle)
        let exhausted = API.DeviceBundle(deviceID: 3, signed: Self.preKeys.signed, pq: Self.preKeys.pq)
        #expect(try Self.read(exhausted) == exhausted)
    }

    @Test("a bundle lists at most as many devices as one message can reach; one more is refused by name")
    func bundleDeviceBound() throws {
        let device = API.DeviceBundle(deviceID: 1, signed: Self.preKeys.signed, pq: Self.preKeys.pq)
        func bundle(_ count: Int) -> API.GetKeyBundle.Response {
            API.GetKeyBundle.Response(accountID: 5, identityKey: Array(repeating: 9, count: 32), devices: Array(repeating: device, count: count))
        }
        #expect(API.maximumListedDevices == API.SendMessage.maximumEnvelopes)
        #expect(try Self.read(bundle(API.maximumListedDevices)).devices.count == API.maximumListedDevices)
        let refused = Self.refusal(bundle(API.maximumListedDevices + 1).fields, as: API.GetKeyBundle.Response.self)
        #expect(refused?.message == "field 'devices' has more than \(API.maximumListedDevices) elements")
    }

    @Test("a bad one-time prekey, a repeated id, a short post-quantum key and a null signed prekey are named")
    func refusals() {
        var fields = Self.preKeys.fields
        fields["one_time_prekeys"] = [["id": 1, "key": .base64(Array(repeating: 0, count: 32))], ["id": 2, "key": "AAAA"]]
        #expect(Self.refusal(fields, as: API.PreKeys.self)?.message == "field 'one_time_prekeys[1].key' must be exactly 32 bytes")
        fields["one_time_prekeys"] = [["id": 1, "key": .base64(Array(repeating: 0, count: 32))], ["id": 1, "key": .base64(Array(repeating: 1, count: 32))]]
        #expect(Self.refusal(fields, as: API.PreKeys.self)?.message == "field 'one_time_prekeys[1]' repeats id 1")
        fields = Self.preKeys.fields
        fields["pqspk"] = .base64(Array(repeating: 0, count: 10))
        #expect(Self.refusal(fields, as: API.PreKeys.self)?.code == .invalidField)
        fields = Self.preKeys.fields
        fields.removeValue(forKey: "one_time_prekeys")
        #expect(Self.refusal(fields, as: API.PreKeys.self)?.code == .missingField)
        #expect(Self.refusal(["one_time_prekeys": [], "spk_id": 2, "spk": .null, "spk_signature": .base64(Array(repeating: 0, count: 64))],
                             as: API.EnsurePreKeys.Request.self)?.message == "field 'spk' must be a string, not null")
        #expect(Self.refusal(["email": "a@b.c", "device_id": 1, "nonce": .base64(Array(repeating: 0, count: 32)),
                              "signature": .base64(Array(repeating: 0, count: 64)), "push_envelopes": .null],
                             as: API.LoginFinish.Request.self)?.message == "field 'push_envelopes' must be true or false, not null")
    }
}
