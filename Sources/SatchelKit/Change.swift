#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the change feed (``Satchel/changes(domains:)``) hears.
public enum Change: Sendable, Hashable {
    /// An item was created, updated, moved or deleted, by this connection or any other process.
    case changed(ChangeEvent, Entity?)
    /// The feed fell more than 500 changes behind (a big import elsewhere): what is shown may be out of
    /// date; read it again, or walk ``ChangesMethods/since(cursor:limit:progress:)`` from `since`. Changes
    /// after `cursor` follow.
    case resync(since: String, cursor: String, seq: Int)
}

/// The item a change is about, as it is now.
public enum Entity: Sendable, Hashable {
    case note(Note)
    case photo(Photo)
    case image(Image)
    case diaryPost(DiaryPost)
    case reminder(Reminder)
    case message(Message)
    case boardPost(BoardPost)

    /// The entity of a `changed` notification of `domain`, as its app's `get` answers it.
    static func decode(_ domain: String, from decoder: any Decoder) throws -> Entity {
        switch domain {
        case "notes": .note(try Note(from: decoder))
        case "photos": .photo(try Photo(from: decoder))
        case "images": .image(try Image(from: decoder))
        case "diary": .diaryPost(try DiaryPost(from: decoder))
        case "reminders": .reminder(try Reminder(from: decoder))
        case "messages": .message(try Message(from: decoder))
        case "board": .boardPost(try BoardPost(from: decoder))
        default: throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no app \(domain)"))
        }
    }
}

/// A `changed` notification's params: the event and the entity.
struct ChangedParams: Decodable {
    let event: ChangeEvent
    let entity: Entity?

    private enum Keys: String, CodingKey { case domain, entity }

    init(from decoder: any Decoder) throws {
        event = try ChangeEvent(from: decoder)
        let container = try decoder.container(keyedBy: Keys.self)
        if try container.decodeNil(forKey: .entity) {
            entity = nil
        } else {
            entity = try Entity.decode(event.domain, from: try container.superDecoder(forKey: .entity))
        }
    }
}
