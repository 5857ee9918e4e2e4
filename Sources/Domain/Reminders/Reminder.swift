/// A reminder of the Reminders app.
public struct Reminder: Sendable, Equatable {
    public var id: String
    public var title: String
    public var memo: String?
    public var completed: Bool
    public var completedAt: Int64?
    public var createdAt: Int64
    public var updatedAt: Int64
    public var revision: Int64
    /// Whether the connection that asked has its cursor in this reminder.
    public var editing: Bool

    /// The memo is shown when it has text, or while the reminder is being edited.
    public var memoVisible: Bool { !(memo ?? "").isEmpty || editing }

    public static let maximumTitleLength = 1000
    public static let maximumMemoLength = 100_000

    static func check(title: String?, memo: String?) throws(DomainError) {
        if let title { try TextRules.check(title, field: "title", characters: maximumTitleLength, reason: .titleTooLong) }
        if let memo { try TextRules.check(memo, field: "memo", characters: maximumMemoLength, reason: .memoTooLong) }
    }
}

/// What `reminders.update` changes; `nil` members stay as they are.
public struct ReminderChanges: Sendable {
    public var title: String?
    /// `.some(nil)` clears the memo.
    public var memo: String??

    public init(title: String? = nil, memo: String?? = nil) {
        self.title = title
        self.memo = memo
    }
}

/// One connection's editing state: at most one reminder has its cursor.
///
/// The session is recorded in the database while it holds a reminder, with the identity of the process
/// that owns it, so that any process can tell a live editor from one that died (kill -9) and clean up the
/// blank reminder a dead one left behind.
public final class ReminderEditingSession {
    /// Unique per connection.
    public let id: String
    /// The reminder being edited, if any.
    public internal(set) var editingID: String?

    public init(id: String) {
        self.id = id
    }
}
