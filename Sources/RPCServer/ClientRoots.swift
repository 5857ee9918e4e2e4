import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Protocol

/// The folders an MCP client lets the server's tools use: its roots (MCP's `roots` capability of the
/// handshake versions), asked for with the server's own request `roots/list` once the client is initialized
/// and again whenever it says `notifications/roots/list_changed`. A client that declared the capability
/// but answered with an error has none: its tools reach no files. A client without the capability (every
/// 2026-07-28 client: that version has no roots) has the folders of `--files-root`, or none without it.
///
/// While the server waits for the answer, the requests that arrive meanwhile wait too (the dispatcher holds
/// them back, in order): a tool call right after `notifications/initialized` is checked against the roots
/// the client meant, never against none or a stale list.
struct ClientRoots {
    enum State: Equatable {
        /// No list: the client declared no roots capability (or is not an MCP client).
        case none
        /// The list is to be asked for.
        case wanted
        /// Asked with the request `id` at `since` (monotonic milliseconds); requests wait for the answer.
        case asking(id: RequestID, since: Int64)
        /// The client's folders, as absolute paths.
        case known([String])
    }

    /// How long the server waits for `roots/list` to be answered before treating the client as having no
    /// roots (and serving what waited).
    static let answerTimeoutMilliseconds: Int64 = 10_000

    private(set) var state = State.none
    /// Whether the client's `initialize` declared the roots capability.
    private(set) var declared = false
    private var asked = 0

    /// `initialize`: the client's capabilities say whether it has roots.
    mutating func initialize(capabilities: JSONObject?) {
        declared = capabilities?["roots"]?.objectValue != nil
        state = .none
    }

    /// `notifications/initialized` or `notifications/roots/list_changed`: (re)read the list, if the client
    /// has one.
    mutating func refresh() {
        if declared { state = .wanted }
    }

    var isAsking: Bool {
        if case .asking = state { return true }
        return false
    }

    /// When the list is wanted: the request to send now (`roots/list`), after which the state is asking.
    /// `now` is read only then: this runs after every line, and the clock need not be.
    mutating func takeRequest(now: @autoclosure () -> Int64) -> (id: RequestID, method: String)? {
        guard state == .wanted else { return nil }
        asked += 1
        let id = RequestID.string("satchel-roots-\(asked)")
        state = .asking(id: id, since: now())
        return (id, "roots/list")
    }

    /// Takes the client's answer to `id` when it is the one awaited; whether it was. `result` is `nil` for
    /// an error answer, which leaves the client with no roots.
    mutating func take(answer id: RequestID, result: JSONValue?, logger: Logger) -> Bool {
        guard case .asking(let awaited, _) = state, awaited == id else { return false }
        guard let entries = result?["roots"]?.arrayValue else {
            logger.warn("the client's roots/list answer holds no roots list; its tools reach no files")
            state = .known([])
            return true
        }
        var folders: [String] = []
        for entry in entries {
            guard let uri = entry["uri"]?.stringValue, let path = Self.path(ofFileURI: uri) else {
                logger.warn("ignored a root that is not a file:// URI of an absolute path: \(entry)")
                continue
            }
            folders.append(path)
        }
        logger.info("the client's roots: \(folders.isEmpty ? "none" : folders.joined(separator: ", "))")
        state = .known(folders)
        return true
    }

    /// The wait has lasted too long (or input ended): the client has no roots until it says otherwise.
    /// Whether the state changed.
    mutating func giveUp(now: Int64, force: Bool, logger: Logger) -> Bool {
        guard case .asking(_, let since) = state, force || now - since >= Self.answerTimeoutMilliseconds else {
            return false
        }
        logger.warn("the client did not answer roots/list; its tools reach no files")
        state = .known([])
        return true
    }

    /// Milliseconds left to wait for the answer, if the server is waiting.
    func remainingWait(now: Int64) -> Int64? {
        guard case .asking(_, let since) = state else { return nil }
        return max(0, since + Self.answerTimeoutMilliseconds - now)
    }

    /// Where the client's tools may reach within `base` (the server's `--files-root` folders, or anywhere):
    /// the roots it declared, none while they are asked for; for a client without the roots capability,
    /// `base` when `--files-root` confines it, and nothing when it does not.
    func fileAccess(within base: FileAccess) -> FileAccess {
        switch state {
        case .known(let folders): return base.restricted(to: folders, scope: .clientRoots)
        case .none where !base.isUnrestricted: return base
        case .none, .wanted, .asking: return base.restricted(to: [], scope: .clientRoots)
        }
    }

    /// `file:///home/me/Notes` → `/home/me/Notes` (percent-escapes decoded); `nil` for anything else.
    static func path(ofFileURI uri: String) -> String? {
        guard let url = URL(string: uri), url.scheme?.lowercased() == "file",
            url.host == nil || url.host == "" || url.host == "localhost"
        else { return nil }
        let path = url.path
        return path.hasPrefix("/") ? path : nil
    }
}
