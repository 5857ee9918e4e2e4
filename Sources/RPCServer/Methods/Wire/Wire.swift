import Domain
import Protocol

// What every entity's wire form (the `*+Wire.swift` files beside this one) is made of. An entity is
// written straight into the output, member by member, so a hot path builds no value tree. Its element in
// an export is `ExchangeWriter`'s (sorted keys, streamed); a test checks that against `ExchangeDocument`.

extension JSONWriter {
    mutating func write(timestamp milliseconds: Int64) {
        writeDirectly(maximum: 26) { destination in
            destination[0] = UInt8(ascii: "\"")
            Timestamp.write(milliseconds: milliseconds, to: destination + 1)
            destination[25] = UInt8(ascii: "\"")
            return 26
        }
    }

    mutating func write(optionalTimestamp milliseconds: Int64?) {
        if let milliseconds { write(timestamp: milliseconds) } else { writeRaw("null") }
    }

    /// `,"createdAt":…,"updatedAt":…,"revision":…`, the members every editable entity has (``Schema/stamps``).
    mutating func write(createdAt: Int64, updatedAt: Int64, revision: Int64) {
        writeRaw(",\"createdAt\":"); write(timestamp: createdAt)
        writeRaw(",\"updatedAt\":"); write(timestamp: updatedAt)
        writeRaw(",\"revision\":"); write(integer: revision)
    }

    /// `[item, …]`, each item written by `element`.
    mutating func write<Item>(array items: [Item], _ element: (inout JSONWriter, Item) -> Void) {
        writeByte(UInt8(ascii: "["))
        for (index, item) in items.enumerated() {
            if index > 0 { writeByte(UInt8(ascii: ",")) }
            element(&self, item)
        }
        writeByte(UInt8(ascii: "]"))
    }

    /// `"items":[…],"nextCursor":…`: a page's members, left open for a list that answers more.
    mutating func write<Item>(pageMembers page: Page<Item>, _ element: (inout JSONWriter, Item) -> Void) {
        writeRaw("\"items\":")
        write(array: page.items, element)
        writeRaw(",\"nextCursor\":")
        write(optionalString: page.nextCursor)
    }
}

extension Page {
    /// `{items, nextCursor}`, written in one go.
    func json(_ element: (inout JSONWriter, Item) -> Void) -> JSONValue {
        .encoded(
            EncodedJSON(capacity: 64 + 256 * items.count) { writer in
                writer.writeByte(UInt8(ascii: "{"))
                writer.write(pageMembers: self, element)
                writer.writeByte(UInt8(ascii: "}"))
            })
    }
}

extension Schema {
    /// `createdAt`, `updatedAt` and `revision`, as ``JSONWriter/write(createdAt:updatedAt:revision:)`` writes them.
    static let stamps: [(String, JSONValue)] = [
        ("createdAt", timestamp), ("updatedAt", timestamp), ("revision", integer(minimum: 1)),
    ]

    /// An object whose members are always all there (an entity as it is written), but for `optional` ones.
    static func object(allRequired properties: [(String, JSONValue)], except optional: Set<String> = []) -> JSONValue {
        object(properties, required: properties.map(\.0).filter { !optional.contains($0) })
    }
}

extension ParamValues {
    /// `limit` and `cursor`.
    var pageRequest: PageRequest {
        PageRequest(limit: integer("limit").map { Int($0) } ?? PageRequest.defaultLimit, cursor: string("cursor"))
    }

    /// A timestamp param already checked to be RFC 3339, as milliseconds.
    func timestamp(_ name: String) -> Int64? {
        string(name).flatMap(Timestamp.parse)
    }

    /// A param that `null` clears: `nil` when it is not given (no change), `.some(nil)` for `null`.
    func change<Value>(_ name: String, _ value: (String) -> Value?) -> Value?? {
        contains(name) ? .some(value(name)) : nil
    }
}
