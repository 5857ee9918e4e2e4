/// Settings the domain takes from the command line.
public struct DomainSettings {
    /// The free edition's cap on notes plus photo notes; `nil` is unlimited.
    public var freeLimit: Int?
    /// The largest image accepted, in bytes.
    public var maximumImageBytes: Int
    /// Where older chat messages come from (the built-in sample conversation by default).
    public var messageFeed: any MessageFeed
    /// Who sent messages are written as.
    public var localAuthor: Author

    public init(
        freeLimit: Int? = nil, maximumImageBytes: Int = 20 * 1024 * 1024,
        messageFeed: any MessageFeed = SampleMessageFeed(), localAuthor: Author = Author(name: "Me", avatarURL: nil)
    ) {
        self.freeLimit = freeLimit
        self.maximumImageBytes = maximumImageBytes
        self.messageFeed = messageFeed
        self.localAuthor = localAuthor
    }
}

/// Everything Satchel stores, behind one connection: the stores of each app, sharing the database,
/// the clock, the id generator and the change log.
///
/// - Important: Not thread-safe; it belongs to the thread that opened it.
public final class DataStore {
    public let database: Database
    /// What a chunk of pipelined requests shares: one commit, one read snapshot, batched rows.
    public let group: WriteGroup
    public let clock: any Clock
    public let changes: ChangeLog
    public let edition: Edition
    public let images: ImageStore
    public let notes: NoteStore
    public let photos: PhotoNoteStore
    public let reminders: ReminderStore
    public let diary: DiaryStore
    public let messages: MessageStore
    public let board: BoardStore
    public let exchange: Exchange
    public let search: SearchIndex
    public let sync: SyncStateStore

    /// Opens (creating and migrating as needed) the database at `path`, or an in-memory one for `nil`.
    public init(
        path: String?, settings: DomainSettings = DomainSettings(), clock: any Clock = SystemClock(),
        ids: (any IDGenerator)? = nil
    ) throws(DomainError) {
        let database: Database
        do {
            database = try Database(path: path, image: Migrations.template)
            try Migrations.migrate(database)
        } catch let error as SQLiteError {
            throw DomainError(error)
        } catch {
            throw DomainError.storage(reason: .storageError, detail: "\(error)")
        }
        let ids = ids ?? RandomIDGenerator(clock: clock)
        let group = WriteGroup(database: database)
        self.database = database
        self.group = group
        self.clock = clock
        self.ids = ids
        changes = ChangeLog(database: database, group: group, clock: clock)
        let counts = RowCounts(database: database)
        let context = StoreContext(
            database: database, group: group, clock: clock, ids: ids, changes: changes, counts: counts)
        edition = Edition(freeLimit: settings.freeLimit, counts: counts)
        images = ImageStore(context, maximumBytes: settings.maximumImageBytes)
        notes = NoteStore(context, edition: edition)
        photos = PhotoNoteStore(context, edition: edition, images: images)
        reminders = ReminderStore(context)
        diary = DiaryStore(context, images: images)
        messages = MessageStore(context, feed: settings.messageFeed, localAuthor: settings.localAuthor)
        board = BoardStore(context)
        exchange = Exchange(context, images: images)
        search = SearchIndex(database: database, group: group)
        sync = SyncStateStore(context, images: images, board: board, localAuthor: settings.localAuthor)
    }

    private let ids: any IDGenerator

    /// A new editing session for one connection.
    public func makeEditingSession() -> ReminderEditingSession {
        ReminderEditingSession(id: ids.makeID(kind: "session"))
    }

    /// Starts a write group: mutations from now on share one commit, made by ``commitWriteGroup()``.
    /// The server opens one for each batch of pipelined requests, so a burst of creates costs one commit;
    /// no answer is written before the commit it reports on.
    public func beginWriteGroup() {
        group.arm()
    }

    /// When a failure (a full disk) rolled the write group back since it was armed, why: everything done in
    /// it is undone. The group is armed afresh for what comes next. `nil` when it was not.
    public func takeLostWriteGroup() -> DomainError? {
        group.takeLoss().map { DomainError($0) }
    }

    /// Commits the write group. When the commit fails, everything in the group was rolled back.
    public func commitWriteGroup() throws(DomainError) {
        try storage { try group.commit() }
    }

    /// Before a clean exit: the database file alone is made to hold everything (``Database/checkpoint()``),
    /// so that a copy of it is a whole backup.
    public func close() {
        database.checkpoint()
    }

    /// The schema version of the open database.
    public func schemaVersion() throws(DomainError) -> Int {
        try storage { Int(try database.scalarInteger("PRAGMA user_version") ?? 0) }
    }
}
