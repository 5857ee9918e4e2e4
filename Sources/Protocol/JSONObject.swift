/// The members of a JSON object, in the order they were written.
///
/// Small objects (the usual case on the wire) are searched linearly, which beats hashing for a handful of
/// keys; a key that appears twice keeps its last value, as most JSON readers do.
public struct JSONObject: Sendable, Hashable, Sequence {
    /// One member: a key and its value.
    public typealias Member = (key: String, value: JSONValue)

    @usableFromInline var keys: [String]
    @usableFromInline var values: [JSONValue]

    /// An empty object.
    @inlinable public init() {
        keys = []
        values = []
    }

    /// An object of these members; a repeated key keeps its last value in the first key's place.
    public init(_ members: some Sequence<(String, JSONValue)>) {
        self.init()
        for (key, value) in members { self[key] = value }
    }

    @inlinable init(uncheckedKeys keys: [String], values: [JSONValue]) {
        self.keys = keys
        self.values = values
    }

    /// How many members there are.
    @inlinable public var count: Int { keys.count }

    /// Whether there are no members.
    @inlinable public var isEmpty: Bool { keys.isEmpty }

    /// The keys, in order.
    @inlinable public var orderedKeys: [String] { keys }

    /// The value for `key`, or `nil`; setting `nil` removes the member.
    @inlinable public subscript(key: String) -> JSONValue? {
        get {
            guard let index = keys.firstIndex(of: key) else { return nil }
            return values[index]
        }
        set {
            if let index = keys.firstIndex(of: key) {
                if let newValue {
                    values[index] = newValue
                } else {
                    keys.remove(at: index)
                    values.remove(at: index)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    /// Whether a member named `key` is present (even when its value is `null`).
    @inlinable public func contains(_ key: String) -> Bool { keys.contains(key) }

    public func makeIterator() -> some IteratorProtocol<Member> {
        zip(keys, values).lazy.map { (key: $0.0, value: $0.1) }.makeIterator()
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (key, value) in zip(lhs.keys, lhs.values) where rhs[key] != value { return false }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent, to agree with `==`.
        var combined = 0
        for (key, value) in zip(keys, values) {
            var member = Hasher()
            member.combine(key)
            member.combine(value)
            combined ^= member.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}
