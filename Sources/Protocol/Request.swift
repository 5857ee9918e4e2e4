/// The parameters of a request: absent, by name, or by position.
public enum Params: Sendable, Equatable {
    case none
    case byName(JSONObject)
    case byPosition([JSONValue])
}

/// A well-formed JSON-RPC request or notification.
public struct Request: Sendable, Equatable {
    /// The id to answer with; `nil` for a notification, which is never answered.
    public var id: RequestID?
    public var method: String
    public var params: Params

    public init(id: RequestID?, method: String, params: Params = .none) {
        self.id = id
        self.method = method
        self.params = params
    }

    /// Whether this is a notification (no `id` member at all).
    public var isNotification: Bool { id == nil }
}
