import CLibPQ

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What went wrong talking to PostgreSQL, in words a person can act on. Never carries a password.
public struct PGError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The server could not be reached or refused the login.
        case connection
        /// A statement failed (`sqlState` says how: `42501` permission, `42P01` missing table…).
        case statement
    }

    public let kind: Kind
    public let sqlState: String?
    public let message: String
    /// PostgreSQL's primary message alone, without its severity and context (a statement's error).
    public var primary: String? = nil

    public var description: String { message }

    /// The schema `satchel sync-setup` makes is missing here (no such schema or table).
    public var isMissingSchema: Bool { sqlState == "3F000" || sqlState == "42P01" || sqlState == "42883" }
}

/// One libpq connection, used from one thread at a time. Statements take their values as text
/// parameters (`$1`, `$2`…): nothing a person typed is ever spliced into SQL.
public final class PGConnection {
    private let pq: LibPQ
    private let connection: OpaquePointer

    /// Connects with a libpq connection URI or `key=value` string; the password comes as libpq takes it
    /// (the URI, `PGPASSWORD`, `~/.pgpass`), and never appears in an error. A server that does not answer
    /// is given up after 10 seconds, unless the URI says otherwise (`connect_timeout`).
    public init(_ conninfo: String) throws(PGError) {
        let pq = try LibPQ.library()
        let keywords: [UnsafeMutablePointer<CChar>?] = [strdup("connect_timeout"), strdup("dbname"), nil]
        let values: [UnsafeMutablePointer<CChar>?] = [strdup("10"), strdup(conninfo), nil]
        defer { (keywords + values).forEach { free($0) } }
        // The URI's own settings, expanded from `dbname`, override the default before it.
        let names = keywords.map { $0.map { UnsafePointer($0) } }
        let settings = values.map { $0.map { UnsafePointer($0) } }
        let made = names.withUnsafeBufferPointer { names in
            settings.withUnsafeBufferPointer { pq.connectdbParams(names.baseAddress, $0.baseAddress, 1) }
        }
        guard let made else {
            throw PGError(kind: .connection, sqlState: nil, message: "could not start a PostgreSQL connection")
        }
        guard pq.status(made) == CONNECTION_OK else {
            let message = Self.words(pq.errorMessage(made))
            pq.finish(made)
            throw PGError(kind: .connection, sqlState: nil, message: message)
        }
        self.pq = pq
        connection = made
        // Notices (a NOTICE from CREATE … IF NOT EXISTS) are not errors: they go nowhere.
        _ = pq.setNoticeProcessor(connection, { _, _ in }, nil)
    }

    deinit {
        pq.finish(connection)
    }

    /// The role this connection logged in as: the account.
    public var user: String { pq.user(connection).map { String(cString: $0) } ?? "" }

    /// A statement's value: text, or bytes sent as they are (`bytea`, without doubling them into hex).
    public enum Parameter {
        case text(String?)
        case bytes([UInt8])
    }

    /// Runs one statement; answers its rows, each value as text (`nil` for NULL).
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws(PGError) -> [[String?]] {
        try run(sql, parameters.map { .text($0) }, binary: false) { [pq] result, row, column in
            String(cString: pq.getvalue(result, row, column)!)
        }
    }

    /// Runs one statement; answers its rows, each value as PostgreSQL's binary form (`bytea`: its bytes).
    @discardableResult
    public func executeBinary(_ sql: String, _ parameters: [Parameter]) throws(PGError) -> [[[UInt8]?]] {
        try run(sql, parameters, binary: true) { [pq] result, row, column in
            let length = Int(pq.getlength(result, row, column))
            return pq.getvalue(result, row, column)!.withMemoryRebound(to: UInt8.self, capacity: length) {
                [UInt8](UnsafeBufferPointer(start: $0, count: length))
            }
        }
    }

    private func run<Value>(
        _ sql: String, _ parameters: [Parameter], binary: Bool,
        _ value: (OpaquePointer, Int32, Int32) -> Value
    ) throws(PGError) -> [[Value?]] {
        let copies: [UnsafeMutablePointer<CChar>?] = parameters.map { parameter in
            switch parameter {
            case .text(let text): text.map { strdup($0) } ?? nil
            case .bytes(let bytes):
                bytes.withUnsafeBufferPointer { buffer in
                    let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(buffer.count, 1))
                    buffer.withMemoryRebound(to: CChar.self) { copy.update(from: $0.baseAddress!, count: buffer.count) }
                    return copy
                }
            }
        }
        defer {
            for (parameter, copy) in zip(parameters, copies) {
                if case .bytes = parameter { copy?.deallocate() } else { free(copy) }
            }
        }
        let lengths = parameters.map { parameter -> Int32 in
            if case .bytes(let bytes) = parameter { return Int32(bytes.count) }
            return 0
        }
        let formats = parameters.map { parameter -> Int32 in
            if case .bytes = parameter { return 1 }
            return 0
        }
        let values = copies.map { $0.map { UnsafePointer($0) } }
        let result = values.withUnsafeBufferPointer { values in
            pq.execParams(connection, sql, Int32(parameters.count), nil, values.baseAddress, lengths, formats, binary ? 1 : 0)
        }
        guard let result else {
            throw PGError(kind: .connection, sqlState: nil, message: Self.words(pq.errorMessage(connection)))
        }
        defer { pq.clear(result) }
        switch pq.resultStatus(result) {
        case PGRES_COMMAND_OK:
            return []
        case PGRES_TUPLES_OK:
            let rows = pq.ntuples(result)
            let columns = pq.nfields(result)
            return (0..<rows).map { row in
                (0..<columns).map { column in
                    pq.getisnull(result, row, column) != 0 ? nil : value(result, row, column)
                }
            }
        default:
            let state = pq.resultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let lost = pq.status(connection) != CONNECTION_OK
            let primary = pq.resultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
            throw PGError(
                kind: lost ? .connection : .statement, sqlState: state, message: Self.words(pq.resultErrorMessage(result)),
                primary: primary)
        }
    }

    /// The connection's socket, to wait on for notifications (`LISTEN`).
    public var socket: Int32 { pq.socket(connection) }

    /// Reads what the server sent and answers how many notifications (`NOTIFY`) came.
    public func takeNotifications() throws(PGError) -> Int {
        guard pq.consumeInput(connection) != 0 else {
            throw PGError(kind: .connection, sqlState: nil, message: Self.words(pq.errorMessage(connection)))
        }
        var count = 0
        while let notification = pq.notifies(connection) {
            pq.freemem(notification)
            count += 1
        }
        return count
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(_ body: () throws(PGError) -> T) throws(PGError) -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    /// libpq's message as one line: its lines joined, blank ones and the trailing newline dropped.
    static func words(_ text: UnsafeMutablePointer<CChar>?) -> String {
        oneLine(text.map { String(cString: $0) } ?? "")
    }

    static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline)
            .map { $0.drop(while: \.isWhitespace) }
            .filter { !$0.isEmpty }
            .joined(separator: "; ")
    }
}

/// What a connection URI says, for showing: who, where, which database — never the password.
public struct PGTarget: Sendable, Equatable, CustomStringConvertible {
    public let user: String?
    public let host: String?
    public let database: String?

    /// The parts of `conninfo`, or `nil` when libpq cannot read it (the reason in `error`).
    public static func parse(_ conninfo: String) -> Result<PGTarget, PGError> {
        let pq: LibPQ
        do { pq = try LibPQ.library() } catch { return .failure(error) }
        var failure: UnsafeMutablePointer<CChar>? = nil
        guard let options = pq.conninfoParse(conninfo, &failure) else {
            let message = failure.map { String(cString: $0) } ?? "not a connection string"
            if let failure { pq.freemem(failure) }
            return .failure(
                PGError(kind: .connection, sqlState: nil, message: PGConnection.oneLine(withoutQuotes(message))))
        }
        defer { pq.conninfoFree(options) }
        var values: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { values[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        return .success(PGTarget(user: values["user"], host: values["host"], database: values["dbname"]))
    }

    /// libpq's words about a URI it cannot read quote the part it stumbled on, which may be the password
    /// (`invalid percent-encoded token: "100%sure"`): what is quoted is left out.
    static func withoutQuotes(_ message: String) -> String {
        var out = ""
        var quoted = false
        for character in message {
            if character == "\"" {
                if !quoted { out += "…" }
                quoted.toggle()
            } else if !quoted {
                out.append(character)
            }
        }
        return quoted ? String(out.prefix { $0 != "…" }) : out
    }

    public var description: String {
        "\(user ?? "(default role)")@\(host ?? "localhost")/\(database ?? "(default database)")"
    }
}
