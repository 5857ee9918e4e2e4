/// A JSON-RPC error code. Open: servers add their own codes as static members in extensions.
public struct ErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Invalid JSON was received (or the bytes were not UTF-8).
    public static let parseError = ErrorCode(rawValue: -32700)
    /// The JSON sent is not a valid Request object (or a line was too long, or nested too deeply).
    public static let invalidRequest = ErrorCode(rawValue: -32600)
    /// The method does not exist.
    public static let methodNotFound = ErrorCode(rawValue: -32601)
    /// Invalid method parameters.
    public static let invalidParams = ErrorCode(rawValue: -32602)
    /// An internal error: a bug in the server.
    public static let internalError = ErrorCode(rawValue: -32603)

    public var description: String { String(rawValue) }
}
