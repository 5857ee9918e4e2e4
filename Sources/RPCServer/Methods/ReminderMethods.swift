import Domain
import Protocol

/// Reminders (SPEC §8), with this connection's editing session.
enum ReminderMethods {
    static let withRemoved = Schema.object(
        [("reminder", Reminder.schema), ("removedIds", Schema.array(of: Schema.id))],
        required: ["reminder", "removedIds"])

    static func ids(_ ids: [String]) -> JSONValue { .array(ids.map { .string($0) }) }

    static func methods(store: DataStore) -> [RPCMethod] {
        let reminders = store.reminders
        let idParam = Required.string("id", Schema.id, "The reminder's id.")
        return [
            RPCMethod(
                "reminders.list", summary: "Reminders in the user's order; `editingId` is this connection's.",
                params: Schema.pageParams,
                result: Schema.object(
                    [
                        ("items", Schema.array(of: Reminder.schema)), ("nextCursor", Schema.nullable(Schema.string())),
                        ("editingId", Schema.nullable(Schema.id)),
                    ], required: ["items", "nextCursor", "editingId"])
            ) { params, session in
                let (page, editingID) = try reminders.list(params.pageRequest, session: session.editing)
                return .encoded(
                    EncodedJSON(capacity: 96 + 320 * page.items.count) { writer in
                        writer.writeByte(UInt8(ascii: "{"))
                        writer.write(pageMembers: page) { $0.write(reminder: $1) }
                        writer.writeRaw(",\"editingId\":")
                        writer.write(optionalString: editingID)
                        writer.writeByte(UInt8(ascii: "}"))
                    })
            },
            RPCMethod("reminders.get", summary: "One reminder.", params: [idParam.spec], result: Reminder.schema) {
                params, session in
                try reminders.get(id: params[idParam], session: session.editing).json
            },
            RPCMethod(
                "reminders.add",
                summary: "Tap to add: ends the current editing (a blank reminder is removed), inserts a reminder at the end or after `afterId`, and edits it.",
                params: [
                    .optional("title", Schema.string(), "The title (default empty)."),
                    .optional("memo", Schema.nullable(Schema.string()), "The memo."),
                    .optional("afterId", Schema.id, "Insert right after this reminder (default: at the end)."),
                ], result: withRemoved
            ) { params, session in
                let (added, removed) = try reminders.add(
                    title: params.string("title") ?? "", memo: params.string("memo"), after: params.string("afterId"),
                    session: session.editing)
                return ["reminder": added.json, "removedIds": ids(removed)]
            },
            RPCMethod(
                "reminders.beginEditing", summary: "Puts the cursor in a reminder; the previous editing ends (with cleanup).",
                params: [idParam.spec], result: withRemoved
            ) { params, session in
                let (edited, removed) = try reminders.beginEditing(id: params[idParam], session: session.editing)
                return ["reminder": edited.json, "removedIds": ids(removed)]
            },
            RPCMethod(
                "reminders.endEditing", summary: "The keyboard is dismissed: editing ends; a blank reminder is removed.",
                result: Schema.object(
                    [("reminder", Schema.nullable(Reminder.schema)), ("removedId", Schema.nullable(Schema.id))],
                    required: ["reminder", "removedId"])
            ) { _, session in
                let (ended, removed) = try reminders.endEditing(session: session.editing)
                return ["reminder": ended?.json ?? .null, "removedId": removed.map { .string($0) } ?? .null]
            },
            RPCMethod(
                "reminders.update",
                summary: "Changes title and/or memo (`memo: null` clears it); a blank title only while editing it.",
                params: [
                    idParam.spec, .optional("title", Schema.string(), "The new title."),
                    .optional("memo", Schema.nullable(Schema.string()), "The new memo, or null."),
                    .optional("ifRevision", Schema.integer(minimum: 1), "Change only if still at this revision."),
                ], result: Reminder.schema
            ) { params, session in
                try reminders.update(
                    id: params[idParam], ReminderChanges(params), ifRevision: params.integer("ifRevision"),
                    session: session.editing
                ).json
            },
            RPCMethod(
                "reminders.submit",
                summary: "Return in the title field: a new blank reminder right after it (editing moves there), or, for a blank title, its removal.",
                params: [idParam.spec],
                result: Schema.object(
                    [("created", Schema.nullable(Reminder.schema)), ("removedId", Schema.nullable(Schema.id))],
                    required: ["created", "removedId"])
            ) { params, session in
                let (created, removed) = try reminders.submit(id: params[idParam], session: session.editing)
                return ["created": created?.json ?? .null, "removedId": removed.map { .string($0) } ?? .null]
            },
            RPCMethod(
                "reminders.setCompleted", summary: "Marks a reminder done or not done.",
                params: [idParam.spec, .required("completed", Schema.boolean, "Done or not.")], result: Reminder.schema
            ) { params, session in
                let completed = params.bool("completed")
                return try reminders.setCompleted(id: params[idParam], completed, session: session.editing).json
            },
            RPCMethod(
                "reminders.toggle", summary: "Flips a reminder's completion.", params: [idParam.spec], result: Reminder.schema
            ) { params, session in
                try reminders.setCompleted(id: params[idParam], nil, session: session.editing).json
            },
            .delete("reminders.delete", summary: "Deletes a reminder (swipe).", id: idParam) { id, session in
                try reminders.delete(id: id, session: session.editing)
            },
            .move(
                "reminders.move", summary: "Moves a reminder to a 0-based position in the whole list.", id: idParam,
                result: Reminder.schema
            ) { id, index, session in try reminders.move(id: id, to: index, session: session.editing).json },
        ]
    }
}
