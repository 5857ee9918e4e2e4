import Domain
import Protocol

// A change event on the wire: an element of `changes.since` and the start of a `changed` notification;
// and the `domains` a client names to hear of (or search) only some apps.

extension ChangeEvent {
    static let schema = Schema.object(allRequired: [
        ("seq", Schema.integer(minimum: 1)), ("at", Schema.timestamp),
        ("domain", ChangeDomain.schema()),
        ("kind", Schema.enumeration(["created", "updated", "deleted", "moved"])), ("id", Schema.id),
    ])
}

extension ChangeDomain {
    /// One of `domains`, by name.
    static func schema(_ domains: [ChangeDomain] = allCases) -> JSONValue {
        Schema.enumeration(domains.map(\.rawValue))
    }
}

extension ParamSpec {
    /// `domains`: some of these apps.
    static func domains(_ domains: [ChangeDomain]) -> ParamSpec {
        .optional("domains", Schema.array(of: ChangeDomain.schema(domains)), "Only these apps (default: all).")
    }
}

extension ParamValues {
    /// The `domains` param; `nil` (every app) when it is not given.
    var domains: Set<ChangeDomain>? {
        array("domains").map { Set($0.compactMap { $0.stringValue.flatMap(ChangeDomain.init) }) }
    }
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
