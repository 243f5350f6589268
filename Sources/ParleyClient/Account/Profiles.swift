import Foundation
import ParleyWire

/// Who may see a profile field (the server enforces it).
public enum FieldVisibility: String, Sendable, Codable, CaseIterable {
    case everyone, contacts, nobody
}

/// A profile as the caller may see it.
public struct Profile: Sendable, Equatable, Codable {
    /// The account.
    public let accountID: Int64
    /// The display name.
    public let displayName: String?
    /// Visible fields (`username`, `email`, `phone`, `location`) and their values.
    public let fields: [String: String]
    /// Who sees each field — in your own profile only (the server tells the owner alone).
    public var visibility: [String: FieldVisibility]? = nil
}

/// Profiles (docs/CLIENT.md): this account's name and fields with their visibility, others' profiles as they show
/// them, and the people this device knows with the identity key last seen for each.
public struct Profiles: Sendable {
    typealias Dependencies = HasServer & HasAccount & HasDatabase & Sendable
    let dependencies: any Dependencies

    /// The fields a profile has (docs/API.md §7), as the server takes them.
    public static var fieldNames: Set<String> { API.UpdateProfile.fieldNames }

    /// Sets the display name and/or fields with their visibility; an empty value removes a field.
    public func update(displayName: String? = nil, fields: [String: (value: String, visibility: FieldVisibility)] = [:]) async throws(ClientError) {
        let request = API.UpdateProfile.Request(displayName: displayName, profileFields: fields.mapValues {
            API.OwnField(value: $0.value, visibility: API.Visibility(rawValue: $0.visibility.rawValue) ?? .nobody)
        })
        _ = try await dependencies.server.call(API.UpdateProfile.self, request)
        if let displayName { try await dependencies.account.rememberDisplayName(displayName) }
    }

    /// Someone's profile (our own shows every field).
    public func of(_ accountID: Int64? = nil) async throws(ClientError) -> Profile {
        let id: Int64
        let me = try await dependencies.account.confirmedAccountID()
        if let accountID { id = accountID } else { id = me }
        let answer = try await dependencies.server.call(API.GetProfile.self, .init(accountID: id))
        var fields = answer.shown
        var visibility: [String: FieldVisibility] = [:]
        for (name, own) in answer.own {
            fields[name] = own.value
            visibility[name] = FieldVisibility(rawValue: own.visibility.rawValue)
        }
        var profile = Profile(accountID: id, displayName: answer.displayName, fields: fields)
        if !visibility.isEmpty { profile.visibility = visibility }
        if id != me { try ContactBook(dependencies: dependencies).remember(Contact(accountID: id, email: fields["email"], displayName: profile.displayName)) }
        return profile
    }

    /// Everyone this device has talked to, with the identity key last seen for each.
    public func contacts() throws(ClientError) -> [(contact: Contact, identityKey: [UInt8]?)] {
        let known = try dependencies.database.read { try $0.all(Namespace.contact) }
        var out: [(contact: Contact, identityKey: [UInt8]?)] = []
        for entry in known {
            guard let contact = try? JSONDecoder().decode(Contact.self, from: Data(entry.value)) else { continue }
            let key = try dependencies.database.read { try $0.get(Namespace.identity, String(contact.accountID)) }
            out.append((contact, key))
        }
        return out.sorted { $0.contact.accountID < $1.contact.accountID }
    }
}
