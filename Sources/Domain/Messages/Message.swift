/// A chat message (SPEC §9).
public struct Message: Sendable, Equatable {
    public enum Origin: String, Sendable {
        case local, remote
    }

    public var id: String
    public var text: String
    public var sentAt: Int64
    public var author: Author
    public var origin: Origin

    public static let maximumTextLength = 10_000

    static func check(text: String, field: String = "text") throws(DomainError) {
        if TextRules.isBlank(text) { throw .validation(reason: .emptyMessage, field: field) }
        try TextRules.check(text, field: field, characters: maximumTextLength, reason: .messageTooLong)
    }
}

/// Who wrote a message.
public struct Author: Sendable, Equatable {
    public var name: String
    /// An absolute http(s) URL, or `nil`.
    public var avatarURL: String?

    public init(name: String, avatarURL: String?) {
        self.name = name
        self.avatarURL = Self.acceptedAvatarURL(avatarURL)
    }

    /// The longest name, in characters.
    public static let maximumNameLength = 200
    /// The longest avatar URL kept, in bytes (a longer one is dropped, as a malformed one is).
    public static let maximumAvatarURLBytes = 2048

    /// A name is not blank and within ``maximumNameLength`` (`titleTooLong` past it).
    static func check(name: String, field: String) throws(DomainError) {
        if TextRules.isBlank(name) { throw .validation(reason: .emptyTitle, field: field) }
        try TextRules.check(name, field: field, characters: maximumNameLength, reason: .titleTooLong)
    }

    /// `url` when it is an absolute http or https URL with a host; anything else becomes `nil`.
    public static func acceptedAvatarURL(_ url: String?) -> String? {
        guard let url, url.utf8.count <= maximumAvatarURLBytes, let scheme = url.split(separator: ":", maxSplits: 1).first?.lowercased(),
            scheme == "http" || scheme == "https"
        else { return nil }
        let rest = url.dropFirst(scheme.count + 1)
        guard rest.hasPrefix("//") else { return nil }
        let host = rest.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !host.isEmpty, !url.contains(where: { $0.isWhitespace }) else { return nil }
        return url
    }
}

/// One message as the upstream feed gives it.
public struct FeedMessage: Sendable, Equatable {
    public var id: String?
    public var text: String
    public var sentAt: Int64?
    public var author: Author?

    public init(id: String? = nil, text: String, sentAt: Int64? = nil, author: Author? = nil) {
        self.id = id
        self.text = text
        self.sentAt = sentAt
        self.author = author
    }
}

/// Where older messages come from: asked for `limit` messages after the first `offset` (newest first).
/// Asked on a thread of its own while the server goes on serving.
/// The most bytes a feed's answer may have (its body as sent, or a feed file): past it the load fails with
/// `responseTooLarge` and nothing of it is kept, so an endless body costs no more than this.
public let maximumFeedAnswerBytes = 8 << 20

public protocol MessageFeed: AnyObject, Sendable {
    /// A stable name for the feed, so that what was consumed from one feed is not counted for another.
    var identity: String { get }
    /// The batch at `offset`; throws `upstreamUnavailable` on any failure (a cancelled fetch among them).
    func fetch(offset: Int, limit: Int, cancellation: Cancellation) throws(DomainError) -> [FeedMessage]
}
