/// The members of a JSON object, in the order they were written.
///
/// Small objects (the usual case on the wire) are searched linearly, which beats hashing for a handful of
/// keys; a key that appears twice keeps its last value, as most JSON readers do.
public struct JSONObject: Sendable, Hashable, Sequence {
    /// One member: a key and its value.
    public typealias Member = (key: String, value: JSONValue)

    @usableFromInline var members: [Member]

    /// An empty object.
    @inlinable public init() {
        members = []
    }

    /// An object of these members; a repeated key keeps its last value in the first key's place.
    public init(_ members: some Sequence<(String, JSONValue)>) {
        self.init()
        for (key, value) in members { self[key] = value }
    }

    /// Members whose keys are known to be distinct (the parser checks as it goes).
    @inlinable init(uniqueMembers members: [Member]) {
        self.members = members
    }

    /// How many members there are.
    @inlinable public var count: Int { members.count }

    /// Whether there are no members.
    @inlinable public var isEmpty: Bool { members.isEmpty }

    /// The keys, in order.
    public var orderedKeys: [String] { members.map(\.key) }

    @inlinable func index(of key: String) -> Int? {
        members.firstIndex { $0.key == key }
    }

    /// The value for `key`, or `nil`; setting `nil` removes the member.
    @inlinable public subscript(key: String) -> JSONValue? {
        get {
            guard let index = index(of: key) else { return nil }
            return members[index].value
        }
        set {
            if let index = index(of: key) {
                if let newValue {
                    members[index].value = newValue
                } else {
                    members.remove(at: index)
                }
            } else if let newValue {
                members.append((key, newValue))
            }
        }
    }

    /// Whether a member named `key` is present (even when its value is `null`).
    @inlinable public func contains(_ key: String) -> Bool { index(of: key) != nil }

    public func makeIterator() -> IndexingIterator<[Member]> {
        members.makeIterator()
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (key, value) in lhs.members where rhs[key] != value { return false }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent, to agree with `==`.
        var combined = 0
        for (key, value) in members {
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
    /// A literal's keys are distinct (checked in debug builds), so they are taken as they are.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        assert(Set(elements.map(\.0)).count == elements.count, "duplicate key in a JSON object literal")
        self.init(uniqueMembers: elements.map { (key: $0.0, value: $0.1) })
    }
}
