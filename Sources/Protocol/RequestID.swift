/// A JSON-RPC request id: a string, an integer, or `null`.
public enum RequestID: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case integer(Int64)
    case null

    /// The id in `value`, or `nil` when `value` is not an acceptable id (a fraction, a bool, a container).
    public init?(_ value: JSONValue) {
        switch value {
        case .string(let text): self = .string(text)
        case .integer(let number): self = .integer(number)
        case .null: self = .null
        default: return nil
        }
    }

    /// The id as a JSON value.
    public var json: JSONValue {
        switch self {
        case .string(let text): return .string(text)
        case .integer(let number): return .integer(number)
        case .null: return .null
        }
    }

    public var description: String { json.description }
}
