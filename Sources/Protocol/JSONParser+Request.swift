extension JSONParser {
    /// The usual request read straight into a ``Request``, without a value tree for its envelope: one object
    /// of the members `jsonrpc` (exactly `"2.0"`), `method` (a string), and optionally `id` (a string, an
    /// integer or `null`) and `params` (an object or an array), each once, their names written without
    /// escapes. Anything else (another member, a repeated one, a value of another kind, any error) is `nil`,
    /// and the caller decodes the line the general way, which says what is wrong; so the two ways never
    /// disagree. `params` is parsed and charged against `maximumValueBytes` as the general way does.
    static func request(_ bytes: UnsafeRawBufferPointer, maximumValueBytes: Int) -> Request? {
        let buffer = bytes.bindMemory(to: UInt8.self)
        guard buffer.baseAddress != nil, !buffer.isEmpty, UTF8Validation.firstInvalidOffset(in: buffer) == nil else {
            return nil
        }
        var parser = JSONParser(buffer: buffer, maximumDepth: defaultMaximumDepth, maximumValueBytes: maximumValueBytes)
        do {
            return try parser.parseRequest()
        } catch {
            return nil
        }
    }

    /// The envelope's member names, as bits of a set.
    private enum EnvelopeName: UInt8 {
        case jsonrpc = 1, id = 2, method = 4, params = 8
    }

    private mutating func parseRequest() throws(JSONParseError) -> Request? {
        skipWhitespace()
        guard position < count, buffer[position] == UInt8(ascii: "{") else { return nil }
        position += 1
        // What the general way charges for the envelope object, so that `params` meets the same budget.
        try charge(Cost.storage + 4 * Cost.member)
        var seen: UInt8 = 0
        var id: RequestID? = nil
        var method: String? = nil
        var params = Params.none
        skipWhitespace()
        while true {
            guard let name = envelopeName(), seen & name.rawValue == 0 else { return nil }
            seen |= name.rawValue
            skipWhitespace()
            guard position < count, buffer[position] == UInt8(ascii: ":") else { return nil }
            position += 1
            skipWhitespace()
            guard position < count else { return nil }
            switch name {
            case .jsonrpc:
                guard position + 5 <= count, buffer[position] == UInt8(ascii: "\""),
                    buffer[position + 1] == UInt8(ascii: "2"), buffer[position + 2] == UInt8(ascii: "."),
                    buffer[position + 3] == UInt8(ascii: "0"), buffer[position + 4] == UInt8(ascii: "\"")
                else { return nil }
                position += 5
            case .id:
                guard let valid = RequestID(try parseValue(depth: 1)) else { return nil }
                id = valid
            case .method:
                guard buffer[position] == UInt8(ascii: "\"") else { return nil }
                method = try parseString()
            case .params:
                switch buffer[position] {
                case UInt8(ascii: "{"):
                    guard case .object(let named) = try parseValue(depth: 1) else { return nil }
                    params = .byName(named)
                case UInt8(ascii: "["):
                    guard case .array(let positional) = try parseValue(depth: 1) else { return nil }
                    params = .byPosition(positional)
                default:
                    return nil
                }
            }
            skipWhitespace()
            guard position < count else { return nil }
            if buffer[position] == UInt8(ascii: "}") {
                position += 1
                break
            }
            guard buffer[position] == UInt8(ascii: ",") else { return nil }
            position += 1
            skipWhitespace()
        }
        skipWhitespace()
        guard position == count, let method, seen & EnvelopeName.jsonrpc.rawValue != 0 else { return nil }
        return Request(id: id, method: method, params: params)
    }

    /// The member name at `position` when it is one of the envelope's, written without escapes (and the
    /// position after it), else `nil`.
    private mutating func envelopeName() -> EnvelopeName? {
        guard position < count, buffer[position] == UInt8(ascii: "\"") else { return nil }
        let start = position + 1
        let end = JSONStringBytes.firstSpecial(in: buffer, from: start, count: count)
        guard end - start <= 7, end < count, buffer[end] == UInt8(ascii: "\"") else { return nil }
        let name: EnvelopeName
        switch Self.load(UnsafeBufferPointer(start: buffer + start, count: end - start), readable: count - start) {
        case Word.jsonrpc: name = .jsonrpc
        case Word.id: name = .id
        case Word.method: name = .method
        case Word.params: name = .params
        default: return nil
        }
        position = end + 1
        return name
    }
}
