/// Why a byte sequence is not an acceptable JSON text.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of failure, each mapping to one JSON-RPC error code.
    public enum Kind: Sendable, Equatable {
        /// The bytes are not valid UTF-8.
        case invalidUTF8
        /// The text breaks the JSON grammar (including lone surrogate escapes).
        case syntax
        /// Arrays and objects are nested deeper than the parser's limit.
        case tooDeep
        /// The value would take more memory than the parser may spend on it (many tiny values).
        case tooComplex
    }

    /// What went wrong.
    public let kind: Kind
    /// The byte offset at which it was found.
    public let offset: Int
    /// A short English explanation, for logs.
    public let detail: String

    public init(_ kind: Kind, at offset: Int, _ detail: String) {
        self.kind = kind
        self.offset = offset
        self.detail = detail
    }

    public var description: String { "\(detail) at byte \(offset)" }
}
