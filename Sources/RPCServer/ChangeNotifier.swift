import Domain
import Protocol

/// Writes a `changed` notification for every committed change a subscribed connection has not seen yet,
/// with the entity's current state (`null` once it is gone).
struct ChangeNotifier {
    let store: DataStore
    let session: Session
    let logger: Logger

    /// The most changes a subscription is sent one by one: a connection further behind than this (another
    /// process imported 100,000 notes) is sent one `resync` instead, and reads again what it shows.
    static let backlogLimit: Int64 = 500

    /// What `rpc.discover` says of the notifications written here.
    static let notifications = [
        ServerNotification(
            name: "changed",
            summary: "A change to the database, whoever made it, for a connection that called changes.subscribe (in its domains): the change event and the entity as it is now.",
            params: [
                .required("seq", Schema.integer(minimum: 1), "The change's place in the log."),
                .required("at", Schema.timestamp, "When it was made."),
                .required("domain", ChangeDomain.schema(), "The app."),
                .required("kind", Schema.enumeration(["created", "updated", "deleted", "moved"]), "What happened."),
                .required("id", Schema.id, "The item."),
                .required(
                    "entity",
                    Schema.anyOf(
                        [Note.schema, PhotoNote.schema, ImageRecord.schema, DiaryPost.schema, Reminder.schema,
                         Message.schema, BoardPost.schema, Schema.null],
                        expected: "the item as its app's get answers it, or null once it is gone"),
                    "The item now; null once it is deleted."),
            ]),
        ServerNotification(
            name: "resync",
            summary: "Sent instead of changed when a subscription falls more than 500 changes behind: read again what is shown (or walk changes.since from since up to seq); changed notifications go on after cursor.",
            params: [
                .required("since", Schema.string(), "A changes.since cursor from where this connection was."),
                .required("cursor", Schema.string(), "The cursor changed notifications go on after."),
                .required("seq", Schema.integer(minimum: 1), "The last change this resync stands for."),
            ]),
    ]

    /// Appends the pending notifications to `output` (whole lines, after the answers already there),
    /// handing `output` to `write` whenever it holds a megabyte or more. At most ``backlogLimit`` changes
    /// are read per call, so a burst of changes never holds the loop (or the answers after it) for long.
    func deliver(into output: inout JSONWriter, write: (inout JSONWriter) -> Void) {
        guard let subscription = session.subscription else { return }
        do {
            let newest = try store.changes.latestSequence()
            guard newest > subscription.lastSequence else { return }
            if newest - subscription.lastSequence > Self.backlogLimit {
                output.writeRaw("{\"jsonrpc\":\"2.0\",\"method\":\"resync\",\"params\":")
                output.write(
                    JSONValue.object([
                        "since": .string(ChangeLog.cursor(after: subscription.lastSequence)),
                        "cursor": .string(ChangeLog.cursor(after: newest)),
                        "seq": .integer(newest),
                    ]))
                output.writeRaw("}\n")
                subscription.lastSequence = newest
                return
            }
            while subscription.lastSequence < newest {
                let events = try store.changes.events(after: subscription.lastSequence, limit: 256)
                guard !events.isEmpty else { return }
                for event in events where event.sequence <= newest {
                    subscription.lastSequence = event.sequence
                    if let domains = subscription.domains, !domains.contains(event.domain) { continue }
                    output.writeRaw("{\"jsonrpc\":\"2.0\",\"method\":\"changed\",\"params\":")
                    output.open(event: event)
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
            case .notes: return try store.notes.get(id: event.id).json
            case .photos: return try store.photos.get(id: event.id).json
            case .images: return try store.images.get(id: event.id).json
            case .diary: return try store.diary.get(id: event.id).json(zone: session.timeZone)
            case .reminders: return try store.reminders.get(id: event.id, session: session.editing).json
            case .messages: return try store.messages.get(id: event.id).json
            case .board: return try store.board.get(id: event.id).json(withMyVote: false)
            }
        } catch {
            return .null
        }
    }
}
