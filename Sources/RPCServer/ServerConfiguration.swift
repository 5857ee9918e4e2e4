import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the data lives.
enum DatabaseLocation: Equatable {
    case file(String)
    case memory

    /// How `server.info` reports it.
    var description: String {
        switch self {
        case .file(let path): return path
        case .memory: return ":memory:"
        }
    }

    /// The default database path of SPEC §12: `$SATCHEL_DB`, else `$XDG_DATA_HOME/satchel/satchel.sqlite`,
    /// else `~/.local/share/satchel/satchel.sqlite`.
    static func defaultPath(environment: [String: String]) -> String {
        if let explicit = environment["SATCHEL_DB"], !explicit.isEmpty { return explicit }
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return dataHome + "/satchel/satchel.sqlite"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        return home + "/.local/share/satchel/satchel.sqlite"
    }
}

/// Everything the command line decides, validated.
struct ServerConfiguration {
    var database: DatabaseLocation
    var language: Language = .english
    var timeZone: TimeZoneRules = .gmt
    var logLevel: LogLevel = .warn
    var maximumMessageBytes = 32 * 1024 * 1024
    var maximumImageBytes = 20 * 1024 * 1024
    /// The free edition's cap on notes plus photo notes; `nil` is unlimited.
    var freeLimit: Int?
    /// `http(s)://…` or `file:///…`; `nil` for the built-in sample conversation.
    var messagesFeed: URL?
    /// The PostgreSQL database to sync with (a libpq connection URI); `nil`: no sync.
    var syncURL: String?
    var feedTimeout: Double = 10
    var userName = "Me"
    var userAvatarURL: String?
    /// `--demo`: fill an empty database with sample data for every app.
    var demo = false
    /// `--files-root`: the only folders whose files requests may read and write; none given, any.
    var filesRoots: [String] = []

    /// Where requests may read and write files (an MCP tool's calls are confined further, to the client's
    /// roots).
    var fileAccess: FileAccess {
        filesRoots.isEmpty ? .anywhere : FileAccess.anywhere.restricted(to: filesRoots, scope: .serverRoots)
    }

    /// What the domain needs of it.
    var domainSettings: DomainSettings {
        let feed: any MessageFeed
        switch messagesFeed {
        case let url? where url.isFileURL: feed = FileMessageFeed(path: url.path)
        case let url?: feed = HTTPMessageFeed(url: url, timeout: feedTimeout)
        case nil: feed = SampleMessageFeed()
        }
        return DomainSettings(
            freeLimit: freeLimit, maximumImageBytes: maximumImageBytes, messageFeed: feed,
            localAuthor: Author(name: userName, avatarURL: userAvatarURL))
    }

    /// The path handed to the store (`nil` in memory).
    var databasePath: String? {
        if case .file(let path) = database { return path }
        return nil
    }
}
