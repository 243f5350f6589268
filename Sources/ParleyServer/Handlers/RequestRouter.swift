import ParleyWire

/// What a handler returns: the response fields, and a new identity when it logged the caller in.
public struct HandlerResult: Sendable {
    public var fields: [String: JSONValue]
    public var loggedIn: Caller?

    public init(_ fields: [String: JSONValue] = [:], loggedIn: Caller? = nil) {
        self.fields = fields
        self.loggedIn = loggedIn
    }
}

/// Per-request facts a handler may need beyond the request itself.
public struct RequestEnvironment: Sendable {
    /// The logged-in account and device, if any.
    public var caller: Caller?
    /// The peer's IP address, for per-address lockouts.
    public var remoteAddress: String

    /// The logged-in caller of a method that requires login (the router lets no other request reach it).
    public var account: Caller { caller! }
}

/// Maps method names to handlers and enforces login where a method needs it.
public struct RequestRouter: Sendable {
    typealias Handler = @Sendable (WireRequest, RequestEnvironment, ServerContext) async throws(WireError) -> HandlerResult

    struct Route: Sendable {
        let requiresLogin: Bool
        let handler: Handler
    }

    private var routes: [String: Route] = [:]

    /// An empty router.
    public init() {}

    /// The router with every method this server implements.
    public static var standard: RequestRouter {
        var router = RequestRouter()
        router.add(API.Hello.self) { request, _, _ throws(WireError) in try Hello.answer(request) }
        router.add(API.Ping.self) { _, _, context in API.Ping.Response(time: context.clock.now()) }
        router.add(API.WhoAmI.self) { _, environment, _ in
            API.AccountDevice(accountID: environment.account.accountID, deviceID: environment.account.deviceID)
        }
        AuthHandlers.register(in: &router)
        Recovery.register(in: &router)
        KeyHandlers.register(in: &router)
        ConversationHandlers.register(in: &router)
        MessageRequests.register(in: &router)
        MessageHandlers.register(in: &router)
        GroupHandlers.register(in: &router)
        MessageActionHandlers.register(in: &router)
        ProfileHandlers.register(in: &router)
        FileHandlers.register(in: &router)
        AccountHandlers.register(in: &router)
        DeviceHandlers.register(in: &router)
        AccountDeletion.register(in: &router)
        PairingHandlers.register(in: &router)
        LocationHandlers.register(in: &router)
        return router
    }

    /// Registers `handler` for `method`.
    private mutating func add(_ method: String, requiresLogin: Bool, _ handler: @escaping Handler) {
        routes[method] = Route(requiresLogin: requiresLogin, handler: handler)
    }

    /// Registers the handler of a typed method: the request is read (and refused in words) before the handler
    /// runs, and its typed answer written back.
    public mutating func add<M: APIMethod>(
        _ method: M.Type, _ handler: @escaping @Sendable (M.Request, RequestEnvironment, ServerContext) async throws(WireError) -> M.Response
    ) {
        add(method) { request, environment, context throws(WireError) in (try await handler(request, environment, context), nil) }
    }

    /// Registers the handler of a typed method that may log the caller in.
    public mutating func add<M: APIMethod>(
        _ method: M.Type,
        loggingIn handler: @escaping @Sendable (M.Request, RequestEnvironment, ServerContext) async throws(WireError) -> (M.Response, Caller?)
    ) {
        add(M.name, requiresLogin: M.requiresLogin) { request, environment, context throws(WireError) in
            let typed = try M.Request(from: request.body)
            let (response, loggedIn) = try await handler(typed, environment, context)
            return HandlerResult(response.fields, loggedIn: loggedIn)
        }
    }

    /// The method names served.
    public var methods: [String] { routes.keys.sorted() }

    /// Runs one request and returns what to write back.
    public func handle(_ request: WireRequest, environment: RequestEnvironment, context: ServerContext) async -> (WireMessage, Caller?) {
        let started = ContinuousClock.now
        let answer = await route(request, environment: environment, context: context)
        // Only methods this server knows become a label: a client cannot grow the metrics with made-up names.
        let method = routes[request.method] == nil ? "unknown" : request.method
        var errorCode: String?
        if case .failure(_, let error) = answer.0 { errorCode = error.code.rawValue }
        ServerMetrics.request(method: method, duration: ContinuousClock.now - started, errorCode: errorCode)
        return answer
    }

    private func route(_ request: WireRequest, environment: RequestEnvironment, context: ServerContext) async -> (WireMessage, Caller?) {
        guard let route = routes[request.method] else {
            return (.failure(requestID: request.requestID, error: WireError(.unknownMethod, "unknown method '\(String(request.method.prefix(64)))'")), nil)
        }
        if route.requiresLogin, environment.caller == nil {
            return (.failure(requestID: request.requestID, error: WireError(.unauthenticated, "log in first (login_start, login_finish)")), nil)
        }
        do {
            let result = try await route.handler(request, environment, context)
            return (.success(requestID: request.requestID, fields: result.fields), result.loggedIn)
        } catch {
            return (.failure(requestID: request.requestID, error: error), nil)
        }
    }
}
