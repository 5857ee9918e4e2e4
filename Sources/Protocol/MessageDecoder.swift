/// One entry of an incoming message: what a line (or one element of a batch) turned out to be.
public enum IncomingCall: Sendable, Equatable {
    /// A valid request or notification.
    case request(Request)
    /// Not a valid Request object: answered with `error`, under the id that could be recovered (or `null`).
    case invalid(RequestID, ResponseError)
    /// A response object (`result` or `error` without `method`): a client answering one of our own requests,
    /// with its `result` (`nil` when it answered with an error). Nothing answers it.
    case response(RequestID, result: JSONValue?)
}

/// What one line of input holds.
public enum IncomingMessage: Sendable, Equatable {
    /// A single request, notification or invalid object.
    case single(IncomingCall)
    /// A non-empty batch, answered with an array of the non-notification responses.
    case batch([IncomingCall])
    /// The line as a whole cannot be taken: answered with this one error and `id: null`.
    case rejected(ResponseError)
}

/// Turns a line of bytes into JSON-RPC 2.0 calls, applying every rule of the specification.
public struct MessageDecoder: Sendable {
    /// The most entries a batch may have.
    public var maximumBatchEntries: Int
    /// How much memory the parsed value of one line may take (as ``JSONParser/Cost`` estimates it).
    public var maximumValueBytes: Int

    /// The parsed value of a message may take this many times the longest message's size: with the line
    /// itself, parsing a message of the longest size then takes at most 3.5 times its size.
    public static let valueBytesPerMessageByte = 2.5
    /// The value budget for messages of up to `maximumMessageBytes` bytes; never below 1 MiB, so small
    /// limits do not turn away ordinary requests.
    public static func maximumValueBytes(forMessagesUpTo maximumMessageBytes: Int) -> Int {
        max(Int(Double(maximumMessageBytes) * valueBytesPerMessageByte), 1 << 20)
    }

    /// A decoder for messages of up to `maximumMessageBytes` (32 MiB, the server's default).
    public init(maximumBatchEntries: Int = 1000, maximumMessageBytes: Int = 32 << 20) {
        self.maximumBatchEntries = maximumBatchEntries
        self.maximumValueBytes = Self.maximumValueBytes(forMessagesUpTo: maximumMessageBytes)
    }

    /// Decodes one line: parse errors and invalid UTF-8 are `-32700`; nesting too deep, a value past the
    /// memory budget, an empty or oversized batch `-32600`.
    public func decode(_ line: UnsafeRawBufferPointer) -> IncomingMessage {
        // The usual request is read without a value tree for its envelope (a third of a `ping`'s work);
        // whatever that way does not take is decoded in full, with the same outcome.
        if let request = JSONParser.request(line, maximumValueBytes: maximumValueBytes) {
            return .single(.request(request))
        }
        return decodeInFull(line)
    }

    /// ``decode(_:)-(UnsafeRawBufferPointer)`` the general way only: the line parsed into a value, then validated.
    func decodeInFull(_ line: UnsafeRawBufferPointer) -> IncomingMessage {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line, maximumValueBytes: maximumValueBytes)
        } catch {
            switch error.kind {
            case .tooDeep:
                return .rejected(.invalidRequest(reason: "tooDeep"))
            case .tooComplex:
                return .rejected(.invalidRequest(reason: "tooComplex", limit: maximumValueBytes))
            case .invalidUTF8:
                return .rejected(.parseError(reason: "invalidUTF8", detail: error.description))
            case .syntax:
                return .rejected(.parseError(reason: "invalidJSON", detail: error.description))
            }
        }
        return decode(value)
    }

    /// Decodes an already-parsed JSON value.
    public func decode(_ value: JSONValue) -> IncomingMessage {
        switch value {
        case .array(let elements):
            if elements.isEmpty { return .rejected(.invalidRequest(reason: "emptyBatch")) }
            if elements.count > maximumBatchEntries { return .rejected(.invalidRequest(reason: "batchTooLarge")) }
            return .batch(elements.map(Self.call))
        default:
            return .single(Self.call(value))
        }
    }

    /// Validates one Request object.
    public static func call(_ value: JSONValue) -> IncomingCall {
        guard case .object(let object) = value else {
            return .invalid(.null, .invalidRequest(reason: "notAnObject"))
        }
        var id: RequestID? = nil
        if let rawID = object["id"] {
            guard let valid = RequestID(rawID) else {
                return .invalid(.null, .invalidRequest(reason: "invalidId"))
            }
            id = valid
        }
        guard case .string("2.0")? = object["jsonrpc"] else {
            return .invalid(id ?? .null, .invalidRequest(reason: "invalidVersion"))
        }
        guard let methodValue = object["method"] else {
            if let id, object.contains("result") || object.contains("error") {
                return .response(id, result: object.contains("error") ? nil : object["result"])
            }
            return .invalid(id ?? .null, .invalidRequest(reason: "missingMethod"))
        }
        guard case .string(let method) = methodValue else {
            return .invalid(id ?? .null, .invalidRequest(reason: "invalidMethod"))
        }
        let params: Params
        switch object["params"] {
        case nil: params = .none
        case .object(let named)?: params = .byName(named)
        case .array(let positional)?: params = .byPosition(positional)
        default: return .invalid(id ?? .null, .invalidRequest(reason: "invalidParams"))
        }
        return .request(Request(id: id, method: method, params: params))
    }
}
