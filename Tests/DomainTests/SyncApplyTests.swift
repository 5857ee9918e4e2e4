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
        _ = try store.sync.apply([Self.vote(1, post: post.id, by: "bob", "up")], through: 1)
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
        _ = try store.sync.apply([put], through: 1)
        _ = try store.board.vote(id: "bp_1", VoteRequest.up, voter: "alice")
        var deletion = put
        (deletion.seq, deletion.deviceSeq, deletion.op, deletion.body, deletion.base) = (2, 2, "delete", nil, 1)
        _ = try store.sync.apply([deletion], through: 2)
        #expect(try store.board.count() == 0)
    }
}
