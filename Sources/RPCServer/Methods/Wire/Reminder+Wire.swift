import Domain
import Protocol

// A reminder on the wire: what `reminders.*` answer (with this connection's editing state) and the
// changes a client sends.

extension Reminder {
    static let schema = Schema.object(
        allRequired: [
            ("id", Schema.id), ("title", Schema.string()), ("memo", Schema.nullable(Schema.string())),
            ("completed", Schema.boolean), ("completedAt", Schema.nullable(Schema.timestamp)),
        ] + Schema.stamps + [("editing", Schema.boolean), ("memoVisible", Schema.boolean)])

    var json: JSONValue {
        .encoded(EncodedJSON(capacity: 384) { $0.write(reminder: self) })
    }
}

extension ReminderChanges {
    /// `reminders.update`'s params; `memo: null` clears the memo.
    init(_ params: ParamValues) {
        self.init(title: params.string("title"), memo: params.change("memo", params.string))
    }
}

extension JSONWriter {
    mutating func write(reminder: Reminder) {
        writeRaw("{\"id\":"); write(string: reminder.id)
        writeRaw(",\"title\":"); write(string: reminder.title)
        writeRaw(",\"memo\":"); write(optionalString: reminder.memo)
        writeRaw(",\"completed\":"); write(bool: reminder.completed)
        writeRaw(",\"completedAt\":"); write(optionalTimestamp: reminder.completedAt)
        write(createdAt: reminder.createdAt, updatedAt: reminder.updatedAt, revision: reminder.revision)
        writeRaw(",\"editing\":"); write(bool: reminder.editing)
        writeRaw(",\"memoVisible\":"); write(bool: reminder.memoVisible)
        writeByte(UInt8(ascii: "}"))
    }
}
