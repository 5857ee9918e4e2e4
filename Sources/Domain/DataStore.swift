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

    /// Opens (creating and migrating as needed) the database at `path`, or an in-memory one for `nil`.
    public init(
        path: String?, settings: DomainSettings = DomainSettings(), clock: any Clock = SystemClock(),
        ids: (any IDGenerator)? = nil
    ) throws(DomainError) {
        do {
            database = try Database(path: path)
            try Migrations.migrate(database)
        } catch let error as SQLiteError {
            throw DomainError(error)
        } catch {
            throw DomainError.storage(reason: .storageError, detail: "\(error)")
        }
        self.clock = clock
        let ids = ids ?? RandomIDGenerator(clock: clock)
        changes = ChangeLog(database: database, clock: clock)
        edition = Edition(freeLimit: settings.freeLimit, database: database)
        images = ImageStore(
            database: database, clock: clock, ids: ids, changes: changes, maximumBytes: settings.maximumImageBytes)
        notes = NoteStore(database: database, clock: clock, ids: ids, changes: changes, edition: edition)
        photos = PhotoNoteStore(
            database: database, clock: clock, ids: ids, changes: changes, edition: edition, images: images)
        reminders = ReminderStore(database: database, clock: clock, ids: ids, changes: changes)
        diary = DiaryStore(database: database, clock: clock, ids: ids, changes: changes, images: images)
        messages = MessageStore(
            database: database, clock: clock, ids: ids, changes: changes, feed: settings.messageFeed,
            localAuthor: settings.localAuthor)
        board = BoardStore(database: database, clock: clock, ids: ids, changes: changes)
        exchange = Exchange(database: database, clock: clock, changes: changes)
        search = SearchIndex(database: database)
        self.ids = ids
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
        database.armGroup()
    }

    /// Commits the write group. When the commit fails, everything in the group was rolled back.
    public func commitWriteGroup() throws(DomainError) {
        try storage { try database.commitGroup() }
    }

    /// The schema version of the open database.
    public func schemaVersion() throws(DomainError) -> Int {
        try storage { Int(try database.scalarInteger("PRAGMA user_version") ?? 0) }
    }
}
