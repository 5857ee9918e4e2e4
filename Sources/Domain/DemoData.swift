#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Sample data for every app (`--demo`), so a new user has something to look at.
public enum DemoData {
    /// The board's 20 fruit-named posts, as in the original app, with varied votes.
    static let fruits: [(String, Int)] = [
        ("Apple", 12), ("Banana", 7), ("Cherry", 15), ("Date", -2), ("Elderberry", 3), ("Fig", 7), ("Grape", 9),
        ("Honeydew", 0), ("Kiwi", 4), ("Lemon", -1), ("Mango", 21), ("Nectarine", 5), ("Orange", 11),
        ("Papaya", 2), ("Quince", -3), ("Raspberry", 8), ("Strawberry", 18), ("Tangerine", 6), ("Watermelon", 14),
        ("Blueberry", 10),
    ]

    /// Fills `store` when it is empty; returns `false` (and adds nothing) when it already holds data.
    @discardableResult
    public static func fillIfEmpty(_ store: DataStore) throws(DomainError) -> Bool {
        let counts = [
            try store.notes.count(), try store.photos.count(), try store.reminders.count(), try store.diary.count(),
            try store.messages.count(), try store.board.count(),
        ]
        guard counts.allSatisfy({ $0 == 0 }) else { return false }
        // All of it or nothing: a process stopped half-way must not leave a half-filled "non-empty" database.
        try storage { try store.group.transaction { try fill(store) } }
        return true
    }

    private static func fill(_ store: DataStore) throws {
        let session = store.makeEditingSession()
        let day: Int64 = 86_400_000
        let now = store.clock.nowMilliseconds()

        // ENotes.
        let notes: [(String, String, HSBColor, Int64?)] = [
            ("Groceries", "Milk, eggs, bread, apples", try HSBColor(hue: 0.33, saturation: 0.35, brightness: 1), nil),
            ("Call the dentist", "Before Friday", try HSBColor(hue: 0, saturation: 0.45, brightness: 1), now + 3 * day),
            ("Ideas", "A raccoon that keeps notes", .white, nil),
            ("Книги", "Мастер и Маргарита", try HSBColor(hue: 0.6, saturation: 0.3, brightness: 1), nil),
            ("旅行", "京都で紅葉を見る", try HSBColor(hue: 0.08, saturation: 0.5, brightness: 1), now + 30 * day),
        ]
        for (title, content, color, deadline) in notes {
            _ = try store.notes.create(NoteDraft(title: title, content: content, color: color, deadline: deadline))
        }
        let sky = PNGEncoder.image(width: 48, height: 32) { _, y in (UInt8(90 + y * 4), UInt8(150 + y * 3), 235) }
        let forest = PNGEncoder.image(width: 32, height: 48) { x, _ in (40, UInt8(110 + x * 3), 60) }
        let sunset = PNGEncoder.image(width: 40, height: 40) { _, y in (250, UInt8(200 - y * 3), UInt8(80 + y)) }
        func input(_ bytes: [UInt8]) -> ImageInput { .data(base64: Data(bytes).base64EncodedString(), claimedMimeType: nil) }
        _ = try store.photos.add(image: input(sky), caption: "Sky over the lake")
        _ = try store.photos.add(image: input(forest), caption: nil)

        // Reminders.
        for title in ["Buy milk", "Water the plants", "Book train tickets", "Send the photos to Anna"] {
            _ = try store.reminders.add(title: title, session: session)
        }
        _ = try store.reminders.endEditing(session: session)
        if let first = try store.reminders.list(PageRequest(limit: 1), session: session).page.items.first {
            _ = try store.reminders.setCompleted(id: first.id, true, session: session)
        }
        _ = try store.reminders.update(
            id: try store.reminders.list(PageRequest(limit: 2), session: session).page.items[1].id,
            ReminderChanges(memo: "The ficus needs less"), session: session)

        // The diary.
        _ = try store.diary.create(text: "First day of the trip. The lake was perfectly still.", images: [input(sky), input(sunset)])
        _ = try store.diary.create(
            text: "Long walk in the forest.\nFound a path we had never seen.\nLunch by the river.\nRain on the way back.\nTea.\nSleep.",
            images: [input(forest), input(sky), input(sunset)])
        _ = try store.diary.create(text: "A quiet day at home.", images: [])

        // Messages: a few sent by the local user (older history comes from the feed with messages.loadMore).
        for text in ["Hi! Are we still on for Saturday?", "I'll bring the thermos."] {
            _ = try store.messages.send(text: text)
        }

        // The board.
        for (index, (title, votes)) in fruits.enumerated() {
            let post = try store.board.create(title: title)
            // Some down votes among the up votes, so "best" and "votes" differ.
            let downs = votes < 0 ? -votes : index % 4
            for _ in 0..<(votes + downs) { _ = try store.board.vote(id: post.id, .up) }
            for _ in 0..<downs { _ = try store.board.vote(id: post.id, .down) }
        }
        _ = try store.reminders.endSession(session)
    }
}
