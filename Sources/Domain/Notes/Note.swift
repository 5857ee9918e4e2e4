/// A text note of ENotes.
public struct Note: Sendable, Equatable {
    public var id: String
    public var title: String
    public var content: String
    public var color: HSBColor
    /// Milliseconds since 1970, or `nil` for no deadline.
    public var deadline: Int64?
    public var createdAt: Int64
    public var updatedAt: Int64
    public var revision: Int64

    /// The longest title, in characters.
    public static let maximumTitleLength = 500
    /// The longest content, in characters.
    public static let maximumContentLength = 1_000_000
}

/// What `notes.create` asks for.
public struct NoteDraft: Sendable {
    public var title: String
    public var content: String
    public var color: HSBColor
    public var deadline: Int64?

    public init(title: String = "", content: String = "", color: HSBColor = .white, deadline: Int64? = nil) {
        self.title = title
        self.content = content
        self.color = color
        self.deadline = deadline
    }
}

/// What `notes.update` changes; `nil` members stay as they are.
public struct NoteChanges: Sendable {
    public var title: String?
    public var content: String?
    public var color: HSBColor?
    /// `.some(nil)` clears the deadline.
    public var deadline: Int64??

    public init(title: String? = nil, content: String? = nil, color: HSBColor? = nil, deadline: Int64?? = nil) {
        self.title = title
        self.content = content
        self.color = color
        self.deadline = deadline
    }
}

/// The bounds of every text a person writes (docs/protocol.md, "Conventions"): a field holds at most its
/// number of characters (grapheme clusters, what a person sees), at most four bytes of UTF-8 per character
/// of that number (and never less than 32 KiB, so that a short field may hold a line of emoji), and no
/// character of more than ``maximumScalarsPerCharacter`` Unicode scalars (a letter with a few accents, a
/// flag or a joined family emoji are well within it; a million combining marks on one letter, or 150,000
/// emoji joined into one, are not). So no stored text exceeds a known size, whatever it is made of, and
/// every path that makes data (methods, import, sync) checks the same rule.
enum TextRules {
    /// The most Unicode scalars one character may be made of.
    static let maximumScalarsPerCharacter = 32
    /// The most bytes of UTF-8 a field may hold per character of its limit, and the least it may hold.
    static let bytesPerCharacter = 4
    static let minimumBytes = 32_768

    /// The most bytes of UTF-8 a field of `characters` characters holds.
    static func byteLimit(characters: Int) -> Int { max(characters * bytesPerCharacter, minimumBytes) }

    /// Checks `text` against a limit of `characters` characters: `reason` (with `limit` in characters) when
    /// it has more, `textTooLarge` (with `limit` in bytes) when it takes more than
    /// ``byteLimit(characters:)``, `characterTooLong` when one of its characters is made of too many scalars.
    static func check(_ text: String, field: String, characters: Int, reason: Reason) throws(DomainError) {
        let bytes = text.utf8.count
        let byteLimit = byteLimit(characters: characters)
        // ASCII without control characters is one scalar, one byte and one character each: settled at once.
        if bytes <= characters && text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return }
        if bytes > byteLimit {
            // More characters than allowed is the clearer thing to say, when it is true.
            if text.utf8.count > characters && exceedsCharacters(text, characters) {
                throw .validation(reason: reason, field: field, limit: Int64(characters))
            }
            throw .validation(reason: .textTooLarge, field: field, limit: Int64(byteLimit))
        }
        var count = 0
        for character in text {
            count += 1
            if character.unicodeScalars.count > maximumScalarsPerCharacter {
                throw .validation(reason: .characterTooLong, field: field, limit: Int64(maximumScalarsPerCharacter))
            }
        }
        if count > characters { throw .validation(reason: reason, field: field, limit: Int64(characters)) }
    }

    /// Whether `text` has more than `limit` characters, stopping as soon as it knows.
    private static func exceedsCharacters(_ text: String, _ limit: Int) -> Bool {
        var count = 0
        for _ in text {
            count += 1
            if count > limit { return true }
        }
        return false
    }

    /// Whether `text` has nothing but white space (or nothing at all).
    static func isBlank(_ text: String) -> Bool {
        // ASCII is settled byte by byte (its white space is U+0009...U+000D and U+0020); the first non-ASCII
        // byte hands the question to the Unicode properties.
        for byte in text.utf8 {
            if byte >= 0x80 { return text.unicodeScalars.allSatisfy { $0.properties.isWhitespace } }
            if byte != 0x20 && !(0x09...0x0D).contains(byte) { return false }
        }
        return true
    }

    static func checkNote(title: String, content: String) throws(DomainError) {
        try check(title, field: "title", characters: Note.maximumTitleLength, reason: .titleTooLong)
        try check(content, field: "content", characters: Note.maximumContentLength, reason: .contentTooLong)
        if isBlank(title) && isBlank(content) {
            throw .validation(reason: .emptyNote, field: "title")
        }
    }
}
