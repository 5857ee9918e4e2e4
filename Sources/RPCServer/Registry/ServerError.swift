import Domain
import Protocol

extension ErrorCode {
    /// A domain object does not exist.
    static let notFound = ErrorCode(rawValue: -32001)
    /// The input breaks a domain rule.
    static let validationFailed = ErrorCode(rawValue: -32002)
    /// The free edition's limit is reached.
    static let freeLimitReached = ErrorCode(rawValue: -32003)
    /// The upstream message feed is unavailable.
    static let upstreamUnavailable = ErrorCode(rawValue: -32004)
    /// The database failed (disk full, read-only, locked past the busy timeout).
    static let storageFailure = ErrorCode(rawValue: -32005)
    /// `ifRevision` did not match.
    static let revisionConflict = ErrorCode(rawValue: -32006)
    /// The server is shutting down.
    static let shuttingDown = ErrorCode(rawValue: -32007)
    /// The client cancelled the request (`notifications/cancelled`), as LSP's code says.
    static let requestCancelled = ErrorCode(rawValue: -32800)
    /// The MCP protocol version a request names is not one the server speaks (MCP's code, from 2026-07-28).
    static let unsupportedProtocolVersion = ErrorCode(rawValue: -32022)
}

/// An error the server answers with: a code, a message key for the session's language, and data.
///
/// Handlers throw these (or domain errors, which are translated into these in one place), and the
/// dispatcher turns them into a ``ResponseError`` in the caller's language.
struct ServerError: Error {
    var code: ErrorCode
    var key: MessageKey
    var arguments: [String: String] = [:]
    var data: JSONValue?

    /// The wire form, with the message in `language`.
    func response(in language: Language) -> ResponseError {
        ResponseError(code: code, message: ProtocolMessages.text(key, language, arguments: arguments), data: data)
    }

    static func invalidParams(_ mismatch: SchemaValidator.Mismatch) -> ServerError {
        if mismatch.unknown { return unknownParam(mismatch.field, expectedPhrase: mismatch.expected) }
        if mismatch.missing { return missingParam(mismatch.field, expected: mismatch.expected) }
        return invalidParam(mismatch.field, expected: mismatch.expected)
    }

    static func invalidParam(_ field: String, expected: String) -> ServerError {
        ServerError(
            code: .invalidParams, key: "invalidParams", arguments: ["field": field, "expected": expected],
            data: ["field": .string(field), "expected": .string(expected)])
    }

    static func missingParam(_ field: String, expected: String) -> ServerError {
        ServerError(
            code: .invalidParams, key: "missingParam", arguments: ["field": field],
            data: ["field": .string(field), "expected": .string(expected)])
    }

    static func unknownParam(_ field: String, known: [String]) -> ServerError {
        let expected = known.isEmpty ? "no parameters" : "one of: " + known.joined(separator: ", ")
        return unknownParam(field, expectedPhrase: expected)
    }

    private static func unknownParam(_ field: String, expectedPhrase: String) -> ServerError {
        ServerError(
            code: .invalidParams, key: "unknownParam", arguments: ["field": field],
            data: ["field": .string(field), "expected": .string(expectedPhrase)])
    }

    static func tooManyParams(limit: Int) -> ServerError {
        let most = SchemaValidator.count(Int64(limit), "positional parameter", "positional parameters")
        return ServerError(
            code: .invalidParams, key: "tooManyParams", arguments: ["limit": String(limit)],
            data: ["field": "params", "expected": .string("at most \(most)")])
    }

    static func methodNotFound(_ method: String) -> ServerError {
        ServerError(
            code: .methodNotFound, key: "methodNotFound", arguments: ["method": method],
            data: ["method": .string(method)])
    }

    static let shuttingDown = ServerError(
        code: .shuttingDown, key: "shuttingDown", data: ["reason": "shuttingDown"])

    static let requestCancelled = ServerError(
        code: .requestCancelled, key: "requestCancelled", data: ["reason": "cancelled"])

    static let internalError = ServerError(code: .internalError, key: "internalError")

    /// `data: {supported, requested}`, as MCP's clients read it to pick a version and ask again.
    static func unsupportedProtocolVersion(_ requested: String) -> ServerError {
        ServerError(
            code: .unsupportedProtocolVersion, key: "unsupportedProtocolVersion",
            arguments: ["requested": requested, "supported": MCPProtocol.supportedVersions.joined(separator: ", ")],
            data: [
                "supported": .array(MCPProtocol.supportedVersions.map { .string($0) }), "requested": .string(requested),
            ])
    }
}
