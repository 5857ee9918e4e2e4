import Testing

@testable import Domain

/// Applying rows of the shared log (SPEC §14) in-process: what a device's own changes not yet pushed hold
/// back, and what they must not.
@Suite struct SyncApplyTests {
    typealias Support = DomainTestSupport

    /// A vote row from another account, as a pull brings it.
    static func vote(_ seq: Int64, post: String, by account: String, _ direction: String) -> PulledRow {
        PulledRow(
            seq: seq, device: "device-of-\(account)", account: account, own: false, deviceSeq: seq, domain: "votes",
            entity: "\(post)/\(account)", op: "put",
            body: #"{"direction":"\#(direction)","id":"\#(post)/\#(account)","post":"\#(post)","revision":1}"#, base: nil,
            fields: ["direction"])
    }

    @Test func anotherAccountsVoteCountsWhileThisDevicesOwnVoteOnThePostWaitsToGoOut() throws {
        let store = try Support.openStore()
        store.sync.account = "alice"
        let post = try store.board.create(title: "Lunch?")
        // Alice votes here; the change is not pushed yet (a round may be on its way meanwhile).
        _ = try store.board.vote(id: post.id, VoteRequest.up, voter: "alice")
        #expect(try store.sync.pending() > 0)
        _ = try store.sync.apply([Self.vote(1, post: post.id, by: "bob", "up")])
        let counted = try store.board.get(id: post.id, voter: "alice")
        #expect((counted.ups, counted.downs, counted.myVote) == (2, 0, .up))
    }

    @Test func aPostItsAuthorDeletedGoesWhileThisDevicesVoteOnItWaitsToGoOut() throws {
        let store = try Support.openStore()
        store.sync.account = "alice"
        let put = PulledRow(
            seq: 1, device: "device-of-bob", account: "bob", own: false, deviceSeq: 1, domain: "board", entity: "bp_1",
            op: "put", body: #"{"createdAt":"2026-11-26T00:00:00.000Z","id":"bp_1","revision":1,"title":"Picnic?"}"#,
            base: nil, fields: ["title"])
        _ = try store.sync.apply([put])
        _ = try store.board.vote(id: "bp_1", VoteRequest.up, voter: "alice")
        var deletion = put
        (deletion.seq, deletion.deviceSeq, deletion.op, deletion.body, deletion.base) = (2, 2, "delete", nil, 1)
        _ = try store.sync.apply([deletion])
        #expect(try store.board.count() == 0)
    }

    static func note(_ seq: Int64, _ id: String, title: String, position: Int64 = 1 << 20, by account: String = "alice")
        -> PulledRow
    {
        PulledRow(
            seq: seq, device: "device-\(account)", account: account, own: false, deviceSeq: seq, domain: "notes", entity: id,
            op: "put",
            body: """
                {"color":{"brightness":1,"hue":0,"saturation":0},"content":"","createdAt":"2026-11-26T00:00:00.000Z",\
                "id":"\(id)","position":\(position),"revision":1,"title":"\(title)","updatedAt":"2026-11-26T00:00:00.000Z"}
                """, base: nil)
    }

    @Test func rowsThatBreakARuleAreSkippedRecordedAndNeverPulledAgain() throws {
        let store = try Support.openStore()
        store.sync.account = "alice"
        let board = PulledRow(
            seq: 1, device: "device-of-bob", account: "bob", own: false, deviceSeq: 1, domain: "board", entity: "bp_1",
            op: "put", body: #"{"createdAt":"2026-11-26T00:00:00.000Z","id":"bp_1","revision":1,"title":"Picnic?"}"#,
            base: nil, fields: ["title"])
        // Carol's votes named as Bob's, or on a post id with a "/" in it (one account stuffing the Board).
        let socks = (2...4).map { index in
            PulledRow(
                seq: Int64(index), device: "device-of-carol", account: "carol", own: false, deviceSeq: Int64(index),
                domain: "votes", entity: "bp_1/sock\(index)/carol", op: "put",
                body: #"{"direction":"down","id":"bp_1/sock\#(index)/carol","post":"bp_1/sock\#(index)","revision":1}"#,
                base: nil, fields: ["direction"])
        }
        var impostor = Self.vote(5, post: "bp_1", by: "bob", "down")
        impostor.account = "carol"
        // Carol renames and deletes Bob's post.
        var rename = board
        (rename.seq, rename.account, rename.body) = (6, "carol", #"{"createdAt":"2026-11-26T00:00:00.000Z","id":"bp_1","revision":2,"title":"Spam"}"#)
        var deletion = board
        (deletion.seq, deletion.account, deletion.op, deletion.body) = (7, "carol", "delete", nil)
        // A note placed at the end of Int64, a body over the cap (it comes without its text), and a row of
        // an id no id may be.
        let ghost = Self.note(8, "note_ghost", title: "Ghost", position: Int64.min, by: "alice")
        var huge = Self.note(9, "note_huge", title: "Huge")
        (huge.body, huge.bytes) = (nil, 50_000_000)
        let slashed = Self.note(10, "note/1", title: "Slash")
        let summary = try store.sync.apply([board] + socks + [impostor, rename, deletion, ghost, huge, slashed])
        let post = try store.board.get(id: "bp_1", voter: "alice")
        #expect((post.title, post.ups, post.downs) == ("Picnic?", 0, 0))
        #expect(try store.notes.count() == 0)
        #expect(summary.skipped.count == 9, "\(summary.skipped)")
        let (count, recent) = try store.sync.skippedRows()
        #expect(count == 9)
        #expect(recent.first?.row == 10 && recent.first?.entity == "note/1")
        #expect(recent.contains { $0.row == 9 && $0.reason.contains("50000000 bytes") })
        // The next pull starts after them: none is applied, nor skipped, again.
        #expect(try store.sync.cursor() == #"{"alice":10,"bob":1,"carol":7}"#)
        let again = try store.sync.apply([ghost, huge])
        #expect(again.skipped.isEmpty)
        #expect(try store.sync.skippedRows().count == 9)
    }

    @Test func aRowPulledAgainFromBeforeTheCursorChangesNothing() throws {
        let store = try Support.openStore()
        store.sync.account = "alice"
        _ = try store.sync.apply([Self.note(1, "note_a", title: "First"), Self.note(2, "note_a", title: "Second")])
        #expect(try store.notes.get(id: "note_a").title == "Second")
        // A device that synced before cursors were per account, its one position past the log's end, pulls
        // from the start again: rows it applied are passed over by entity.
        try store.database.execute("DELETE FROM sync_state WHERE key = 'cursor'")
        _ = try store.sync.apply([Self.note(1, "note_a", title: "First")])
        #expect(try store.notes.get(id: "note_a").title == "Second")
    }

    @Test func aNoteThatFollowsTheLogKeepsNoCopyOfItUntilItIsChangedHere() throws {
        let store = try Support.openStore()
        store.sync.account = "alice"
        _ = try store.sync.apply([Self.note(1, "note_a", title: "From the laptop")])
        let kept = { () throws -> [String?] in
            [
                try store.database.scalarText("SELECT state FROM sync_entities WHERE entity = 'note_a'"),
                try store.database.scalarText("SELECT follows FROM sync_entities WHERE entity = 'note_a'"),
            ]
        }
        let shadows = { () throws -> Int64 in try store.database.scalarInteger("SELECT count(*) FROM sync_shadow_notes") ?? -1 }
        #expect(try kept() == [nil, "1"], "the note here is the log's version: no copy of it")
        #expect(try shadows() == 0)
        // Changed here: the log's version is kept as the note was, and the push says what changed since.
        _ = try store.notes.update(id: "note_a", NoteChanges(content: "Written here"))
        #expect(try shadows() == 1)
        let (rows, _, _) = try store.sync.pushBatch(limit: 10)
        #expect(rows.map(\.entity) == ["note_a"] && rows.first?.fields == ["content"], "\(rows)")
        #expect(rows.first?.base == 1)
        // A second change keeps the first shadow: the log's version is still the one before both.
        _ = try store.notes.update(id: "note_a", NoteChanges(title: "Renamed here"))
        #expect(try store.sync.pushBatch(limit: 10).rows.first?.fields?.sorted() == ["content", "title"])
        #expect(try shadows() == 1)
    }
}

/// Field stamps name their device by a number of this database's: a number another process gave since this
/// one read them is read again, never taken for "no device".
@Suite struct SyncStampsTests {
    @Test func aDeviceNumberedByAnotherProcessIsReadAgain() throws {
        try DomainTestSupport.withTemporaryDirectory { folder in
            let first = try DataStore(path: folder + "/stamps.sqlite")
            let second = try DataStore(path: folder + "/stamps.sqlite")
            let here = SyncStamps(first.database)
            let there = SyncStamps(second.database)
            #expect(try there.decode("title=5@0") == ["title": .init(seq: 5, device: "")])  // its numbers are read now
            let text = try here.encode(["title": .init(seq: 7, device: "laptop-id")])
            #expect(try there.decode(text) == ["title": .init(seq: 7, device: "laptop-id")])
        }
    }
}
