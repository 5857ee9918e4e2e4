import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sync

/// What the command line asks for.
enum CommandLineRequest {
    case serve(ServerConfiguration)
    /// `satchel sync-setup URL`: make or migrate the PostgreSQL schema, then exit.
    case syncSetup(url: String)
    case help
    case version
}

/// A command line that cannot be obeyed; printed as one line on stderr, exit code 2.
struct UsageError: Error, Equatable {
    let message: String
}

/// The hand-written parser of satchel's flags (SPEC §12). Accepts `--flag value` and `--flag=value`.
enum CommandLineOptions {
    static let usage = """
        usage: satchel [--db PATH | --memory] [--demo] [--locale L] [--time-zone TZ] [--free-limit N]
                       [--messages-feed URL] [--feed-timeout S] [--user-name NAME] [--user-avatar-url URL]
                       [--max-message-bytes N] [--max-image-bytes N] [--files-root DIR]...
                       [--sync URL] [--log-level L] [--version] [--help]
               satchel sync-setup URL

        Serves JSON-RPC 2.0 on stdin/stdout, one message per line.

        sync-setup URL: creates or migrates the sync schema in the PostgreSQL database that
        the libpq connection URI names (postgresql://role@host/db), owned by that role: run
        it once as the database's owner, a role no device syncs as; running it again is safe.

          --db PATH                 SQLite database file (default: $SATCHEL_DB, else
                                    $XDG_DATA_HOME/satchel/satchel.sqlite, else
                                    ~/.local/share/satchel/satchel.sqlite)
          --memory                  keep everything in memory; nothing is saved
          --demo                    fill an empty database with sample data for every app
          --locale L                language of messages: en, ru or ja (default en)
          --time-zone TZ            IANA time zone for formatted dates (default: the system's)
          --free-limit N            free edition: at most N notes and photo notes together
                                    (default: unlimited)
          --messages-feed URL       upstream of older chat messages: http(s)://… (asked
                                    GET URL?offset=N&limit=M) or file:///path.json
                                    (default: a built-in sample conversation)
          --feed-timeout S          seconds to wait for the feed (default 10)
          --user-name NAME          author of sent messages (default Me)
          --user-avatar-url URL     avatar of sent messages: an absolute http(s) URL
          --max-message-bytes N     longest accepted line in bytes (default 33554432)
          --max-image-bytes N       largest accepted image in bytes (default 20971520)
          --files-root DIR          read and write files (export, import, images by path)
                                    only inside DIR; repeatable (default: wherever the
                                    user may). MCP tools: only inside the client's roots;
                                    for a client without roots (every MCP 2026-07-28
                                    client), only inside DIR; with neither, no files
          --sync URL                sync with the PostgreSQL database of this libpq connection
                                    URI (postgresql://role@host/db; the password as libpq takes
                                    it: the URI, PGPASSWORD or ~/.pgpass); the role is the account
          --log-level L             error, warn, info or debug (default warn); logs go to stderr
          --version                 print the version and exit
          --help                    print this help and exit
        """

    /// The environment variables ``parse(_:environment:)`` reads, from this process's (only these: making
    /// the whole environment a dictionary cost more than the rest of reading the command line).
    static func environment() -> [String: String] {
        ["SATCHEL_DB", "XDG_DATA_HOME", "HOME", "TZ"].reduce(into: [:]) { values, name in
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
    }

    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError)
        -> CommandLineRequest
    {
        var databasePath: String? = nil
        var memory = false
        var configuration = ServerConfiguration(database: .memory)
        configuration.timeZone = .current(environment: environment)
        var index = 0
        if arguments.first == "sync-setup" {
            guard arguments.count == 2, !arguments[1].hasPrefix("-") else {
                if arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) { return .help }
                throw UsageError(message: "sync-setup needs one argument: a PostgreSQL connection URI (see --help)")
            }
            return .syncSetup(url: arguments[1])
        }

        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else {
                throw UsageError(message: "unexpected argument '\(argument)' (see --help)")
            }
            var name = argument
            var inlineValue: String? = nil
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard index < arguments.count else { throw UsageError(message: "\(name) needs a value") }
                index += 1
                return arguments[index - 1]
            }
            func noValue() throws(UsageError) {
                if inlineValue != nil { throw UsageError(message: "\(name) takes no value") }
            }
            switch name {
            case "--help", "-h":
                return .help
            case "--version":
                return .version
            case "--db":
                let path = try value()
                guard !path.isEmpty else { throw UsageError(message: "--db needs a non-empty path") }
                databasePath = path
            case "--memory":
                try noValue()
                memory = true
            case "--demo":
                try noValue()
                configuration.demo = true
            case "--locale":
                let tag = try value()
                guard let language = Language(rawValue: tag) else {
                    throw UsageError(message: "--locale must be one of en, ru, ja (got '\(tag)')")
                }
                configuration.language = language
            case "--time-zone":
                let identifier = try value()
                guard let zone = TimeZoneRules(identifier: identifier) else {
                    throw UsageError(message: "--time-zone: unknown time zone '\(identifier)'")
                }
                configuration.timeZone = zone
            case "--max-message-bytes":
                let text = try value()
                guard let bytes = Int(text), bytes >= 64 else {
                    throw UsageError(message: "--max-message-bytes must be a whole number of at least 64 (got '\(text)')")
                }
                configuration.maximumMessageBytes = bytes
            case "--max-image-bytes":
                let text = try value()
                guard let bytes = Int(text), bytes >= 1 else {
                    throw UsageError(message: "--max-image-bytes must be a whole number of at least 1 (got '\(text)')")
                }
                configuration.maximumImageBytes = bytes
            case "--free-limit":
                let text = try value()
                guard let limit = Int(text), limit >= 0 else {
                    throw UsageError(message: "--free-limit must be a whole number of at least 0 (got '\(text)')")
                }
                configuration.freeLimit = limit
            case "--messages-feed":
                let text = try value()
                guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                    (["http", "https"].contains(scheme) && url.host != nil) || (scheme == "file" && url.path.hasPrefix("/"))
                else {
                    throw UsageError(message: "--messages-feed must be an http(s):// or file:/// URL (got '\(text)')")
                }
                configuration.messagesFeed = url
            case "--feed-timeout":
                let text = try value()
                guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 3600 else {
                    throw UsageError(message: "--feed-timeout must be a number of seconds above 0 (got '\(text)')")
                }
                configuration.feedTimeout = seconds
            case "--user-name":
                let name = try value()
                guard !name.allSatisfy(\.isWhitespace) else {
                    throw UsageError(message: "--user-name must not be blank")
                }
                configuration.userName = name
            case "--user-avatar-url":
                let text = try value()
                guard Author.acceptedAvatarURL(text) != nil else {
                    throw UsageError(message: "--user-avatar-url must be an absolute http(s) URL (got '\(text)')")
                }
                configuration.userAvatarURL = text
            case "--files-root":
                let folder = try value()
                var status = stat()
                guard folder.hasPrefix("/"), stat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                    throw UsageError(message: "--files-root must be an absolute path of an existing folder (got '\(folder)')")
                }
                configuration.filesRoots.append(folder)
            case "--sync":
                let url = try value()
                if case .failure(let error) = PGTarget.parse(url) {
                    throw UsageError(message: "--sync must be a PostgreSQL connection URI: \(error.message)")
                }
                configuration.syncURL = url
            case "--log-level":
                let text = try value()
                guard let level = LogLevel(name: text) else {
                    throw UsageError(message: "--log-level must be one of error, warn, info, debug (got '\(text)')")
                }
                configuration.logLevel = level
            default:
                throw UsageError(message: "unknown option '\(name)' (see --help)")
            }
        }
        if memory && databasePath != nil {
            throw UsageError(message: "--db and --memory cannot be used together")
        }
        configuration.database =
            memory ? .memory : .file(databasePath ?? DatabaseLocation.defaultPath(environment: environment))
        return .serve(configuration)
    }
}
