/// What an entity id may be wherever it comes from (a method makes ids of the form `note_01jd…`; an import
/// or another device may bring others): 1 to 128 bytes of UTF-8, without "/" (a vote's id joins a post's
/// and an account's with one), white space or control characters. PostgreSQL's `satchel.valid_id` holds
/// pushes to the same.
public enum EntityID {
    public static let maximumBytes = 128

    /// The kinds of id the methods make (`note_…`, `photo_…`, …), one per kind of entity.
    public static let kinds = ["note", "photo", "img", "post", "rem", "msg", "bp"]

    /// Whether `id` is a valid id for an entity of `kind`: valid, and not of the form of another kind's ids
    /// (an imported or synced note cannot take an id that reads `photo_…`).
    public static func isValid(_ id: String, kind: String) -> Bool {
        isValid(id) && !kinds.contains { $0 != kind && id.utf8.starts(with: ($0 + "_").utf8) }
    }

    public static func isValid(_ id: String) -> Bool {
        guard (1...maximumBytes).contains(id.utf8.count) else { return false }
        // The usual id is ASCII: its bytes alone say it (Unicode's tables only for the rest).
        if id.utf8.allSatisfy({ $0 < 0x80 }) { return id.utf8.allSatisfy { $0 > 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "/") } }
        return !id.unicodeScalars.contains { $0 == "/" || $0.properties.isWhitespace || $0.properties.generalCategory == .control }
    }
}
