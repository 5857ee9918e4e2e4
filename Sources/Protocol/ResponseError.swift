/// The `error` member of a JSON-RPC response.
public struct ResponseError: Error, Sendable, Equatable {
    /// The error code.
    public var code: ErrorCode
    /// A short, human-readable description.
    public var message: String
    /// Structured detail for programs (`data.reason`, `data.field`, ...), when there is any.
    public var data: JSONValue?

    public init(code: ErrorCode, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// The error as a JSON object.
    public var json: JSONValue {
        var object: JSONObject = ["code": .integer(Int64(code.rawValue)), "message": .string(message)]
        if let data { object["data"] = data }
        return .object(object)
    }

    /// `reason` is `invalidJSON` or `invalidUTF8`; `detail` says where, for people reading logs.
    public static func parseError(_ message: String = "Parse error", reason: String, detail: String? = nil)
        -> ResponseError
    {
        var data: JSONObject = ["reason": .string(reason)]
        if let detail { data["detail"] = .string(detail) }
        return ResponseError(code: .parseError, message: message, data: .object(data))
    }

    /// `limit`, when given, is the limit the request went past (`data.limit`).
    public static func invalidRequest(_ message: String = "Invalid Request", reason: String? = nil, limit: Int? = nil)
        -> ResponseError
    {
        var data: JSONObject? = reason.map { ["reason": .string($0)] }
        if let limit { data?["limit"] = .integer(Int64(limit)) }
        return ResponseError(code: .invalidRequest, message: message, data: data.map(JSONValue.object))
    }

    public static func methodNotFound(_ method: String, message: String = "Method not found") -> ResponseError {
        ResponseError(code: .methodNotFound, message: message, data: ["method": .string(method)])
    }

    /// A parameter problem: `field` names the parameter (a dotted path for nested members), `expected`
    /// says what would have been accepted.
    public static func invalidParams(field: String, expected: String, message: String = "Invalid params")
        -> ResponseError
    {
        ResponseError(
            code: .invalidParams, message: message,
            data: ["field": .string(field), "expected": .string(expected)])
    }

    public static func internalError(_ message: String = "Internal error") -> ResponseError {
        ResponseError(code: .internalError, message: message)
    }
}
