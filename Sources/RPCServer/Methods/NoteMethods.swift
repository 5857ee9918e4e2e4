import Domain
import Protocol

/// ENotes text notes (SPEC §5).
enum NoteMethods {
    static func methods(store: DataStore) -> [RPCMethod] {
        let notes = store.notes
        let idParam = ParamSpec.required("id", Schema.id, "The note's id.")
        let ifRevision = ParamSpec.optional(
            "ifRevision", Schema.integer(minimum: 1), "Change only if the note is still at this revision.")
        return [
            RPCMethod(
                "notes.create", summary: "Creates a note, at the end of the list or at `atIndex`.",
                params: [
                    .optional("title", Schema.string(description: "at most 500 characters"), "The title."),
                    .optional("content", Schema.string(description: "at most 1,000,000 characters"), "The text."),
                    .optional("color", EntityJSON.colorInputSchema, "HSB colour; white by default."),
                    .optional("deadline", Schema.nullable(Schema.timestamp), "When the note is due."),
                    .optional("atIndex", Schema.integer(), "0-based position to insert at (default: the end)."),
                ], result: EntityJSON.noteSchema
            ) { params, _ in
                let draft = NoteDraft(
                    title: params.string("title") ?? "", content: params.string("content") ?? "",
                    color: try params["color"].map { value throws(DomainError) in
                        try EntityJSON.colorInput(value, field: "color")
                    } ?? .white,
                    deadline: params.timestamp("deadline"))
                let index = params.integer("atIndex").map { Int(clamping: $0) }
                return EntityJSON.note(try notes.create(draft, at: index))
            },
            RPCMethod("notes.get", summary: "One note.", params: [idParam], result: EntityJSON.noteSchema) { params, _ in
                EntityJSON.note(try notes.get(id: params.string("id")!))
            },
            RPCMethod(
                "notes.list", summary: "Notes in the user's order, a page at a time.", params: Schema.pageParams,
                result: Schema.page(of: EntityJSON.noteSchema)
            ) { params, _ in
                EntityJSON.page(try notes.list(params.pageRequest)) { $0.write(note: $1) }
            },
            RPCMethod(
                "notes.update", summary: "Changes the given fields of a note; `deadline: null` clears it.",
                params: [
                    idParam,
                    .optional("title", Schema.string(), "The new title."),
                    .optional("content", Schema.string(), "The new text."),
                    .optional("color", EntityJSON.colorInputSchema, "The new HSB colour."),
                    .optional("deadline", Schema.nullable(Schema.timestamp), "The new deadline, or null to clear it."),
                    ifRevision,
                ], result: EntityJSON.noteSchema
            ) { params, _ in
                var changes = NoteChanges(title: params.string("title"), content: params.string("content"))
                if let color = params["color"] { changes.color = try EntityJSON.colorInput(color, field: "color") }
                if params.contains("deadline") { changes.deadline = .some(params.timestamp("deadline")) }
                return EntityJSON.note(
                    try notes.update(id: params.string("id")!, changes, ifRevision: params.integer("ifRevision")))
            },
            RPCMethod("notes.delete", summary: "Deletes a note.", params: [idParam], result: Schema.deleted) { params, _ in
                let id = params.string("id")!
                try notes.delete(id: id)
                return EntityJSON.deleted(id)
            },
            RPCMethod(
                "notes.move", summary: "Moves a note to a 0-based position in the whole list.",
                params: [idParam, .required("toIndex", Schema.integer(), "The new 0-based position.")],
                result: EntityJSON.noteSchema
            ) { params, _ in
                EntityJSON.note(
                    try notes.move(id: params.string("id")!, to: Int(clamping: params.integer("toIndex")!)))
            },
        ]
    }
}
