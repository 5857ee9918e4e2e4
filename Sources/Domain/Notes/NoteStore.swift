/// ENotes text notes: create, read, list in the user's order, update, delete, move (SPEC §5).
public final class NoteStore: Store {
    private let edition: Edition
    private let order: OrderedList
    /// New notes, written many to a statement in a run of pipelined creates (see ``WriteGroup``).
    let newNotes: BatchedInsert<NewNoteRow>

    init(_ context: StoreContext, edition: Edition) {
        self.edition = edition
        self.order = OrderedList(context, table: "notes", domain: .notes)
        self.cache = EntityCache(database: context.database, domain: .notes) {
            $0.title.utf8.count + $0.content.utf8.count + 128
        }
        newNotes = context.group.batch(
            table: "notes",
            columns: [
                "id", "title", "content", "hue", "saturation", "brightness", "deadline", "position", "created_at",
                "updated_at", "revision",
            ],
            rowValues: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)"
        ) { (insert, first, row, texts) throws(SQLiteError) in
            try texts.bind(row.id, to: insert, at: first)
            try texts.bind(row.title, to: insert, at: first + 1)
            try texts.bind(row.content, to: insert, at: first + 2)
            try insert.bind(first + 3, real: row.color.hue)
            try insert.bind(first + 4, real: row.color.saturation)
            try insert.bind(first + 5, real: row.color.brightness)
            try insert.bind(first + 6, integerOrNull: row.deadline)
            try insert.bind(first + 7, integer: row.position)
            try insert.bind(first + 8, integer: row.createdAt)
            try insert.bind(first + 9, integer: row.createdAt)
        }
        super.init(context)
    }

    struct NewNoteRow {
        var id: BatchText
        var title: BatchText
        var content: BatchText
        var color: HSBColor
        var deadline: Int64?
        var position: Int64
        var createdAt: Int64
    }

    /// Notes read recently (`notes.get` is the hottest read there is).
    private let cache: EntityCache<Note>

    /// Where the last create appended, in which write transaction, and SQLite's change count right after
    /// it: while both still hold, nothing else has touched the list (no other connection can write inside
    /// our transaction, and writing held rows moves the count too), so the next append goes one gap
    /// further without asking SQLite. A group of pipelined creates asks once.
    private var lastAppend: (transaction: UInt64, changes: Int64, position: Int64)?

    private static let columns =
        "id, title, content, hue, saturation, brightness, deadline, created_at, updated_at, revision, position"

    private static func note(_ row: Statement) -> Note {
        Note(
            id: row.text(0), title: row.text(1), content: row.text(2),
            color: HSBColor(unchecked: row.double(3), row.double(4), row.double(5)), deadline: row.int64OrNil(6),
            createdAt: row.int64(7), updatedAt: row.int64(8), revision: row.int64(9))
    }

    /// Creates a note at the end of the list, or at `index` (0...count).
    public func create(_ draft: NoteDraft, at index: Int? = nil) throws(DomainError) -> Note {
        try TextRules.checkNote(title: draft.title, content: draft.content)
        // The closures below take the draft's parts, not the draft: capturing it costs a copy per closure.
        let (title, content, color, deadline) = (draft.title, draft.content, draft.color, draft.deadline)
        return try storage {
            // Everything is checked before the first write, so no savepoint is needed (see MutationUndo).
            try group.transaction(undo: .wholeGroup) {
                try edition.checkRoomForOneMore()
                let position: Int64
                if let index {
                    let count = try order.count()
                    guard index >= 0, index <= count else {
                        throw DomainError.validation(reason: .indexOutOfRange, field: "atIndex", limit: Int64(count))
                    }
                    position = try order.positionForInsert(at: index, count: count)
                } else if let last = lastAppend, last.transaction == database.transactionNumber,
                    last.changes == database.totalChanges
                {
                    position = last.position + OrderedList.gap
                } else {
                    position = try order.positionForAppend()
                }
                let now = clock.nowMilliseconds()
                let note = Note(
                    id: ids.makeID(kind: "note"), title: title, content: content, color: color, deadline: deadline,
                    createdAt: now, updatedAt: now, revision: 1)
                try group.add(to: newNotes) { text in
                    NewNoteRow(
                        id: text(note.id), title: text(note.title), content: text(note.content), color: note.color,
                        deadline: note.deadline, position: position, createdAt: now)
                }
                if index == nil { lastAppend = (database.transactionNumber, database.totalChanges, position) }
                try changes.record(.notes, .created, id: note.id, at: now)
                return note
            }
        }
    }

    /// The note with `id`.
    public func get(id: String) throws(DomainError) -> Note {
        let note = try storage { () throws -> Note? in
            if let cached = try cache.value(for: id) { return cached }
            let note = try find(id)
            if let note { cache.remember(note, for: id) }
            return note
        }
        guard let note else { throw .notFound(kind: "note", id: id) }
        return note
    }

    private lazy var selectByID = Prepared(database, "SELECT \(Self.columns) FROM notes WHERE id = ?1")

    private func find(_ id: String) throws -> Note? {
        try selectByID.first([.text(id)], Self.note)
    }

    private lazy var selectPage = Prepared(
        database, "SELECT \(Self.columns) FROM notes WHERE position > ?1 ORDER BY position LIMIT ?2")

    /// A page of notes in the user's order.
    public func list(_ request: PageRequest) throws(DomainError) -> Page<Note> {
        let after = try order.resumePosition(after: request.cursor)
        return try storage {
            try Page(keyset: selectPage, [.integer(after), .integer(Int64(request.limit + 1))], limit: request.limit, id: \.id) {
                let note = Self.note($0)
                return (note, $0.int64(10), note.title.utf8.count + note.content.utf8.count)
            }
        }
    }

    private lazy var updateNote = Prepared(
        database,
        """
        UPDATE notes SET title = ?2, content = ?3, hue = ?4, saturation = ?5, brightness = ?6, deadline = ?7,
                         updated_at = ?8, revision = ?9
        WHERE id = ?1
        """)

    /// Changes the given fields; checks `ifRevision` first, and the note's rules on the result.
    public func update(id: String, _ changes: NoteChanges, ifRevision: Int64? = nil) throws(DomainError) -> Note {
        try storage {
            try group.transaction {
                guard var note = try find(id) else { throw DomainError.notFound(kind: "note", id: id) }
                if let ifRevision, ifRevision != note.revision {
                    throw DomainError.revisionConflict(current: note.revision)
                }
                if let title = changes.title { note.title = title }
                if let content = changes.content { note.content = content }
                if let color = changes.color { note.color = color }
                if let deadline = changes.deadline { note.deadline = deadline }
                try TextRules.checkNote(title: note.title, content: note.content)
                note.updatedAt = clock.nowMilliseconds()
                note.revision += 1
                try updateNote.run(
                    [
                        .text(id), .text(note.title), .text(note.content), .real(note.color.hue),
                        .real(note.color.saturation), .real(note.color.brightness),
                        note.deadline.map { .integer($0) } ?? .null, .integer(note.updatedAt), .integer(note.revision),
                    ])
                try self.changes.record(.notes, .updated, id: id, at: note.updatedAt)
                return note
            }
        }
    }

    private lazy var deleteNote = Prepared(database, "DELETE FROM notes WHERE id = ?1")

    /// Deletes the note.
    public func delete(id: String) throws(DomainError) {
        try storage {
            try group.transaction {
                try deleteNote.run([.text(id)])
                guard database.changes == 1 else { throw DomainError.notFound(kind: "note", id: id) }
                try changes.record(.notes, .deleted, id: id, at: clock.nowMilliseconds())
            }
        }
    }

    /// Moves the note to 0-based `index` in the whole list.
    public func move(id: String, to index: Int) throws(DomainError) -> Note {
        try storage {
            try group.transaction {
                try order.move(
                    id: id, kind: "note", to: index, domain: .notes, changes: changes, now: clock.nowMilliseconds()
                ) { try find(id) }
            }
        }
    }

    /// How many notes there are.
    public func count() throws(DomainError) -> Int {
        try storage { try order.count() }
    }
}
