import Foundation
import Protocol
import Sync
import Testing

/// SPEC §14 end to end for what people share: the Board (every account reads every post, one vote per
/// account and post, only the author deletes) and Messages (one conversation, each message with its
/// author, only the author deletes), while each account's private apps stay its own — checked through
/// satchel and through SQL as the other account, against a real PostgreSQL 15.
@Suite struct SyncSharedTests {
    typealias Device = SyncNotesTests.Device

    static func board(_ device: Device) -> [String] {
        SyncAppsTests.items(device, "board.list").map {
            "\($0["title"]?.stringValue ?? "") +\($0["ups"]?.integerValue ?? -1) -\($0["downs"]?.integerValue ?? -1)"
        }
    }

    static func conversation(_ device: Device) -> [String] {
        SyncAppsTests.items(device, "messages.list").map {
            "\($0["author"]?["name"]?.stringValue ?? ""): \($0["text"]?.stringValue ?? "")"
        }.sorted()
    }

    @Test func votesFromThreeAccountsCountOncePerAccountAndOnlyTheAuthorDeletesAPost() throws {
        let database = try SyncNotesTests.shared(["alice", "bob", "carol"])
        let folder = try SyncNotesTests.folder()
        let alice = try Device("alice", database, as: "alice", folder: folder)
        let bob = try Device("bob", database, as: "bob", folder: folder)
        let carol = try Device("carol", database, as: "carol", folder: folder)
        let post = try #require(alice.call("board.create", ["title": "Lunch at noon?"])?["result"]?["id"])
        for device in [bob, carol] {
            #expect(SyncAppsTests.wait(device, for: ["Lunch at noon? +0 -0"], Self.board) == ["Lunch at noon? +0 -0"])
        }
        // Each votes as its account, whatever voter a client names (or none); a repeat changes nothing.
        _ = alice.call("board.vote", ["id": post, "direction": "up"])
        _ = alice.call("board.vote", ["id": post, "direction": "up"])
        _ = bob.call("board.vote", ["id": post, "direction": "up", "voter": "nvim"])
        _ = carol.call("board.vote", ["id": post, "direction": "down"])
        for device in [alice, bob, carol] {
            #expect(SyncAppsTests.wait(device, for: ["Lunch at noon? +2 -1"], Self.board) == ["Lunch at noon? +2 -1"])
        }
        _ = carol.call("board.vote", ["id": post, "direction": "up"])
        for device in [alice, bob, carol] {
            #expect(SyncAppsTests.wait(device, for: ["Lunch at noon? +3 -0"], Self.board) == ["Lunch at noon? +3 -0"])
        }
        #expect(bob.call("board.get", ["id": post])?["result"]?["myVote"] == "up")
        _ = bob.call("board.vote", ["id": post, "direction": "clear"])
        #expect(SyncAppsTests.wait(alice, for: ["Lunch at noon? +2 -0"], Self.board) == ["Lunch at noon? +2 -0"])

        // Bob cannot delete Alice's post: satchel says why, and PostgreSQL refuses it whatever SQL he sends.
        let refused = bob.call("board.delete", ["id": post])?["error"]
        #expect(refused?["code"] == -32002 && refused?["data"]?["reason"] == "notAuthor", "\(String(describing: refused))")
        let bobSQL = try database.connect("bob")
        let device = UUID().uuidString.lowercased()
        let push = { (row: String) throws in
            _ = try bobSQL.execute("SELECT satchel.push($1::uuid, jsonb_build_array($2::jsonb))", [device, row])
        }
        let refusal = { (row: String) -> String? in
            do {
                try push(row)
                return nil
            } catch let error as PGError {
                return error.sqlState
            } catch {
                return "\(error)"
            }
        }
        #expect(refusal(#"{"device_seq":99999,"domain":"board","entity":"\#(post.stringValue ?? "")","op":"delete"}"#) == "SY002")
        // Nor vote in another's name, nor twice under names of his own.
        let alicesVote = "\(post.stringValue ?? "")/\(database.roles["alice"]!)"
        #expect(
            refusal(#"{"device_seq":99998,"domain":"votes","entity":"\#(alicesVote)","op":"put","body":{"post":"\#(post.stringValue ?? "")","direction":"down"}}"#)
                == "SY002")
        #expect(
            refusal(#"{"device_seq":99997,"domain":"votes","entity":"\#(post.stringValue ?? "")/bob-again","op":"put","body":{"post":"\#(post.stringValue ?? "")","direction":"up"}}"#)
                == "SY002")
        _ = bob.call("sync.now")
        #expect(Self.board(bob) == ["Lunch at noon? +2 -0"])
        #expect(alice.call("board.delete", ["id": post])?["result"]?["deleted"] == true)
        for device in [bob, carol] { #expect(SyncAppsTests.wait(device, for: [], Self.board) == []) }
    }

    @Test func messagesGoBetweenAccountsWithTheirAuthorsAndOnlyTheAuthorDeletesOne() throws {
        let database = try SyncNotesTests.shared(["alice", "bob"])
        let folder = try SyncNotesTests.folder()
        let alice = try Device("alice", database, as: "alice", folder: folder)
        let alicesPhone = try Device("alice-phone", database, as: "alice", folder: folder)
        let bob = try Device("bob", database, as: "bob", folder: folder)
        let (aliceRole, bobRole) = (database.roles["alice"]!, database.roles["bob"]!)
        let hello = try #require(alice.call("messages.send", ["text": "Hi Bob 👋"])?["result"])
        let me = try #require(hello["author"]?["name"]?.stringValue)
        #expect(SyncAppsTests.wait(bob, for: ["\(aliceRole): Hi Bob 👋"], Self.conversation) == ["\(aliceRole): Hi Bob 👋"])
        let bobsMe = bob.call("messages.send", ["text": "Hi Alice!"])?["result"]?["author"]?["name"]?.stringValue ?? ""
        let both = ["\(bobRole): Hi Alice!", "\(me): Hi Bob 👋"].sorted()
        #expect(SyncAppsTests.wait(alice, for: both, Self.conversation) == both)
        // Alice's phone shows her message as hers: she sent it, from another device.
        #expect(SyncAppsTests.wait(alicesPhone, for: both, Self.conversation) == both)
        let onPhone = SyncAppsTests.items(alicesPhone, "messages.list").first { $0["id"] == hello["id"] }
        #expect(onPhone?["origin"] == "local")

        let refused = bob.call("messages.delete", ["id": hello["id"]!])?["error"]
        #expect(refused?["data"]?["reason"] == "notAuthor", "\(String(describing: refused))")
        // Alice deletes it from her phone: it goes from every device.
        #expect(alicesPhone.call("messages.delete", ["id": hello["id"]!])?["result"]?["deleted"] == true)
        #expect(SyncAppsTests.wait(bob, for: ["\(bobsMe): Hi Alice!"], Self.conversation) == ["\(bobsMe): Hi Alice!"])
        #expect(SyncAppsTests.wait(alice, for: ["\(bobRole): Hi Alice!"], Self.conversation) == ["\(bobRole): Hi Alice!"])
    }

    @Test func anotherAccountSeesTheBoardAndMessagesButNoneOfThePrivateApps() throws {
        let database = try SyncNotesTests.shared(["alice", "bob"])
        let folder = try SyncNotesTests.folder()
        let photo = try SyncAppsTests.photo(folder, "garden", red: 10)
        let alice = try Device("alice", database, as: "alice", folder: folder)
        let bob = try Device("bob", database, as: "bob", folder: folder)
        _ = alice.call("notes.create", ["title": "Diary of a secret"])
        _ = alice.call("diary.create", ["text": "Private day", "images": [["path": .string(photo)]]])
        _ = alice.call("photos.add", ["image": ["path": .string(photo)]])
        _ = SyncAppsTests.remind(alice, "Call the bank")
        _ = alice.call("board.create", ["title": "Open to all"])
        _ = alice.call("messages.send", ["text": "Hello, everyone"])
        alice.waitPushed()
        _ = bob.call("sync.now")
        #expect(Self.board(bob) == ["Open to all +0 -0"])
        #expect(Self.conversation(bob) == ["\(database.roles["alice"]!): Hello, everyone"])
        for method in ["notes.list", "diary.list", "photos.list", "reminders.list"] {
            #expect(SyncAppsTests.items(bob, method).isEmpty, "\(method) on Bob's device")
        }
        // PostgreSQL itself keeps them from Bob's role, whatever he asks.
        let bobSQL = try database.connect("bob")
        let seen = try bobSQL.execute(
            "SELECT DISTINCT domain FROM satchel.pull('{}', 100000, 1000000000) ORDER BY domain").compactMap { $0[0] }
        #expect(seen == ["board", "messages"])
        #expect(try bobSQL.execute("SELECT count(*) FROM satchel.get_images($1::text[])", ["{" + (try SyncAppsTests.storedImages(database, "alice")).joined(separator: ",") + "}"]).first?[0] == "0")
        #expect(try SyncAppsTests.storedImages(database, "alice").count == 1)
    }
}

/// The whole of SPEC §14 at once: two devices of one person and a second person, PostgreSQL stopped while
/// all three change things, started again: everything everywhere, nothing lost, nothing private shared.
@Suite struct SyncTogetherTests {
    typealias Device = SyncNotesTests.Device

    @Test func twoDevicesOfOnePersonAndASecondPersonThroughAnOutageEndWithTheSameDataAndNothingLost() throws {
        let cluster = try PostgresCluster()  // its own: this test stops it
        defer { try? cluster.stop() }
        let database = try cluster.database(accounts: ["alice", "bob"])
        _ = try SyncSchema.setUp(try PGConnection(database.ownerURI))
        let folder = try SyncNotesTests.folder()
        let photo = try SyncAppsTests.photo(folder, "harbour", red: 70)
        let laptop = try Device("laptop", database, as: "alice", folder: folder)
        let desktop = try Device("desktop", database, as: "alice", folder: folder)
        let bob = try Device("bob", database, as: "bob", folder: folder)

        // Before: each app once, on the laptop; a post on the Board for all.
        let note = laptop.call("notes.create", ["title": "Trip"])?["result"]?["id"] ?? .null
        let milk = SyncAppsTests.remind(laptop, "Milk")
        _ = laptop.call("diary.create", ["text": "Harbour", "images": [["path": .string(photo)]]])
        let post = laptop.call("board.create", ["title": "Harbour walk?"])?["result"]?["id"] ?? .null
        #expect(SyncAppsTests.wait(desktop, for: 1) { SyncAppsTests.items($0, "diary.list").count } == 1)
        #expect(SyncAppsTests.wait(bob, for: ["Harbour walk? +0 -0"], SyncSharedTests.board) == ["Harbour walk? +0 -0"])

        // PostgreSQL goes away; everyone goes on.
        try cluster.stop()
        _ = laptop.call("notes.update", ["id": note, "content": "by train"])
        _ = laptop.call("reminders.update", ["id": milk, "title": "Oat milk"])
        _ = desktop.call("reminders.setCompleted", ["id": milk, "completed": true])
        _ = desktop.call("photos.add", ["image": ["path": .string(photo)], "caption": "From the pier"])
        _ = desktop.call("board.vote", ["id": post, "direction": "up"])
        _ = bob.call("board.vote", ["id": post, "direction": "up"])
        _ = bob.call("messages.send", ["text": "Count me in"])
        try cluster.start()

        let devices = [laptop, desktop, bob]
        for device in devices { device.waitPushed() }
        for device in devices { _ = device.call("sync.now") }
        // Each app's lines without their ids (a conflict copy would show as a line more).
        let mine = { (device: Device) -> [String] in
            SyncConvergenceTests.everything(device).map { line in
                let words = line.split(separator: " ", omittingEmptySubsequences: false)
                return ([words[0]] + words.dropFirst(2)).joined(separator: " ")
            } + SyncAppsTests.items(device, "photos.list").map { "photo \($0["caption"]?.stringValue ?? "")" }
        }
        let alice = mine(laptop)
        #expect(mine(desktop) == alice)
        #expect(
            alice.sorted() == [
                "board Harbour walk? +2 -0", "message Count me in", "note Trip by train", "photo From the pier",
                "post Harbour", "reminder Oat milk done",
            ], "\(alice)")
        // Bob: the Board and Messages, with Alice's device's vote; none of her apps.
        #expect(SyncSharedTests.board(bob) == ["Harbour walk? +2 -0"])
        #expect(SyncSharedTests.conversation(bob).count == 1)
        for method in ["notes.list", "diary.list", "photos.list", "reminders.list"] {
            #expect(SyncAppsTests.items(bob, method).isEmpty, "\(method) on Bob's device")
        }
        for device in devices { #expect(device.call("sync.status")?["result"]?["pending"] == 0) }
    }
}
