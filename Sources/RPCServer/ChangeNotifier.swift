import Domain
import Protocol

/// Writes a `changed` notification for every committed change a subscribed connection has not seen yet,
/// with the entity's current state (`null` once it is gone).
struct ChangeNotifier {
    let store: DataStore
    let session: Session
    let logger: Logger

    /// Appends the pending notifications to `output` (whole lines, after the answers already there),
    /// handing `output` to `write` whenever it holds a megabyte or more, so a burst of changes (a large
    /// import) is never held whole.
    func deliver(into output: inout JSONWriter, write: (inout JSONWriter) -> Void) {
        guard let subscription = session.subscription else { return }
        do {
            while true {
                let events = try store.changes.events(after: subscription.lastSequence, limit: 256)
                guard !events.isEmpty else { return }
                for event in events {
                    subscription.lastSequence = event.sequence
                    if let domains = subscription.domains, !domains.contains(event.domain) { continue }
                    output.writeRaw("{\"jsonrpc\":\"2.0\",\"method\":\"changed\",\"params\":")
                    ChangeMethods.write(event: event, into: &output)
                    output.writeRaw(",\"entity\":")
                    output.write(entity(of: event))
                    output.writeRaw("}}\n")
                }
                if output.count >= 1 << 20 { write(&output) }
            }
        } catch {
            logger.error("could not read the change log: \(error)")
        }
    }

    /// The entity as it is now, or `null` when it no longer exists.
    func entity(of event: ChangeEvent) -> JSONValue {
        do {
            switch event.domain {
            case .notes: return EntityJSON.note(try store.notes.get(id: event.id))
            case .photos: return EntityJSON.photo(try store.photos.get(id: event.id))
            case .images: return EntityJSON.image(try store.images.get(id: event.id))
            case .diary: return DiaryMethods.post(try store.diary.get(id: event.id), zone: session.timeZone)
            case .reminders: return ReminderMethods.reminder(try store.reminders.get(id: event.id, session: session.editing))
            case .messages: return MessageMethods.message(try store.messages.get(id: event.id))
            case .board: return BoardMethods.post(try store.board.get(id: event.id), voter: nil)
            }
        } catch {
            return .null
        }
    }
}
