/// Everything Satchel stores, as one self-describing JSON document (`export` / `import`).
///
/// Lists are in their apps' order (notes, photos and reminders in the user's order; messages newest first;
/// the rest by id), timestamps are RFC 3339 strings, and image bytes are base64, so exporting, importing
/// into an empty database and exporting again gives the same document.
public struct ExchangeDocument: Codable, Equatable, Sendable {
    /// Always "satchel".
    public var format: String
    /// The document format's version; a newer one than this build knows is refused.
    public var version: Int
    public var images: [Image]
    public var notes: [Note]
    public var photos: [Photo]
    public var reminders: [Reminder]
    public var diary: [Post]
    public var messages: [Message]
    public var messageFeeds: [Feed]
    public var board: [BoardPost]

    public static let currentFormat = "satchel"

    /// Where a decoding error is, as a field path after `document` (`.notes[1].title`).
    public static func path(of error: DecodingError) -> String {
        let path: [any CodingKey]
        switch error {
        case .keyNotFound(let key, let context): path = context.codingPath + [key]
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            path = context.codingPath
        @unknown default: path = []
        }
        return path.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
    }
    public static let currentVersion = 1

    public struct Image: Codable, Equatable, Sendable {
        public var id: String
        public var mimeType: String
        public var sha256: String
        public var width: Int
        public var height: Int
        public var createdAt: String
        /// The bytes, base64.
        public var data: String
    }

    public struct Color: Codable, Equatable, Sendable {
        public var hue: Double
        public var saturation: Double
        public var brightness: Double
    }

    public struct Note: Codable, Equatable, Sendable {
        public var id: String
        public var title: String
        public var content: String
        public var color: Color
        public var deadline: String?
        public var createdAt: String
        public var updatedAt: String
        public var revision: Int64
    }

    public struct Photo: Codable, Equatable, Sendable {
        public var id: String
        public var imageId: String
        public var caption: String?
        public var createdAt: String
        public var updatedAt: String
        public var revision: Int64
    }

    public struct Reminder: Codable, Equatable, Sendable {
        public var id: String
        public var title: String
        public var memo: String?
        public var completed: Bool
        public var completedAt: String?
        public var createdAt: String
        public var updatedAt: String
        public var revision: Int64
    }

    public struct Post: Codable, Equatable, Sendable {
        public var id: String
        public var text: String?
        public var imageIds: [String]
        public var createdAt: String
        public var updatedAt: String
        public var revision: Int64
    }

    public struct Message: Codable, Equatable, Sendable {
        public var id: String
        public var text: String
        public var sentAt: String
        public var authorName: String
        public var authorAvatarUrl: String?
        public var origin: String
        /// How the feed identifies it (absent for messages sent here).
        public var feedKey: String?
    }

    public struct Feed: Codable, Equatable, Sendable {
        public var feed: String
        public var consumed: Int
    }

    public struct Vote: Codable, Equatable, Sendable {
        public var voter: String
        public var direction: String
    }

    public struct BoardPost: Codable, Equatable, Sendable {
        public var id: String
        public var title: String
        public var ups: Int64
        public var downs: Int64
        public var votes: [Vote]
        public var createdAt: String
        public var updatedAt: String
        public var revision: Int64
    }
}

/// The document's lists, in the order they are written (its keys sorted: `format` comes after `diary`
/// and `version` last).
public enum ExchangeList: String, CaseIterable, Sendable {
    case board, diary, images, messageFeeds, messages, notes, photos, reminders
}

/// One element of an export, as ``Exchange/export(progress:_:)`` streams it.
public enum ExchangeElement {
    /// An image's fields (`data` left empty) and its bytes, to be written as base64.
    case image(ExchangeDocument.Image, bytes: [UInt8])
    case note(ExchangeDocument.Note)
    case photo(ExchangeDocument.Photo)
    case reminder(ExchangeDocument.Reminder)
    case diary(ExchangeDocument.Post)
    case message(ExchangeDocument.Message)
    case feed(ExchangeDocument.Feed)
    case board(ExchangeDocument.BoardPost)
}

/// How `import` treats what is already there.
public enum ImportMode: String, Sendable {
    /// Keep what is there; add what is new (an id already present keeps its local version).
    case merge
    /// Remove everything first; the database becomes the document.
    case replace
}
