#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads the two answer shapes of SPEC §9: `{"result": ["text", ...]}` or
/// `{"messages": [{id?, text, sentAt?, author?: {name, avatarUrl?}}]}`, with `JSONDecoder`, as the domain
/// reads every JSON document (exported files too).
enum FeedDocument {
    static func messages(from data: Data) throws(DomainError) -> [FeedMessage] {
        let answer: Answer
        do {
            answer = try JSONDecoder().decode(Answer.self, from: data)
        } catch let error as DecodingError {
            throw .upstreamUnavailable(reason: .malformedResponse, detail: "at " + ExchangeDocument.path(of: error))
        } catch {
            throw .upstreamUnavailable(reason: .malformedResponse, detail: "\(error)")
        }
        if let texts = answer.result {
            for (index, text) in texts.enumerated() { try checked(text, index) }
            return texts.map { FeedMessage(text: $0) }
        }
        guard let entries = answer.messages else {
            throw .upstreamUnavailable(reason: .malformedResponse, detail: "neither result nor messages")
        }
        return try entries.enumerated().map { (index, entry) throws(DomainError) in
            try checked(entry.text, index)
            if let author = entry.author {
                do {
                    try Author.check(name: author.name, field: "author.name")
                } catch {
                    throw .upstreamUnavailable(reason: .malformedResponse, detail: "messages[\(index)].author")
                }
            }
            return FeedMessage(
                id: entry.id?.text, text: entry.text, sentAt: entry.sentAt?.milliseconds,
                author: entry.author.map { Author(name: $0.name, avatarURL: $0.avatarUrl) })
        }
    }

    private struct Answer: Decodable {
        var result: [String]?
        var messages: [Entry]?
    }

    private struct Entry: Decodable {
        var id: EntryID?
        var text: String
        var sentAt: Instant?
        var author: EntryAuthor?
    }

    private struct EntryAuthor: Decodable {
        var name: String
        /// Kept only when it is a string; anything else is as if it were absent.
        var avatarUrl: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            avatarUrl = try? container.decodeIfPresent(String.self, forKey: .avatarUrl)
        }

        private enum CodingKeys: String, CodingKey { case name, avatarUrl }
    }

    /// A message's id in the feed: a non-empty string, or a number (kept as its text).
    private struct EntryID: Decodable {
        var text: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                guard !text.isEmpty else { throw DecodingError.dataCorruptedError(in: container, debugDescription: "empty id") }
                self.text = text
            } else if let whole = try? container.decode(Int64.self) {
                text = String(whole)
            } else {
                text = String(describing: try container.decode(Double.self))
            }
        }
    }

    /// An RFC 3339 timestamp, as milliseconds.
    private struct Instant: Decodable {
        var milliseconds: Int64

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            guard let milliseconds = Timestamp.parse(try container.decode(String.self)) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an RFC 3339 time")
            }
            self.milliseconds = milliseconds
        }
    }

    /// A text that breaks the message rules makes the whole answer unusable.
    private static func checked(_ text: String, _ index: Int) throws(DomainError) {
        do {
            try Message.check(text: text)
        } catch {
            throw .upstreamUnavailable(reason: .invalidMessage, detail: "message \(index) breaks the message rules")
        }
    }
}
