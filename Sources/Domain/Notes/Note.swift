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

enum TextRules {
    /// Whether `text` is longer than `limit` characters (cheap when its UTF-8 length already settles it).
    static func exceeds(_ text: String, _ limit: Int) -> Bool {
        if text.utf8.count <= limit { return false }
        return text.count > limit
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
        if exceeds(title, Note.maximumTitleLength) {
            throw .validation(reason: .titleTooLong, field: "title", limit: Int64(Note.maximumTitleLength))
        }
        if exceeds(content, Note.maximumContentLength) {
            throw .validation(reason: .contentTooLong, field: "content", limit: Int64(Note.maximumContentLength))
        }
        if isBlank(title) && isBlank(content) {
            throw .validation(reason: .emptyNote, field: "title")
        }
    }
}
