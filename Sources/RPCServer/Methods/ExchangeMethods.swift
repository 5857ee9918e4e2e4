import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Protocol

/// `export` and `import` (SPEC §11): one JSON document of everything, in a message for small data or
/// through a file for data of any size.
enum ExchangeMethods {
    static let pathParam = Schema.string(description: "an absolute path")

    /// What `export {path}` answers.
    static func fileResult(path: String, bytes: Int, counts: [String: Int]) -> JSONValue {
        [
            "path": .string(path), "bytes": .integer(Int64(bytes)),
            "counts": .object(JSONObject(counts.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) })),
        ]
    }

    static func methods(store: DataStore, maximumMessageBytes: Int) -> [RPCMethod] {
        let exchange = store.exchange
        let importMode = Required<ImportMode>("mode", Schema.enumeration(["merge", "replace"]), "merge or replace.") {
            $0.stringValue.flatMap(ImportMode.init(rawValue:))
        }
        let methods = [
            RPCMethod(
                "export", title: "Export everything",
                summary: "Everything as one self-describing JSON document (format, version, every app, images as base64); with `path`, streamed into that file and answered {path, bytes, counts}. -32002 fileExists for a file already there without `overwrite`, or a path this client may not write.",
                params: [
                    .optional(
                        "path", pathParam,
                        "Write the document into this file (in an existing folder) and answer {path, bytes, counts}. A file already there is refused (fileExists) unless `overwrite` is true."),
                    .optional(
                        "overwrite", Schema.boolean,
                        "With `path`: replace a regular file already there (never a link or anything else). Default false."),
                ],
                result: Schema.object(
                    [
                        ("format", Schema.enumeration(["satchel"])), ("version", Schema.integer(minimum: 1)),
                        ("path", Schema.string()), ("bytes", Schema.integer(minimum: 0)),
                        ("counts", Schema.object([], additional: true)),
                    ], required: [], additional: true)
            ) { params, session in
                let progress: (Int, Int) -> Void = { session.report($0, total: $1) }
                if let path = params.string("path") {
                    let target = try session.fileAccess.writable(path, field: "path")
                    let file = try ExchangeFileOutput(path: target, overwrite: params.bool("overwrite") ?? false)
                    let writer = ExchangeWriter { chunk in try file.write(chunk) }
                    try exchange.export(progress: progress) { try writer.write($0) }
                    try writer.finish()
                    try file.finish()
                    return fileResult(path: path, bytes: file.bytes, counts: writer.counts)
                }
                var document: [UInt8] = []
                let writer = ExchangeWriter { chunk in
                    guard document.count + chunk.count <= maximumMessageBytes else {
                        throw DomainError.validation(reason: .exportTooLarge, field: "path", limit: Int64(maximumMessageBytes))
                    }
                    document.append(contentsOf: chunk)
                }
                try exchange.export(progress: progress) { try writer.write($0) }
                try writer.finish()
                return .encoded(EncodedJSON(validJSON: document))
            },
            RPCMethod(
                "import", title: "Import an export",
                summary: "Imports an export, from `document` or from the file at `path`: `replace` makes the database the document; `merge` adds what is not there yet. Returns {imported} (counts); a failed import changes nothing. -32002 for a document that is no export, or a path this client may not read.",
                params: [
                    .optional("document", Schema.openObject, "A document produced by `export`."),
                    .optional("path", pathParam, "Or the file an `export {path}` wrote (a regular file), read in pieces."),
                    importMode.spec,
                ],
                result: Schema.object([("imported", Schema.object([], additional: true))], required: ["imported"])
            ) { params, session in
                let mode = params[importMode]
                let progress: (Int, Int) -> Void = { session.report($0, total: $1) }
                let summary: ImportSummary
                switch (params["document"], params.string("path")) {
                case (let document?, nil):
                    summary = try exchange.importDocument(try decode(document), mode: mode, progress: progress)
                case (nil, let path?):
                    let source = try session.fileAccess.readable(path, field: "path")
                    summary = try exchange.importFile(path: source, mode: mode, progress: progress)
                case (nil, nil):
                    throw ServerError.missingParam("document", expected: "the document, or its file's `path`")
                case (_?, _?):
                    throw ServerError.invalidParam("path", expected: "either `document` or `path`, not both")
                }
                return [
                    "imported": .object(JSONObject(summary.counts.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) }))
                ]
            },
        ]
        // An export into a file of a database file reads on a connection of its own, off the loop (SQLite's
        // write-ahead log gives it a snapshot): the requests after it are answered meanwhile, and it is
        // answered when its file is in place. (In memory, or into a message, it runs in line.)
        let export = methods[0]
        export.waitReadsDatabase = true
        export.network = { params, session in
            guard let path = params.string("path"), let database = store.database.path else { return nil }
            let overwrite = params.bool("overwrite") ?? false
            return NetworkSteps(
                start: {
                    FileExport(
                        path: path, database: database,
                        file: try ExchangeFileOutput(path: try session.fileAccess.writable(path, field: "path"), overwrite: overwrite))
                },
                wait: { export, cancellation, progress throws(DomainError) in try export.run(cancellation, progress) },
                finish: { export, written in fileResult(path: export.path, bytes: written.bytes, counts: written.counts) })
        }
        return methods
    }

    /// The document as the domain's type, read from the parsed params as they are (never written back to
    /// text); a missing or mistyped member is `invalidDocument` naming it.
    static func decode(_ value: JSONValue) throws -> ExchangeDocument {
        if case .object(let object) = value, let version = object["version"]?.integerValue,
            version > Int64(ExchangeDocument.currentVersion)
        {
            throw DomainError.validation(
                reason: .unsupportedVersion, field: "document.version", limit: Int64(ExchangeDocument.currentVersion))
        }
        do {
            return try JSONValueDecoder().decode(ExchangeDocument.self, from: value)
        } catch let error as DecodingError {
            throw DomainError.validation(reason: .invalidDocument, field: "document" + ExchangeDocument.path(of: error))
        }
    }
}

/// An export into a file, run off the loop on a connection of its own.
final class FileExport: @unchecked Sendable {
    let path: String
    private let database: String
    /// Made on the loop thread, then used by the export's thread alone.
    private let file: ExchangeFileOutput

    struct Written: Sendable {
        var bytes: Int
        var counts: [String: Int]
    }

    init(path: String, database: String, file: ExchangeFileOutput) {
        self.path = path
        self.database = database
        self.file = file
    }

    /// Reads everything in one snapshot of its own connection and writes it into the file, which is put in
    /// place at the end; a cancelled export stops at its next piece and leaves no file.
    func run(_ cancellation: Cancellation, _ progress: WaitProgress) throws(DomainError) -> Written {
        do {
            let reader = try DataStore(path: database)
            let writer = ExchangeWriter { [file] chunk in
                if cancellation.isCancelled { throw DomainError.storage(reason: .ioError, detail: "the export was cancelled") }
                try file.write(chunk)
            }
            try reader.exchange.export(progress: { progress.report($0, total: $1) }) { try writer.write($0) }
            try writer.finish()
            try file.finish()
            return Written(bytes: file.bytes, counts: writer.counts)
        } catch let error as DomainError {
            throw error
        } catch {
            throw .storage(reason: .ioError, detail: "\(error)")
        }
    }
}

/// Writes an export as JSON text, element by element as ``Exchange/export(progress:_:)`` streams them, and
/// hands it on in pieces of about a megabyte (image bytes as base64 in pieces too), so nothing the size of
/// the document is ever held. Keys are sorted, so the same data always gives the same text.
final class ExchangeWriter {
    private var writer = JSONWriter(capacity: 1 << 16)
    private let output: (UnsafeRawBufferPointer) throws -> Void
    /// The document's members in order; lists are opened as their first element (or the end) comes.
    private static let members = ["board", "diary", "format", "images", "messageFeeds", "messages", "notes", "photos", "reminders", "version"]
    private var nextMember = 0
    private var firstInList = true
    private var firstMember = true
    /// How many elements each list got (images, notes, …: messageFeeds are not entities and not counted).
    private(set) var counts = Dictionary(
        uniqueKeysWithValues: ExchangeList.allCases.filter { $0 != .messageFeeds }.map { ($0.rawValue, 0) })
    private static let pieceSize = 1 << 20

    init(output: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.output = output
        writer.writeByte(UInt8(ascii: "{"))
    }

    private func flush() throws {
        try writer.withUnsafeBytes { try output($0) }
        writer.removeAll()
    }

    /// Writes the members in order until `member` is the one open (`format` and `version` on the way),
    /// closing each list before the next.
    private func advance(through member: String) {
        while nextMember < Self.members.count {
            let name = Self.members[nextMember]
            if nextMember > 0 {
                if ExchangeList(rawValue: Self.members[nextMember - 1]) != nil { writer.writeByte(UInt8(ascii: "]")) }
                writer.writeByte(UInt8(ascii: ","))
            }
            writer.write(string: name)
            writer.writeByte(UInt8(ascii: ":"))
            switch name {
            case "format": writer.write(string: ExchangeDocument.currentFormat)
            case "version": writer.write(integer: Int64(ExchangeDocument.currentVersion))
            default:
                writer.writeByte(UInt8(ascii: "["))
                firstInList = true
            }
            nextMember += 1
            if name == member { return }
        }
    }

    func write(_ element: ExchangeElement) throws {
        let list: ExchangeList
        switch element {
        case .board: list = .board
        case .diary: list = .diary
        case .image: list = .images
        case .feed: list = .messageFeeds
        case .message: list = .messages
        case .note: list = .notes
        case .photo: list = .photos
        case .reminder: list = .reminders
        }
        if nextMember == 0 || Self.members[nextMember - 1] != list.rawValue { advance(through: list.rawValue) }
        if !firstInList { writer.writeByte(UInt8(ascii: ",")) }
        firstInList = false
        if list != .messageFeeds { counts[list.rawValue, default: 0] += 1 }
        switch element {
        case .board(let post): write(post)
        case .diary(let post): write(post)
        case .image(let image, let bytes): try write(image, bytes: bytes)
        case .feed(let feed): write(feed)
        case .message(let message): write(message)
        case .note(let note): write(note)
        case .photo(let photo): write(photo)
        case .reminder(let reminder): write(reminder)
        }
        if writer.count >= Self.pieceSize { try flush() }
    }

    /// Ends the document and hands on what is left.
    func finish() throws {
        advance(through: "version")
        writer.writeByte(UInt8(ascii: "}"))
        try flush()
    }

    // MARK: Members, in sorted order

    /// Starts an object; its first member is written without a comma.
    private func open() {
        writer.writeByte(UInt8(ascii: "{"))
        firstMember = true
    }

    private func close() {
        writer.writeByte(UInt8(ascii: "}"))
    }

    private func key(_ name: StaticString) {
        if !firstMember { writer.writeByte(UInt8(ascii: ",")) }
        firstMember = false
        writer.writeByte(UInt8(ascii: "\""))
        writer.writeRaw(name)
        writer.writeRaw("\":")
    }

    /// A member written only when it has a value (as `Codable` leaves out a `nil`).
    private func optional(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        writer.write(string: value)
    }

    private func write(_ post: ExchangeDocument.BoardPost) {
        open()
        key("createdAt"); writer.write(string: post.createdAt)
        key("downs"); writer.write(integer: post.downs)
        key("id"); writer.write(string: post.id)
        key("revision"); writer.write(integer: post.revision)
        key("title"); writer.write(string: post.title)
        key("updatedAt"); writer.write(string: post.updatedAt)
        key("ups"); writer.write(integer: post.ups)
        key("votes")
        writer.writeByte(UInt8(ascii: "["))
        for (index, vote) in post.votes.enumerated() {
            if index > 0 { writer.writeByte(UInt8(ascii: ",")) }
            open()
            key("direction"); writer.write(string: vote.direction)
            key("voter"); writer.write(string: vote.voter)
            close()
        }
        writer.writeByte(UInt8(ascii: "]"))
        close()
    }

    private func write(_ post: ExchangeDocument.Post) {
        open()
        key("createdAt"); writer.write(string: post.createdAt)
        key("id"); writer.write(string: post.id)
        key("imageIds"); writer.write(.array(post.imageIds.map { .string($0) }))
        key("revision"); writer.write(integer: post.revision)
        optional("text", post.text)
        key("updatedAt"); writer.write(string: post.updatedAt)
        close()
    }

    private func write(_ image: ExchangeDocument.Image, bytes: [UInt8]) throws {
        open()
        key("createdAt"); writer.write(string: image.createdAt)
        key("data")
        writer.writeByte(UInt8(ascii: "\""))
        // Base64 in pieces of whole 3-byte groups, so the pieces join into the base64 of the whole.
        let piece = 3 * (1 << 16)
        for start in stride(from: 0, to: bytes.count, by: piece) {
            let encoded = Data(bytes[start..<min(bytes.count, start + piece)]).base64EncodedData()
            encoded.withUnsafeBytes { writer.writeRaw(bytes: $0.bindMemory(to: UInt8.self)) }
            if writer.count >= Self.pieceSize { try flush() }
        }
        writer.writeByte(UInt8(ascii: "\""))
        key("height"); writer.write(integer: Int64(image.height))
        key("id"); writer.write(string: image.id)
        key("mimeType"); writer.write(string: image.mimeType)
        key("sha256"); writer.write(string: image.sha256)
        key("width"); writer.write(integer: Int64(image.width))
        close()
    }

    private func write(_ message: ExchangeDocument.Message) {
        open()
        optional("authorAvatarUrl", message.authorAvatarUrl)
        key("authorName"); writer.write(string: message.authorName)
        optional("feedKey", message.feedKey)
        key("id"); writer.write(string: message.id)
        key("origin"); writer.write(string: message.origin)
        key("sentAt"); writer.write(string: message.sentAt)
        key("text"); writer.write(string: message.text)
        close()
    }

    private func write(_ feed: ExchangeDocument.Feed) {
        open()
        key("consumed"); writer.write(integer: Int64(feed.consumed))
        key("feed"); writer.write(string: feed.feed)
        close()
    }

    private func write(_ note: ExchangeDocument.Note) {
        open()
        key("color")
        open()
        key("brightness"); writer.write(number: note.color.brightness)
        key("hue"); writer.write(number: note.color.hue)
        key("saturation"); writer.write(number: note.color.saturation)
        close()
        key("content"); writer.write(string: note.content)
        key("createdAt"); writer.write(string: note.createdAt)
        optional("deadline", note.deadline)
        key("id"); writer.write(string: note.id)
        key("revision"); writer.write(integer: note.revision)
        key("title"); writer.write(string: note.title)
        key("updatedAt"); writer.write(string: note.updatedAt)
        close()
    }

    private func write(_ photo: ExchangeDocument.Photo) {
        open()
        optional("caption", photo.caption)
        key("createdAt"); writer.write(string: photo.createdAt)
        key("id"); writer.write(string: photo.id)
        key("imageId"); writer.write(string: photo.imageId)
        key("revision"); writer.write(integer: photo.revision)
        key("updatedAt"); writer.write(string: photo.updatedAt)
        close()
    }

    private func write(_ reminder: ExchangeDocument.Reminder) {
        open()
        key("completed"); writer.write(bool: reminder.completed)
        optional("completedAt", reminder.completedAt)
        key("createdAt"); writer.write(string: reminder.createdAt)
        key("id"); writer.write(string: reminder.id)
        optional("memo", reminder.memo)
        key("revision"); writer.write(integer: reminder.revision)
        key("title"); writer.write(string: reminder.title)
        key("updatedAt"); writer.write(string: reminder.updatedAt)
        close()
    }
}
