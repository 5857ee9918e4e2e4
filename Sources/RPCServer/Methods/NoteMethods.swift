import Domain
import Protocol

/// ENotes text notes (SPEC §5).
enum NoteMethods {
    static func methods(store: DataStore) -> [RPCMethod] {
        let notes = store.notes
        let idParam = Required.string("id", Schema.id, "The note's id.")
        let ifRevision = ParamSpec.optional(
            "ifRevision", Schema.integer(minimum: 1), "Change only if the note is still at this revision.")
        return [
            RPCMethod(
                "notes.create", title: "Create a note",
                summary: "Creates an ENotes text note: a title and/or text, an HSB colour (white by default) and a deadline, at the end of the list or at the 0-based `atIndex`. Returns the note, at revision 1. -32002 when title and text are both blank (emptyNote) or too long, or `atIndex` is past the end (indexOutOfRange); -32003 past the free edition's limit.",
                params: [
                    .optional("title", Schema.string(description: "at most 500 characters"), "The title."),
                    .optional("content", Schema.string(description: "at most 1,000,000 characters"), "The text."),
                    .optional("color", HSBColor.inputSchema, "HSB colour; white by default."),
                    .optional("deadline", Schema.nullable(Schema.timestamp), "When the note is due."),
                    .optional("atIndex", Schema.integer(minimum: 0), "0-based position to insert at (default: the end)."),
                ], result: Note.schema
            ) { params, _ in
                let index = params.integer("atIndex").map { Int(clamping: $0) }
                return try notes.create(NoteDraft(params), at: index).json
            }.raising(.freeLimitReached),
            RPCMethod(
                "notes.get", title: "Read a note",
                summary: "Reads one note by its id: title, text, colour (HSB and hex), deadline, times and revision. -32001 when no note has that id.",
                params: [idParam.spec], result: Note.schema
            ) { params, _ in
                try notes.get(id: params[idParam]).json
            },
            RPCMethod(
                "notes.list", title: "List notes",
                summary: "Lists the notes in the user's order, a page at a time: pass an answer's `nextCursor` as `cursor` for the next page. Returns {items, nextCursor}; `nextCursor` is null on the last page.",
                params: Schema.pageParams,
                result: Schema.page(of: Note.schema)
            ) { params, _ in
                try notes.list(params.pageRequest).json { $0.write(note: $1) }
            },
            RPCMethod(
                "notes.update", title: "Edit a note",
                summary: "Changes only the fields given of a note: title, text, colour or deadline (`deadline: null` clears it). Returns the note, its revision one higher. -32001 when no note has that id; -32002 when it would end blank or too long; -32006 when `ifRevision` is no longer its revision (nothing changes).",
                params: [
                    idParam.spec,
                    .optional("title", Schema.string(), "The new title."),
                    .optional("content", Schema.string(), "The new text."),
                    .optional("color", HSBColor.inputSchema, "The new HSB colour."),
                    .optional("deadline", Schema.nullable(Schema.timestamp), "The new deadline, or null to clear it."),
                    ifRevision,
                ], result: Note.schema
            ) { params, _ in
                let id = params[idParam]
                return try notes.update(id: id, NoteChanges(params), ifRevision: params.integer("ifRevision")).json
            },
            .delete(
                "notes.delete", title: "Delete a note",
                summary: "Deletes a note for good. Returns {id, deleted: true}; -32001 when no note has that id.", id: idParam
            ) { id, _ in try notes.delete(id: id) },
            .move(
                "notes.move", title: "Move a note",
                summary: "Moves a note to a 0-based position in the whole list (0 is the top); the others shift. Returns the note at its new place; -32002 indexOutOfRange past the end, -32001 for an unknown id.",
                id: idParam,
                result: Note.schema
            ) { id, index, _ in try notes.move(id: id, to: index).json },
        ]
    }
}
