#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One field of a synced entity, as merging sees it: its name in a row's `fields`, how two versions compare
/// on it, and how one version takes it from another. `content`: a change to it made apart from another
/// device's change to it is a clash (a field that is not content, a place in the user's order, is merged
/// like any other and never clashes); `copies`: a clash keeps the version it overwrote as a copy (a
/// reminder's completion does not: the later wins). A text a person writes (`text`) is merged three-way
/// first (``TextMerge``): only edits of the same words clash.
struct SyncField<Version> {
    let name: String
    let content: Bool
    let copies: Bool
    let same: (Version, Version) -> Bool
    let take: (inout Version, Version) -> Void
    /// The text it holds, and how a version is given a merged one: for the texts a person writes.
    let text: (get: (Version) -> String?, set: (inout Version, String?) -> Void)?

    init<Value: Equatable>(_ name: String, _ path: WritableKeyPath<Version, Value>, content: Bool = true, copies: Bool = true) {
        self.name = name
        self.content = content
        self.copies = content && copies
        same = { $0[keyPath: path] == $1[keyPath: path] }
        take = { $0[keyPath: path] = $1[keyPath: path] }
        text = nil
    }

    init(text name: String, _ path: WritableKeyPath<Version, String>) {
        self.name = name
        (content, copies) = (true, true)
        same = { $0[keyPath: path] == $1[keyPath: path] }
        take = { $0[keyPath: path] = $1[keyPath: path] }
        text = ({ $0[keyPath: path] }, { $0[keyPath: path] = $1 ?? "" })
    }

    init(text name: String, _ path: WritableKeyPath<Version, String?>) {
        self.name = name
        (content, copies) = (true, true)
        same = { $0[keyPath: path] == $1[keyPath: path] }
        take = { $0[keyPath: path] = $1[keyPath: path] }
        text = ({ $0[keyPath: path] }, { $0[keyPath: path] = $1 })
    }
}

/// An entity's version in the shared log (a row's `body`): what every device reads and writes for it.
protocol SyncVersion: Codable, Equatable, Sendable {
    var id: String { get set }
    var revision: Int64 { get set }
    static var fields: [SyncField<Self>] { get }
    /// The images it shows, by content (SHA-256): each uploaded once, fetched by devices that lack it.
    var images: [String] { get }
    /// The rules any version of it keeps (a row in PostgreSQL that breaks them is skipped).
    func check() throws(DomainError)
    /// This version kept beside another as a conflict copy, marked with where and when it was written
    /// (`label`: "laptop, 27 Nov 19:20") so a person sees which one it is.
    func markedAsConflict(_ label: String) -> Self
    /// When it was last changed (a version's `updatedAt`), if it says.
    var changedAt: String? { get }
    /// Takes the time of `change` (a row merged into this version): it was last changed then.
    mutating func dated(like change: Self)
}

extension SyncVersion {
    var images: [String] { [] }
    var changedAt: String? { nil }
    func markedAsConflict(_ label: String) -> Self { self }

    mutating func dated(like change: Self) {}

    /// The names of the fields in which `self` differs from `base` (every field when there is none).
    func changedFields(since base: Self?) -> [String] {
        Self.fields.filter { field in base.map { !field.same(self, $0) } ?? true }.map(\.name)
    }

    /// Whether `self` and `other` say the same in every content field.
    func sameContent(_ other: Self) -> Bool {
        Self.fields.allSatisfy { !$0.content || $0.same(self, other) }
    }

    func encoded() throws -> String {
        String(decoding: try JSONEncoder.sorted.encode(self), as: UTF8.self)
    }
}

/// `text — label`, kept within `limit` characters (and the field's bytes): the text gives up its end.
func conflictMarked(_ text: String, _ label: String, limit: Int) -> String {
    let mark = " — " + label
    var kept = text.prefix(max(0, limit - mark.count))
    while kept.utf8.count + mark.utf8.count > TextRules.byteLimit(characters: limit) { kept = kept.dropLast() }
    return String(kept) + mark
}

private func checked<T>(_ field: String, _ body: () throws(DomainError) -> T) throws(DomainError) -> T {
    do {
        return try body()
    } catch {
        if case .validation(let reason, _, let limit) = error { throw .validation(reason: reason, field: field, limit: limit) }
        throw error
    }
}

private func checkTimes(_ times: [String?], optional: [String?] = []) throws(DomainError) {
    for time in times where time.flatMap(Timestamp.parse) == nil {
        throw .validation(reason: .invalidDocument, field: "body")
    }
    for time in optional where time != nil && time.flatMap(Timestamp.parse) == nil {
        throw .validation(reason: .invalidDocument, field: "body")
    }
}

/// What every version keeps, whatever its domain: an id of the form ids of its kind take, a revision of at least 1,
/// and a place (if any) within the places a list holds.
private func checkIdentity(_ id: String, kind: String, revision: Int64, position: Int64? = nil) throws(DomainError) {
    guard EntityID.isValid(id, kind: kind) else { throw .validation(reason: .invalidDocument, field: "body.id") }
    guard revision >= 1 else { throw .validation(reason: .invalidDocument, field: "body.revision") }
    if let position, !OrderedList.validPositions.contains(position) {
        throw .validation(reason: .invalidDocument, field: "body.position")
    }
}

private func isSHA256(_ text: String) -> Bool {
    text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
}

/// A note in the shared log: the export's note and its place in the user's order (`position`: none in rows
/// written before order synced; such a note goes last).
struct SyncNote: SyncVersion {
    var id: String
    var title: String
    var content: String
    var color: ExchangeDocument.Color
    var deadline: String?
    var createdAt: String
    var updatedAt: String
    var revision: Int64
    var position: Int64?

    static var fields: [SyncField<SyncNote>] {
        [
            SyncField(text: "title", \.title), SyncField(text: "content", \.content), SyncField("color", \.color),
            SyncField("deadline", \.deadline), SyncField("position", \.position, content: false),
        ]
    }

    mutating func dated(like change: Self) { updatedAt = change.updatedAt }

    func check() throws(DomainError) {
        try checkIdentity(id, kind: "note", revision: revision, position: position)
        try checked("body") { () throws(DomainError) in
            try TextRules.checkNote(title: title, content: content)
            _ = try HSBColor(hue: color.hue, saturation: color.saturation, brightness: color.brightness)
        }
        try checkTimes([createdAt, updatedAt], optional: [deadline])
    }

    var changedAt: String? { updatedAt }

    func markedAsConflict(_ label: String) -> SyncNote {
        var copy = self
        copy.title = conflictMarked(title, label, limit: Note.maximumTitleLength)
        return copy
    }
}

/// A photo note in the shared log: its image by content, its caption, its place in the order.
struct SyncPhoto: SyncVersion {
    var id: String
    var image: String
    var caption: String?
    var createdAt: String
    var updatedAt: String
    var revision: Int64
    var position: Int64?

    static var fields: [SyncField<SyncPhoto>] {
        [
            SyncField("image", \.image), SyncField(text: "caption", \.caption),
            SyncField("position", \.position, content: false),
        ]
    }

    var images: [String] { [image] }

    mutating func dated(like change: Self) { updatedAt = change.updatedAt }

    func check() throws(DomainError) {
        try checkIdentity(id, kind: "photo", revision: revision, position: position)
        try checked("body") { () throws(DomainError) in try PhotoNote.checkCaption(caption) }
        guard isSHA256(image) else { throw .validation(reason: .invalidDocument, field: "body.image") }
        try checkTimes([createdAt, updatedAt])
    }

    var changedAt: String? { updatedAt }

    func markedAsConflict(_ label: String) -> SyncPhoto {
        var copy = self
        copy.caption = conflictMarked(caption ?? "", label, limit: PhotoNote.maximumCaptionLength)
        return copy
    }
}

/// A diary post in the shared log: its text and its photos by content, in order.
struct SyncPost: SyncVersion {
    var id: String
    var text: String?
    var images: [String]
    var createdAt: String
    var updatedAt: String
    var revision: Int64

    static var fields: [SyncField<SyncPost>] { [SyncField(text: "text", \.text), SyncField("images", \.images)] }

    mutating func dated(like change: Self) { updatedAt = change.updatedAt }

    func check() throws(DomainError) {
        try checkIdentity(id, kind: "post", revision: revision)
        try checked("body") { () throws(DomainError) in try DiaryPost.check(text: text, imageCount: images.count) }
        guard images.allSatisfy(isSHA256) else { throw .validation(reason: .invalidDocument, field: "body.images") }
        try checkTimes([createdAt, updatedAt])
    }

    var changedAt: String? { updatedAt }

    func markedAsConflict(_ label: String) -> SyncPost {
        var copy = self
        copy.text = conflictMarked(text ?? "", label, limit: DiaryPost.maximumTextLength)
        return copy
    }
}

/// A reminder in the shared log. Its fields merge one by one (a completion on one device and a new title
/// on another both stay); its completion is one field with its time, which the later change wins.
struct SyncReminder: SyncVersion {
    struct Completion: Codable, Equatable, Sendable {
        var completed: Bool
        var at: String?
    }

    var id: String
    var title: String
    var memo: String?
    var completed: Bool
    var completedAt: String?
    var createdAt: String
    var updatedAt: String
    var revision: Int64
    var position: Int64?

    var completion: Completion {
        get { Completion(completed: completed, at: completedAt) }
        set { (completed, completedAt) = (newValue.completed, newValue.at) }
    }

    static var fields: [SyncField<SyncReminder>] {
        [
            SyncField(text: "title", \.title), SyncField(text: "memo", \.memo),
            SyncField("completion", \.completion, copies: false), SyncField("position", \.position, content: false),
        ]
    }

    mutating func dated(like change: Self) { updatedAt = change.updatedAt }

    func check() throws(DomainError) {
        try checkIdentity(id, kind: "rem", revision: revision, position: position)
        try checked("body") { () throws(DomainError) in
            try Reminder.check(title: title, memo: memo)
            if TextRules.isBlank(title) { throw .validation(reason: .emptyTitle, field: "title") }
        }
        try checkTimes([createdAt, updatedAt], optional: [completedAt])
    }

    var changedAt: String? { updatedAt }

    func markedAsConflict(_ label: String) -> SyncReminder {
        var copy = self
        copy.title = conflictMarked(title, label, limit: Reminder.maximumTitleLength)
        return copy
    }
}

/// A message in the one conversation every account of the database shares. `author` is the account that
/// sent it, as PostgreSQL says (the first row of the message): never what a body claims.
struct SyncMessage: SyncVersion {
    var id: String
    var text: String
    var sentAt: String
    var revision: Int64 = 1
    var author: String?

    static var fields: [SyncField<SyncMessage>] { [SyncField("text", \.text)] }

    func check() throws(DomainError) {
        try checkIdentity(id, kind: "msg", revision: revision)
        try checked("body") { () throws(DomainError) in
            try Message.check(text: text)
            if let author {
                try TextRules.check(author, field: "author", characters: Author.maximumNameLength, reason: .titleTooLong)
            }
        }
        try checkTimes([sentAt])
    }

}

/// A board post every account reads; only its author (as PostgreSQL says) deletes it. Its votes are
/// entities of their own (``SyncVote``), one per account and post.
struct SyncBoardPost: SyncVersion {
    var id: String
    var title: String
    var createdAt: String
    var revision: Int64 = 1
    var author: String?

    static var fields: [SyncField<SyncBoardPost>] { [SyncField("title", \.title)] }

    func check() throws(DomainError) {
        try checkIdentity(id, kind: "bp", revision: revision)
        try checked("body") { () throws(DomainError) in try BoardPost.check(title: title) }
        try checkTimes([createdAt])
    }

}

/// One account's vote on a board post (entity `<post>/<account>`, which PostgreSQL holds to the account
/// that writes it): up, down, or none (withdrawn).
struct SyncVote: SyncVersion {
    var id: String
    var post: String
    var direction: String
    var revision: Int64 = 1

    static var fields: [SyncField<SyncVote>] { [SyncField("direction", \.direction, content: false)] }

    func check() throws(DomainError) {
        guard ["up", "down", "none"].contains(direction), id.hasPrefix(post + "/") else {
            throw .validation(reason: .invalidDocument, field: "body")
        }
    }

}
