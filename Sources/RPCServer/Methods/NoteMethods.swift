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
                "notes.create", summary: "Creates a note, at the end of the list or at `atIndex`.",
                params: [
                    .optional("title", Schema.string(description: "at most 500 characters"), "The title."),
                    .optional("content", Schema.string(description: "at most 1,000,000 characters"), "The text."),
                    .optional("color", HSBColor.inputSchema, "HSB colour; white by default."),
                    .optional("deadline", Schema.nullable(Schema.timestamp), "When the note is due."),
                    .optional("atIndex", Schema.integer(), "0-based position to insert at (default: the end)."),
                ], result: Note.schema
            ) { params, _ in
                let index = params.integer("atIndex").map { Int(clamping: $0) }
                return try notes.create(NoteDraft(params), at: index).json
            }.raising(.freeLimitReached),
            RPCMethod("notes.get", summary: "One note.", params: [idParam.spec], result: Note.schema) { params, _ in
                try notes.get(id: params[idParam]).json
            },
            RPCMethod(
                "notes.list", summary: "Notes in the user's order, a page at a time.", params: Schema.pageParams,
                result: Schema.page(of: Note.schema)
            ) { params, _ in
                try notes.list(params.pageRequest).json { $0.write(note: $1) }
            },
            RPCMethod(
                "notes.update", summary: "Changes the given fields of a note; `deadline: null` clears it.",
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
            .delete("notes.delete", summary: "Deletes a note.", id: idParam) { id, _ in try notes.delete(id: id) },
            .move(
                "notes.move", summary: "Moves a note to a 0-based position in the whole list.", id: idParam,
                result: Note.schema
            ) { id, index, _ in try notes.move(id: id, to: index).json },
        ]
    }
}
