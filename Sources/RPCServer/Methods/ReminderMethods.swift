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
                "reminders.list", title: "List reminders",
                summary: "Lists the reminders in the user's order, a page at a time: pass an answer's `nextCursor` as `cursor` for the next page. Returns {items, nextCursor, editingId}; `editingId` is the reminder this connection is editing, if any.",
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
            RPCMethod(
                "reminders.get", title: "Read a reminder",
                summary: "Reads one reminder by its id: title, memo, whether it is done, times and revision. -32001 when no reminder has that id.",
                params: [idParam.spec], result: Reminder.schema
            ) { params, session in
                try reminders.get(id: params[idParam], session: session.editing).json
            },
            RPCMethod(
                "reminders.add", title: "Add a reminder",
                summary: "Tap to add: ends the current editing (a blank reminder is removed), inserts a reminder at the end or after `afterId`, and edits it. Returns {reminder, removedIds}: the new reminder and any blank one removed. -32001 for an unknown `afterId`.",
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
                "reminders.beginEditing", title: "Start editing a reminder",
                summary: "Puts the cursor in a reminder: the previous editing ends, and a blank reminder left behind is removed. Returns {reminder, removedIds}; -32001 when no reminder has that id.",
                params: [idParam.spec], result: withRemoved
            ) { params, session in
                let (edited, removed) = try reminders.beginEditing(id: params[idParam], session: session.editing)
                return ["reminder": edited.json, "removedIds": ids(removed)]
            },
            RPCMethod(
                "reminders.endEditing", title: "Stop editing reminders",
                summary: "The keyboard is dismissed: editing ends, and the reminder being edited is removed when its title is blank. Returns {reminder, removedId}, either null when there was nothing to end or remove.",
                result: Schema.object(
                    [("reminder", Schema.nullable(Reminder.schema)), ("removedId", Schema.nullable(Schema.id))],
                    required: ["reminder", "removedId"])
            ) { _, session in
                let (ended, removed) = try reminders.endEditing(session: session.editing)
                return ["reminder": ended?.json ?? .null, "removedId": removed.map { .string($0) } ?? .null]
            },
            RPCMethod(
                "reminders.update", title: "Edit a reminder",
                summary: "Changes the title and/or memo (`memo: null` clears it); a blank title only while the reminder is being edited. Returns the reminder; -32001 when no reminder has that id; -32002 emptyTitle or too long; -32006 when `ifRevision` is no longer its revision.",
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
                "reminders.submit", title: "Submit a reminder's title",
                summary: "Return in the title field: a new blank reminder right after it (editing moves there), or, for a blank title, its removal. Returns {created, removedId}; -32001 when no reminder has that id.",
                params: [idParam.spec],
                result: Schema.object(
                    [("created", Schema.nullable(Reminder.schema)), ("removedId", Schema.nullable(Schema.id))],
                    required: ["created", "removedId"])
            ) { params, session in
                let (created, removed) = try reminders.submit(id: params[idParam], session: session.editing)
                return ["created": created?.json ?? .null, "removedId": removed.map { .string($0) } ?? .null]
            },
            RPCMethod(
                "reminders.setCompleted", title: "Mark a reminder done or not done",
                summary: "Marks a reminder done (`completed: true`) or not done; the same call again changes nothing. Returns the reminder; -32001 when no reminder has that id.",
                params: [idParam.spec, .required("completed", Schema.boolean, "Done or not.")], result: Reminder.schema
            ) { params, session in
                let completed = params.bool("completed")
                return try reminders.setCompleted(id: params[idParam], completed, session: session.editing).json
            },
            RPCMethod(
                "reminders.toggle", title: "Toggle a reminder",
                summary: "Flips a reminder between done and not done. Returns the reminder; -32001 when no reminder has that id.",
                params: [idParam.spec], result: Reminder.schema
            ) { params, session in
                try reminders.setCompleted(id: params[idParam], nil, session: session.editing).json
            },
            .delete(
                "reminders.delete", title: "Delete a reminder",
                summary: "Deletes a reminder (a swipe). Returns {id, deleted: true}; -32001 when no reminder has that id.",
                id: idParam
            ) { id, session in
                try reminders.delete(id: id, session: session.editing)
            },
            .move(
                "reminders.move", title: "Move a reminder",
                summary: "Moves a reminder to a 0-based position in the whole list (0 is the top); the others shift. Returns the reminder at its new place; -32002 indexOutOfRange past the end.",
                id: idParam,
                result: Reminder.schema
            ) { id, index, session in try reminders.move(id: id, to: index, session: session.editing).json },
        ]
    }
}
