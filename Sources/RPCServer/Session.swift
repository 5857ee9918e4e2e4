import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Protocol

/// The state of one connection (one stdin/stdout pair): its language, time zone and lifecycle.
///
/// - Important: Used only on the thread that runs the server loop.
final class Session {
    var language: Language
    var timeZone: TimeZoneRules
    /// Set by `shutdown`: later requests are answered `-32007`.
    var isShuttingDown = false
    /// Set by `exit`: the loop stops after the current line.
    var exitRequested = false

    /// The reminder this connection is editing (SPEC §8).
    let editing: ReminderEditingSession
    /// What `changes.subscribe` asked for, if anything.
    var subscription: ChangeSubscription?
    /// Requests the client cancelled (`notifications/cancelled`), for the dispatcher to end.
    var cancelRequested: [RequestID] = []
    /// Set while a request that asked for progress (`params._meta.progressToken`) runs.
    var progress: ProgressReporter?

    /// Where the server may read and write files (`--files-root`, else anywhere).
    let serverFileAccess: FileAccess
    /// Where the running request may: the server's, narrowed to the client's roots while an MCP tool runs.
    var fileAccess: FileAccess
    /// The MCP client's roots: the only folders its tools reach.
    var roots = ClientRoots()
    /// The images this connection is uploading in chunks.
    let uploads: ImageUploads

    /// Runs `body` as an MCP tool: confined to the folders the client declared.
    func runningTool<T>(_ body: () throws -> T) rethrows -> T {
        let saved = fileAccess
        fileAccess = roots.fileAccess(within: serverFileAccess)
        defer { fileAccess = saved }
        return try body()
    }

    /// Reports progress on the running request, when it asked for it.
    func report(_ done: Int, total: Int? = nil, message: String? = nil) {
        progress?.report(done, total: total, message: message)
    }

    init(
        language: Language, timeZone: TimeZoneRules, editing: ReminderEditingSession, fileAccess: FileAccess = .anywhere,
        uploads: ImageUploads = ImageUploads(maximumImageBytes: 20 << 20, maximumMessageBytes: 32 << 20)
    ) {
        self.uploads = uploads
        self.language = language
        self.timeZone = timeZone
        self.editing = editing
        self.serverFileAccess = fileAccess
        self.fileAccess = fileAccess
    }
}
