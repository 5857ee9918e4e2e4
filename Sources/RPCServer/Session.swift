import Domain
import Foundation

/// The state of one connection (one stdin/stdout pair): its language, time zone and lifecycle.
///
/// - Important: Used only on the thread that runs the server loop.
final class Session {
    var language: Language
    var timeZone: TimeZone
    /// Set by `shutdown`: later requests are answered `-32007`.
    var isShuttingDown = false
    /// Set by `exit`: the loop stops after the current line.
    var exitRequested = false

    /// The reminder this connection is editing (SPEC §8).
    let editing: ReminderEditingSession
    /// What `changes.subscribe` asked for, if anything.
    var subscription: ChangeSubscription?

    init(language: Language, timeZone: TimeZone, editing: ReminderEditingSession) {
        self.language = language
        self.timeZone = timeZone
        self.editing = editing
    }
}
