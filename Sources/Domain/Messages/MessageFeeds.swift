#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A feed held in one JSON document (`file:///path.json`), served in pages like the HTTP one. The file is
/// read on every request, so edits to it show up.
public final class FileMessageFeed: MessageFeed {
    public let path: String

    public var identity: String { "file://" + path }

    public init(path: String) {
        self.path = path
    }

    public func fetch(offset: Int, limit: Int, cancellation: Cancellation) throws(DomainError) -> [FeedMessage] {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= maximumFeedAnswerBytes else {
            throw .upstreamUnavailable(reason: .responseTooLarge, detail: "\(path) is larger than \(maximumFeedAnswerBytes) bytes")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .upstreamUnavailable(reason: .connectionFailed, detail: "cannot read \(path)")
        }
        let all = try FeedDocument.messages(from: data)
        return Array(all.dropFirst(offset).prefix(limit))
    }
}

/// The built-in sample conversation, used when no feed is configured, so a new user sees something.
public final class SampleMessageFeed: MessageFeed {
    public var identity: String { "sample" }

    public init() {}

    static let conversation: [(author: String, text: String)] = {
        let lines: [(String, String)] = [
            ("Anna", "Are we still on for Saturday?"), ("Sam", "Yes! 10 o'clock at the station."),
            ("Anna", "Great, I'll bring the thermos."), ("Boris", "Can I join you two?"),
            ("Anna", "Of course, the more the merrier."), ("Sam", "Boris, don't forget your boots this time."),
            ("Boris", "Ha, that was one time!"), ("Anna", "It was twice."), ("Sam", "Three times, actually."),
            ("Boris", "Fine. Boots. Noted."), ("Anna", "Weather says sunny in the morning."),
            ("Sam", "Perfect for the lake trail."), ("Boris", "How long is that one?"),
            ("Anna", "About 12 km with the loop."), ("Boris", "Lunch included?"), ("Sam", "Sandwiches on me."),
            ("Anna", "I'll make the tea then."), ("Boris", "And I'll carry everything back."),
            ("Anna", "Deal."), ("Sam", "See you both soon!"),
        ]
        return lines
    }()

    public func fetch(offset: Int, limit: Int, cancellation: Cancellation) throws(DomainError) -> [FeedMessage] {
        // The feed runs newest first; the conversation above is written oldest first.
        let base: Int64 = 1_767_261_600_000  // 2026-01-01T10:00:00Z
        let newestFirst = Self.conversation.enumerated().reversed().map { index, line in
            FeedMessage(
                id: "sample-\(index)", text: line.text, sentAt: base + Int64(index) * 240_000,
                author: Author(name: line.author, avatarURL: nil))
        }
        return Array(newestFirst.dropFirst(offset).prefix(limit))
    }
}
