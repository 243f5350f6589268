import ParleyWire

extension FuzzTarget {
    static let wireAPITargets: [FuzzTarget] = [
        FuzzTarget("wire-api", "the first byte picks a method's request or response or a notification, the rest is its JSON object: each typed body reads or fails with a WireError; what reads writes only its listed fields and reads back to the same value", run: wireAPI),
    ]
}

/// The bodies the selector byte chooses among: every method's request and response, then the notifications.
private let choices = API.methods.count * 2 + 1

private func wireAPI(_ bytes: [UInt8]) {
    guard let (selector, rest) = bytes.selectorAndRest,
          case .object(let object)? = try? JSONParser.parse(rest).value
    else { return }
    let pick = Int(selector) % choices
    if pick == choices - 1 {
        for entry in ServerEvent.catalog { checkEvent(entry.name, object) }
        return
    }
    let method = API.methods[pick / 2]
    if pick % 2 == 0 { checkRequest(method, object) } else { checkResponse(method, object) }
}

private func checkRequest<M: APIMethod>(_ method: M.Type, _ object: [String: JSONValue]) { checkBody(M.Request.self, "\(M.name) request", object) }
private func checkResponse<M: APIMethod>(_ method: M.Type, _ object: [String: JSONValue]) { checkBody(M.Response.self, "\(M.name) response", object) }

/// Reads `object` as `B`; when it reads, its own fields must be listed, survive a JSON line, and read back equal.
private func checkBody<B: WireBody>(_ body: B.Type, _ name: String, _ object: [String: JSONValue]) {
    guard let value = try? B(from: WireFields(object)) else { return }
    let written = value.fields
    let listed = Set(B.fieldNames.map { $0.hasSuffix("?") ? String($0.dropLast()) : $0 })
    require(Set(written.keys).isSubset(of: listed), "\(name) writes a field it does not list")
    guard let line = try? JSONWriter.bytes(.object(written)), case .object(let parsed)? = try? JSONParser.parse(line).value else {
        violated("\(name): what it wrote is not a JSON object")
    }
    guard let again = try? B(from: WireFields(parsed)) else { violated("\(name): what it wrote does not read") }
    require(again == value, "\(name): a write/read round trip changed the value")
}

private func checkEvent(_ name: String, _ object: [String: JSONValue]) {
    guard let event = try? ServerEvent(name: name, fields: object) else { return }
    require(event.name == name, "\(name) read as another event")
    guard let again = try? ServerEvent(name: name, fields: event.fields) else { violated("\(name): what it wrote does not read") }
    require(again == event, "\(name): a write/read round trip changed the event")
}
