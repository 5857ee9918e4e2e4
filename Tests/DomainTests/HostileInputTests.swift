import Foundation
import Testing

@testable import Domain

/// What a client can send must never crash the server: malformed images, odd numbers, lost transactions.
@Suite struct HostileInputTests {
    static func heif(_ boxes: [UInt8]) -> [UInt8] {
        // ftyp (16 bytes): size, "ftyp", major brand "heic", minor version 0.
        [0, 0, 0, 16] + Array("ftypheic".utf8) + [0, 0, 0, 0] + boxes
    }

    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + body.count)
        return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            + Array(type.utf8) + body
    }

    @Test(arguments: [
        box("meta", []),  // too short for version and flags
        box("meta", [0, 0, 0, 0] + box("pitm", [])),  // an empty primary item box at the end
        box("meta", [0, 0, 0, 0] + box("pitm", [1, 0, 0, 0, 0])),  // version 1 cut short
        box("meta", [0, 0, 0, 0] + box("iprp", box("ipco", box("ispe", [0, 0])))),  // a short size box
        box("meta", [0, 0, 0, 0] + box("iprp", box("ipco", box("clap", [0, 0, 0, 1])))),
        box("meta", [0, 0, 0, 0] + box("iprp", box("ipco", box("irot", [])))),
        box("meta", [0, 0, 0, 0] + box("iprp", box("ipma", [0, 0, 0, 0, 255, 255, 255, 255]))),
    ])
    func malformedHEIFBoxesAreNotImagesAndNeverCrash(boxes: [UInt8]) {
        #expect(ImageFormat.inspect(Self.heif(boxes)) == nil)
    }

    @Test func randomlyDamagedHEICFilesNeverCrashTheSniffer() throws {
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/sample.heic")))
        var random = SplitMix(seed: 7)
        for _ in 0..<3000 {
            var bytes = original
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let index = Int(random.next() % UInt64(bytes.count))
                bytes[index] = UInt8(truncatingIfNeeded: random.next())
            }
            bytes = Array(bytes.prefix(Int(random.next() % UInt64(bytes.count + 1))))
            _ = ImageFormat.inspect(bytes)
        }
    }

    @Test func aGroupWhoseTransactionSQLiteRolledBackFailsAsAWhole() throws {
        let store = try DataStore(path: nil, clock: ManualClock(), ids: SequentialIDGenerator())
        store.beginWriteGroup()
        _ = try store.notes.create(NoteDraft(title: "answered first"))
        // What SQLite does by itself after a full disk or an I/O error.
        try store.database.execute("ROLLBACK")
        #expect(throws: DomainError.self) { try store.notes.create(NoteDraft(title: "would start afresh")) }
        #expect(throws: DomainError.self) { try store.commitWriteGroup() }
        #expect(try store.notes.count() == 0)
        // The next group works again.
        store.beginWriteGroup()
        _ = try store.notes.create(NoteDraft(title: "later"))
        try store.commitWriteGroup()
        #expect(try store.notes.count() == 1)
    }

    @Test func theBoardKeepsOnlyAFewFrozenOrders() throws {
        let store = try DataStore(path: nil, clock: ManualClock(), ids: SequentialIDGenerator())
        for index in 0..<30 { _ = try store.board.create(title: "post \(index)") }
        for _ in 0..<40 { _ = try store.board.list(sort: .votes, PageRequest(limit: 5)) }
        let kept = try store.database.scalarInteger("SELECT count(*) FROM board_snapshots") ?? 0
        #expect(kept <= Int64(BoardStore.maximumSnapshots))
        let rows = try store.database.scalarInteger("SELECT count(*) FROM board_snapshot_rows") ?? 0
        #expect(rows <= Int64(BoardStore.maximumSnapshots * 30))
    }

    @Test func tooManySearchWordsAreAnInvalidArgument() throws {
        let store = try DataStore(path: nil, clock: ManualClock(), ids: SequentialIDGenerator())
        let query = (0...SearchIndex.maximumTerms).map { "w\($0)" }.joined(separator: " ")
        #expect(throws: DomainError.invalidArgument(field: "query", expected: "at most 32 words")) {
            try store.search.search(query)
        }
        _ = try store.search.search((1...SearchIndex.maximumTerms).map { "w\($0)" }.joined(separator: " "))
    }
}
