import Foundation

/// Reads the two answer shapes of SPEC §9: `{"result": ["text", ...]}` or
/// `{"messages": [{id?, text, sentAt?, author?: {name, avatarUrl?}}]}`.
enum FeedDocument {
    static func messages(from data: Data) throws(DomainError) -> [FeedMessage] {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw .upstreamUnavailable(reason: .malformedResponse, detail: "not JSON: \(error.localizedDescription)")
        }
        guard let document = object as? [String: Any] else {
            throw .upstreamUnavailable(reason: .malformedResponse, detail: "not a JSON object")
        }
        if let texts = document["result"] {
            guard let texts = texts as? [Any] else {
                throw .upstreamUnavailable(reason: .malformedResponse, detail: "result is not an array")
            }
            return try texts.enumerated().map { (index, text) throws(DomainError) in
                guard let text = text as? String else {
                    throw .upstreamUnavailable(reason: .malformedResponse, detail: "result[\(index)] is not a string")
                }
                try checked(text, index)
                return FeedMessage(text: text)
            }
        }
        guard let entries = document["messages"] as? [Any] else {
            throw .upstreamUnavailable(reason: .malformedResponse, detail: "neither result nor messages")
        }
        return try entries.enumerated().map { (index, entry) throws(DomainError) in
            guard let entry = entry as? [String: Any], let text = entry["text"] as? String else {
                throw .upstreamUnavailable(reason: .malformedResponse, detail: "messages[\(index)] has no text")
            }
            try checked(text, index)
            var message = FeedMessage(text: text)
            switch entry["id"] {
            case let id as String where !id.isEmpty: message.id = id
            case let number as NSNumber where !(number is Bool): message.id = number.stringValue
            case nil, is NSNull: break
            default: throw .upstreamUnavailable(reason: .malformedResponse, detail: "messages[\(index)].id")
            }
            switch entry["sentAt"] {
            case let sentAt as String:
                guard let milliseconds = Timestamp.parse(sentAt) else {
                    throw .upstreamUnavailable(reason: .malformedResponse, detail: "messages[\(index)].sentAt")
                }
                message.sentAt = milliseconds
            case nil, is NSNull: break
            default: throw .upstreamUnavailable(reason: .malformedResponse, detail: "messages[\(index)].sentAt")
            }
            if let author = entry["author"], !(author is NSNull) {
                guard let author = author as? [String: Any], let name = author["name"] as? String,
                    !TextRules.isBlank(name)
                else {
                    throw .upstreamUnavailable(reason: .malformedResponse, detail: "messages[\(index)].author")
                }
                message.author = Author(name: name, avatarURL: author["avatarUrl"] as? String)
            }
            return message
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
