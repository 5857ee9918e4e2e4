import Foundation
import Testing

@testable import Domain

/// A new database is made from a copy of the migrations' result (SchemaTemplate.swift), in one step. The copy
/// must be what the migrations make, row for row; when a migration is added, record it again:
/// `SATCHEL_RECORD_SCHEMA_TEMPLATE=1 swift test --filter SchemaTemplateTests`.
@Suite(.serialized) struct SchemaTemplateTests {
    static let folder: String = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("schema-template-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }()

    /// `sqlite3 FILE .dump`: the schema and every row, in a fixed order (or what `commands` say).
    static func dump(_ path: String, _ commands: [String] = ["PRAGMA user_version", ".dump"]) throws -> String {
        try ChildOutput.run("/usr/bin/env", ["sqlite3", path] + commands, environment: ProcessInfo.processInfo.environment, succeeding: true)
    }

    /// A database file made by running every migration, compacted (`VACUUM`, which puts the schema's
    /// entries in its own order, as the template's are).
    static func migrated(_ name: String) throws -> String {
        let database = try Database(path: nil)
        try Migrations.migrate(database)
        let path = folder + "/" + name
        try database.execute("VACUUM INTO '\(path)'")
        return path
    }

    @Test func theTemplateIsWhatTheMigrationsMake() throws {
        if ProcessInfo.processInfo.environment["SATCHEL_RECORD_SCHEMA_TEMPLATE"] == "1" { try Self.record() }
        #expect(Migrations.latestVersion == Migrations.all.count, "Migrations.latestVersion counts the migrations")
        #expect(SchemaTemplate.version == Migrations.latestVersion, "record the template again (see above)")
        let expected = try Self.dump(try Self.migrated("migrated.sqlite"))
        #expect(expected.contains("CREATE TABLE notes("))

        // A new file.
        let file = Self.folder + "/new.sqlite"
        _ = try DataStore(path: file)
        #expect(try Self.dump(file) == expected)
        let mode = try #require(FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: Self.folder).filter { $0.contains(".new-") } == [])

        // In memory: written out as a file to compare.
        let store = try DataStore(path: nil)
        let copy = Self.folder + "/memory.sqlite"
        try store.database.execute("VACUUM INTO '\(copy)'")
        #expect(try Self.dump(copy) == expected)
    }

    @Test func aNewDatabaseFromTheTemplateWorks() throws {
        let store = try DataStore(path: Self.folder + "/working.sqlite")
        let note = try store.notes.create(NoteDraft(title: "Milk", content: "2 l"))
        #expect(try store.notes.list(PageRequest(limit: 10)).items.map(\.title) == ["Milk"])
        #expect(try store.search.search("milk").map(\.id) == [note.id])
        #expect(try store.database.scalarText("PRAGMA journal_mode") == "wal")
        #expect(try store.database.scalarText("PRAGMA integrity_check") == "ok")
    }

    @Test func anEmptyFileIsMigrated() throws {
        let path = Self.folder + "/empty.sqlite"
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let store = try DataStore(path: path)
        #expect(try store.database.scalarInteger("PRAGMA user_version") == Int64(Migrations.latestVersion))
        let schema = ["SELECT type, name, sql FROM sqlite_master ORDER BY name"]
        #expect(try Self.dump(path, schema) == Self.dump(try Self.migrated("empty-expected.sqlite"), schema))
    }

    @Test func anInMemoryDatabaseGrowsPastTheTemplate() throws {
        let store = try DataStore(path: nil)
        let text = String(repeating: "x", count: 50_000)
        for index in 0..<100 { _ = try store.notes.create(NoteDraft(title: "note \(index)", content: text)) }
        #expect(try DomainTestSupport.allNotes(store).count == 100)
        #expect(try store.database.scalarText("PRAGMA integrity_check") == "ok")
    }

    /// Writes Sources/Domain/Store/SchemaTemplate.swift from a database the migrations made.
    static func record() throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try migrated("record.sqlite"))))
        bytes[18] = 1  // a rollback-journal file: an in-memory copy cannot be WAL; files are switched on opening
        bytes[19] = 1
        var segments: [(Int, [UInt8])] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index] != 0 else {
                index += 1
                continue
            }
            var end = index
            // A run of non-zero bytes, with gaps of up to 16 zeros inside it.
            while end < bytes.count, bytes[end..<min(bytes.count, end + 16)].contains(where: { $0 != 0 }) {
                end = bytes[end..<min(bytes.count, end + 16)].lastIndex(where: { $0 != 0 })! + 1
            }
            segments.append((index, Array(bytes[index..<end])))
            index = end
        }
        let lines = segments.map { offset, run in "        (\(offset), \"\(Data(run).base64EncodedString())\")," }
        let source = """
            // Made by SchemaTemplateTests: SATCHEL_RECORD_SCHEMA_TEMPLATE=1 swift test --filter SchemaTemplateTests
            /// A new, empty database file as the migrations leave it (see ``Migrations/template``): its non-zero
            /// runs, base64, at their offsets.
            enum SchemaTemplate {
                static let version = \(Migrations.latestVersion)
                static let size = \(bytes.count)
                static let segments: [(offset: Int, base64: String)] = [
            \(lines.joined(separator: "\n"))
                ]
            }

            """
        let target = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/Domain/Store/SchemaTemplate.swift")
        try source.write(to: target, atomically: true, encoding: .utf8)
    }
}
