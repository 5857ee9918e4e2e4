import Domain
import Protocol

// A change event on the wire: an element of `changes.since` and the start of a `changed` notification.

extension ChangeEvent {
    static let schema = Schema.object(allRequired: [
        ("seq", Schema.integer(minimum: 1)), ("at", Schema.timestamp),
        ("domain", Schema.enumeration(ChangeDomain.allCases.map(\.rawValue))),
        ("kind", Schema.enumeration(["created", "updated", "deleted", "moved"])), ("id", Schema.id),
    ])
}

extension JSONWriter {
    /// `{"seq":…,"at":…,"domain":…,"kind":…,"id":…`, left open: a notification adds the entity.
    mutating func open(event: ChangeEvent) {
        writeRaw("{\"seq\":"); write(integer: event.sequence)
        writeRaw(",\"at\":"); write(timestamp: event.at)
        writeRaw(",\"domain\":"); write(string: event.domain.rawValue)
        writeRaw(",\"kind\":"); write(string: event.kind.rawValue)
        writeRaw(",\"id\":"); write(string: event.id)
    }
}
