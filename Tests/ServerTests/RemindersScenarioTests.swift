import Foundation
import Protocol
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The original Reminders app's scenarios (SPEC §8), each end to end over the pipe.
@Suite struct RemindersScenarioTests {
    /// A front-end talking to one server: numbered requests, results unwrapped.
    final class FrontEnd {
        let server: SatchelProcess
        private var nextID = 1

        init(_ arguments: [String] = ["--memory"]) throws {
            server = try SatchelProcess(arguments)
        }

        func result(_ method: String, _ params: JSONValue? = nil) -> JSONValue? {
            defer { nextID += 1 }
            return server.call(request(nextID, method, params))?["result"]
        }

        func error(_ method: String, _ params: JSONValue? = nil) -> JSONValue? {
            defer { nextID += 1 }
            return server.call(request(nextID, method, params))?["error"]
        }

        /// The titles in the list, in order.
        func titles() -> [String] {
            result("reminders.list")?["items"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
        }

        func list() -> [JSONValue] { result("reminders.list")?["items"]?.arrayValue ?? [] }

        /// Tap, type a title, and return the reminder's id.
        func addTyped(_ title: String, after: JSONValue? = nil) -> JSONValue {
            var params: JSONObject = [:]
            if let after { params["afterId"] = after }
            let id = result("reminders.add", .object(params))?["reminder"]?["id"] ?? .null
            _ = result("reminders.update", ["id": id, "title": .string(title)])
            return id
        }
    }

    static func temporaryDatabase() -> String {
        NSTemporaryDirectory() + "satchel-reminders-\(UUID().uuidString)/r.sqlite"
    }

    @Test func anEmptyListHasNoItemsAndNobodyEditing() throws {
        let app = try FrontEnd()
        #expect(app.result("reminders.list") == ["items": [], "nextCursor": nil, "editingId": nil])
    }

    @Test func tapOnTheEmptyScreenGivesABlankReminderInEditing() throws {
        let app = try FrontEnd()
        let added = try #require(app.result("reminders.add"))
        #expect(added["removedIds"] == [])
        #expect(added["reminder"]?["title"] == "")
        #expect(added["reminder"]?["editing"] == true)
        #expect(added["reminder"]?["memoVisible"] == true)
        #expect(app.result("reminders.list")?["editingId"] == added["reminder"]?["id"])
    }

    @Test func tapBelowTheListAddsOneAtTheEnd() throws {
        let app = try FrontEnd()
        _ = app.addTyped("milk")
        _ = app.addTyped("bread")
        #expect(app.titles() == ["milk", "bread"])
        let list = app.list()
        #expect(list[0]["editing"] == false)
        #expect(list[1]["editing"] == true)
    }

    @Test func dismissingTheKeyboardWithAnEmptyTitleRemovesIt() throws {
        let app = try FrontEnd()
        _ = app.addTyped("milk")
        let blank = try #require(app.result("reminders.add")?["reminder"]?["id"])
        _ = app.result("reminders.update", ["id": blank, "title": "   "])
        let ended = app.result("reminders.endEditing")
        #expect(ended == ["reminder": nil, "removedId": blank])
        #expect(app.titles() == ["milk"])
        // Dismissing with a title keeps it.
        _ = app.result("reminders.beginEditing", ["id": app.list()[0]["id"]!])
        #expect(app.result("reminders.endEditing")?["reminder"]?["title"] == "milk")
        #expect(app.titles() == ["milk"])
    }

    @Test func returnOnATitleInsertsABlankOneRightAfterAndMovesEditingThere() throws {
        let app = try FrontEnd()
        let first = app.addTyped("milk")
        _ = app.addTyped("eggs")
        // Back in the middle of the list: Return after "milk".
        _ = app.result("reminders.beginEditing", ["id": first])
        let submitted = try #require(app.result("reminders.submit", ["id": first]))
        #expect(submitted["removedId"] == .null)
        let created = try #require(submitted["created"])
        #expect(created["title"] == "")
        #expect(created["editing"] == true)
        let list = app.list()
        #expect(list.map { $0["id"] } == [first, created["id"], list[2]["id"]])
        #expect(list[0]["editing"] == false)
        #expect(app.result("reminders.list")?["editingId"] == created["id"])
        // Type into the new one and Return again: the next blank follows it.
        _ = app.result("reminders.update", ["id": created["id"]!, "title": "butter"])
        let next = app.result("reminders.submit", ["id": created["id"]!])?["created"]?["id"]
        #expect(app.list().map { $0["id"] } == [first, created["id"], next, list[2]["id"]])
    }

    @Test func returnOnAnEmptyTitleRemovesItAndAddsNothing() throws {
        let app = try FrontEnd()
        _ = app.addTyped("milk")
        let blank = try #require(app.result("reminders.add")?["reminder"]?["id"])
        let submitted = app.result("reminders.submit", ["id": blank])
        #expect(submitted == ["created": nil, "removedId": blank])
        #expect(app.titles() == ["milk"])
        #expect(app.result("reminders.list")?["editingId"] == .null)
    }

    @Test func theMemoShowsOnlyWhenItHasTextOrTheReminderIsBeingEdited() throws {
        let app = try FrontEnd()
        let plain = app.addTyped("milk")
        let withMemo = app.addTyped("call mum")
        _ = app.result("reminders.update", ["id": withMemo, "memo": "after six"])
        _ = app.result("reminders.endEditing")
        var list = app.list()
        #expect(list[0]["memoVisible"] == false)
        #expect(list[1]["memoVisible"] == true)
        _ = app.result("reminders.beginEditing", ["id": plain])
        list = app.list()
        #expect(list[0]["memoVisible"] == true)
        _ = app.result("reminders.update", ["id": withMemo, "memo": ""])
        _ = app.result("reminders.endEditing")
        #expect(app.list().allSatisfy { $0["memoVisible"] == false })
    }

    @Test func tappingTheCircleTogglesCompletion() throws {
        let app = try FrontEnd()
        let id = app.addTyped("milk")
        let done = app.result("reminders.toggle", ["id": id])
        #expect(done?["completed"] == true)
        #expect(done?["completedAt"]?.stringValue != nil)
        let undone = app.result("reminders.toggle", ["id": id])
        #expect(undone?["completed"] == false)
        #expect(undone?["completedAt"] == .null)
        #expect(app.result("reminders.setCompleted", ["id": id, "completed": true])?["completed"] == true)
    }

    @Test func aSwipeDeletesTheReminder() throws {
        let app = try FrontEnd()
        let id = app.addTyped("milk")
        _ = app.addTyped("bread")
        #expect(app.result("reminders.delete", ["id": id]) == ["id": id, "deleted": true])
        #expect(app.titles() == ["bread"])
        #expect(app.error("reminders.delete", ["id": id])?["code"] == -32001)
    }

    @Test func anEmptyTitleIsRefusedOutsideEditing() throws {
        let app = try FrontEnd()
        let id = app.addTyped("milk")
        _ = app.result("reminders.endEditing")
        let refused = app.error("reminders.update", ["id": id, "title": ""])
        #expect(refused?["code"] == -32002)
        #expect(refused?["data"] == ["reason": "emptyTitle", "field": "title"])
        #expect(app.titles() == ["milk"])
    }

    @Test func theOrderIsKeptAfterARestart() throws {
        let path = Self.temporaryDatabase()
        do {
            let app = try FrontEnd(["--db", path])
            let milk = app.addTyped("milk")
            _ = app.addTyped("bread")
            _ = app.addTyped("eggs")
            _ = app.result("reminders.move", ["id": milk, "toIndex": 2])
            _ = app.result("reminders.toggle", ["id": milk])
            app.server.closeInput()
            #expect(app.server.waitForExit() == 0)
        }
        let app = try FrontEnd(["--db", path])
        #expect(app.titles() == ["bread", "eggs", "milk"])
        #expect(app.list()[2]["completed"] == true)
        #expect(app.list().allSatisfy { $0["editing"] == false })
    }

    @Test(arguments: ["end of input", "SIGTERM", "exit"])
    func aBlankReminderInEditingIsGoneAfterTheSessionEnds(how: String) throws {
        let path = Self.temporaryDatabase()
        do {
            let app = try FrontEnd(["--db", path])
            _ = app.addTyped("milk")
            _ = try #require(app.result("reminders.add")?["reminder"]?["id"])
            switch how {
            case "SIGTERM": kill(app.server.pid, SIGTERM)
            case "exit": app.server.send(line: #"{"jsonrpc":"2.0","method":"exit"}"#)
            default: app.server.closeInput()
            }
            #expect(app.server.waitForExit() == 0)
        }
        let app = try FrontEnd(["--db", path])
        #expect(app.titles() == ["milk"])
    }

    @Test func killMinus9WhileABlankReminderIsInEditingLeavesNothingForAnyone() throws {
        let path = Self.temporaryDatabase()
        let editor = try FrontEnd(["--db", path])
        let other = try FrontEnd(["--db", path])
        _ = editor.addTyped("milk")
        let blank = try #require(editor.result("reminders.add")?["reminder"]?["id"])
        // While the editor lives, its blank reminder is its own business: the other process keeps it.
        #expect(other.list().map { $0["id"] }.contains(blank))
        kill(editor.server.pid, SIGKILL)
        _ = editor.server.waitForExit()
        // A second process sharing the database no longer sees it...
        #expect(other.titles() == ["milk"])
        // ...and neither does a new one.
        let restarted = try FrontEnd(["--db", path])
        #expect(restarted.titles() == ["milk"])
    }
}
