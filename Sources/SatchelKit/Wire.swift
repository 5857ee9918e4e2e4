#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The params of a call, by name: each member set is sent, each left `nil` is not.
public struct Params: Encodable, Sendable {
    private var members: [(String, any Encodable & Sendable)] = []

    public init() {}

    /// Sends `value` as `name`, unless it is `nil`.
    public mutating func set<Value: Encodable & Sendable>(_ name: String, _ value: Value?) {
        guard let value else { return }
        members.removeAll { $0.0 == name }
        members.append((name, value))
    }

    /// Sends `value` as `name`: `.some(nil)` sends `null` (a deadline cleared), `nil` nothing.
    public mutating func setNullable<Value: Encodable & Sendable>(_ name: String, _ value: Value??) {
        guard let value else { return }
        members.removeAll { $0.0 == name }
        members.append((name, value.map { JSONOrNull.value($0) } ?? JSONOrNull<Value>.null))
    }

    var isEmpty: Bool { members.isEmpty }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        for (name, value) in members { try container.encode(value, forKey: AnyKey(name)) }
    }
}

/// A value or `null`, encoded as such (an optional member would be left out).
private enum JSONOrNull<Value: Encodable & Sendable>: Encodable, Sendable {
    case value(Value)
    case null

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .value(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}

/// An error the server answered with: its code and message (in the session's language), and its data,
/// whose `reason` and `field` say which rule and which param.
public struct ErrorInfo: Sendable, Hashable, Decodable {
    public let code: Int
    public let message: String
    public let data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// Which rule (`emptyTitle`, `notFound`, `syncUnreachable`, …), when the server says.
    public var reason: String? { data?["reason"]?.stringValue }
    /// Which param, when the error is about one.
    public var field: String? { data?["field"]?.stringValue }
}

/// How far long work has got (`export`, `import`, `messages.loadMore`, `sync.now`, `search` catching up).
public struct CallProgress: Sendable, Hashable {
    public let progress: Int
    public let total: Int?
    public let message: String?

    /// `progress` of `total`, when the total is known.
    public var fraction: Double? { total.map { $0 == 0 ? 1 : Double(progress) / Double($0) } }
}

/// Dates as the server writes them: RFC 3339 in UTC, with milliseconds.
enum WireDates {
    static let withMilliseconds = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    static let whole = Date.ISO8601FormatStyle()

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            if let date = try? Date(text, strategy: withMilliseconds) { return date }
            if let date = try? Date(text, strategy: whole) { return date }
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an RFC 3339 date: \(text)"))
        }
        return decoder
    }

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(withMilliseconds))
        }
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }
}
