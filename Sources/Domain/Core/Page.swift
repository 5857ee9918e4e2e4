/// One page of a list: the items and the cursor of the next page (`nil` after the last).
public struct Page<Item> {
    public var items: [Item]
    public var nextCursor: String?

    public init(items: [Item], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }

    /// The most bytes of text the items of one page hold: a page of large items (notes of a million
    /// characters) stops early, before its `limit`, and `nextCursor` goes on from there; an item larger
    /// than this is a page of its own. So no page's answer grows past a few megabytes.
    public static var byteBudget: Int { 4 << 20 }

    /// A keyset page read from `statement` (run with `values`, ending in `LIMIT limit + 1`): `row` makes
    /// each row's item, sort key and size in bytes. Rows are read until the page is full or, once it holds
    /// an item, the next would take its items past ``byteBudget`` (then that row, as the extra row does,
    /// only says another page follows).
    init(
        keyset statement: Prepared, _ values: [SQLValue], limit: Int, id: (Item) -> String,
        row: (Statement) throws -> (item: Item, key: Int64, bytes: Int)
    ) throws {
        var rows: [(item: Item, key: Int64)] = []
        var bytes = 0
        var full = false
        try statement.readRows(values) { statement in
            let read = try row(statement)
            bytes += read.bytes
            if !rows.isEmpty && bytes > Self.byteBudget {
                full = true
                return false
            }
            rows.append((read.item, read.key))
            return rows.count <= limit
        }
        if full {
            let last = rows.last.map { KeysetCursor.make(key: $0.key, id: id($0.item)) }
            self.init(items: rows.map(\.item), nextCursor: last)
        } else {
            self.init(keyset: rows, limit: limit, id: id)
        }
    }

    /// A page from rows read with `LIMIT limit + 1`: the extra row, if there, only says another page
    /// follows, and the cursor names the last row kept by its sort key and id.
    init(keyset rows: [(item: Item, key: Int64)], limit: Int, id: (Item) -> String) {
        var rows = rows
        let more = rows.count > limit
        if more { rows.removeLast() }
        self.items = rows.map(\.item)
        self.nextCursor = more ? rows.last.map { KeysetCursor.make(key: $0.key, id: id($0.item)) } : nil
    }
}

/// The parameters every list takes.
public struct PageRequest: Sendable {
    /// 1...500; the server's schema enforces the range.
    public var limit: Int
    public var cursor: String?

    public static let defaultLimit = 50
    public static let maximumLimit = 500

    public init(limit: Int = PageRequest.defaultLimit, cursor: String? = nil) {
        self.limit = limit
        self.cursor = cursor
    }
}

/// Opaque keyset cursors: a (sort key, id) pair written as `<key>~<id>` in base64url, so clients cannot
/// mistake them for anything they should build themselves.
enum KeysetCursor {
    static func make(key: Int64, id: String) -> String {
        base64URL(Array("\(key)~\(id)".utf8))
    }

    /// The (key, id) pair in `cursor`; throws `-32602` on anything that is not one of ours.
    static func read(_ cursor: String) throws(DomainError) -> (key: Int64, id: String) {
        guard let bytes = decodeBase64URL(cursor), let text = String(validating: bytes, as: UTF8.self),
            let separator = text.firstIndex(of: "~"), let key = Int64(text[..<separator])
        else { throw DomainError.invalidArgument(field: "cursor", expected: "a cursor returned by this list") }
        let id = String(text[text.index(after: separator)...])
        guard !id.isEmpty else {
            throw DomainError.invalidArgument(field: "cursor", expected: "a cursor returned by this list")
        }
        return (key, id)
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func base64URL(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value: UInt32 = 0
            for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << (16 - 8 * UInt32(offset)) }
            let characters = chunk.count + 1
            for position in 0..<characters {
                output.append(alphabet[Int((value >> (18 - 6 * UInt32(position))) & 63)])
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    static func decodeBase64URL(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        for byte in text.utf8 {
            guard let index = alphabet.firstIndex(of: byte) else { return nil }
            values.append(UInt8(index))
        }
        guard values.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        var index = 0
        while index < values.count {
            let chunk = values[index..<min(index + 4, values.count)]
            var value: UInt32 = 0
            for (offset, sextet) in chunk.enumerated() { value |= UInt32(sextet) << (18 - 6 * UInt32(offset)) }
            for position in 0..<(chunk.count - 1) {
                output.append(UInt8((value >> (16 - 8 * UInt32(position))) & 0xFF))
            }
            index += 4
        }
        return output
    }
}
