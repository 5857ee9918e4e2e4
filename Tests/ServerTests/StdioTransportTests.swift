import Foundation
import Protocol
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SPEC §1 end to end: the real binary over pipes.
@Suite struct StdioTransportTests {
    #if os(Linux)
    @Test func bothPipesAreEnlargedSoPipelinedClientsSwitchLess() throws {
        let server = try SatchelProcess()
        #expect(server.call(request(1, "ping"))?["result"] == [:])
        let getPipeSize: Int32 = 1032  // F_GETPIPE_SZ
        // 1 MiB, unless this machine lets an unprivileged process have less (then the default 64 KiB stays).
        let allowed = (try? String(contentsOfFile: "/proc/sys/fs/pipe-max-size", encoding: .utf8))
            .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 1 << 20
        let expected: Int32 = allowed >= 1 << 20 ? 1 << 20 : 1 << 16
        #expect(fcntl(server.stdinPipe.fileHandleForWriting.fileDescriptor, getPipeSize) == expected)
        #expect(fcntl(server.stdoutPipe.fileHandleForReading.fileDescriptor, getPipeSize) == expected)
    }
    #endif

    @Test func pingAnswersTheDocumentedLineAndExitsZeroAtEndOfInput() throws {
        let server = try SatchelProcess()
        server.send(line: #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
        server.closeInput()
        #expect(server.readLine() == #"{"jsonrpc":"2.0","id":1,"result":{}}"#)
        #expect(server.readLine(timeout: 5) == nil)
        #expect(server.waitForExit() == 0)
    }

    @Test func tenThousandPipelinedRequestsAreAnsweredInOrder() throws {
        let server = try SatchelProcess()
        let count = 10_000
        var payload: [UInt8] = []
        for id in 0..<count {
            let method = id % 3 == 0 ? "ping" : (id % 3 == 1 ? "server.info" : "no.such.method")
            payload.append(contentsOf: Array((request(id, method) + "\n").utf8))
        }
        server.sendInBackgroundThenClose(payload)
        let lines = server.readAllLines()
        #expect(lines.count == count)
        for (index, line) in lines.enumerated() {
            let message = try JSONParser.parse(line)
            #expect(message["id"] == .integer(Int64(index)))
            if index % 3 == 2 {
                #expect(message["error"]?["code"] == -32601)
            } else {
                #expect(message["result"] != nil)
            }
        }
        #expect(server.waitForExit() == 0)
    }

    @Test func notificationsAreNeverAnsweredEvenWhenTheyFail() throws {
        let server = try SatchelProcess()
        server.send(line: #"{"jsonrpc":"2.0","method":"ping"}"#)
        server.send(line: #"{"jsonrpc":"2.0","method":"no.such.method"}"#)
        server.send(line: #"{"jsonrpc":"2.0","method":"initialize","params":{"locale":"xx"}}"#)
        server.send(line: request(7, "ping"))
        let message = server.readMessage()
        #expect(message?["id"] == 7)
        server.closeInput()
        #expect(server.readAllLines(timeout: 5).isEmpty)
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func stopSignalsFinishCleanlyWithExitZero(signal: Int32) throws {
        let server = try SatchelProcess()
        #expect(server.call(request(1, "ping"))?["id"] == 1)
        kill(server.pid, signal)
        #expect(server.waitForExit() == 0)
    }

    @Test func everyStdoutLineIsProtocolEvenWhenCodeWritesToStdout() throws {
        let server = try SatchelProcess(["--memory"], environment: ["SATCHEL_TEST_STRAY_STDOUT": "1"])
        for id in 0..<50 { server.send(line: request(id, "ping")) }
        server.closeInput()
        let lines = server.readAllLines()
        #expect(lines.count == 50)
        for line in lines {
            let message = try JSONParser.parse(line)
            #expect(message["jsonrpc"] == "2.0")
        }
        #expect(server.waitForExit() == 0)
        // The stray writes went somewhere harmless: stderr.
        #expect(server.standardError().contains("stray output from ping"))
    }

    @Test func anOverlongLineIsAnsweredOnceAndTheServerCarriesOn() throws {
        let server = try SatchelProcess(["--memory", "--max-message-bytes", "1024"])
        let big = #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":""# + String(repeating: "x", count: 100_000) + #""}}"#
        server.send(line: big)
        server.send(line: request(2, "ping"))
        let first = server.readMessage()
        #expect(first?["id"] == .null)
        #expect(first?["error"]?["code"] == -32600)
        #expect(first?["error"]?["data"]?["reason"] == "messageTooLarge")
        #expect(server.readMessage()?["id"] == 2)
    }

    @Test func aMessageOfTooManyTinyValuesIsTooComplexAndTheServerCarriesOn() throws {
        // At --max-message-bytes 2 MiB the parsed value of a message may take 5 MiB.
        let server = try SatchelProcess(["--memory", "--max-message-bytes", "2097152", "--locale", "ru"])
        let tiny = #"{"jsonrpc":"2.0","id":1,"method":"ping","params":["#
            + Array(repeating: #"{"a":0}"#, count: 250_000).joined(separator: ",") + "]}"
        #expect(tiny.utf8.count < 2_097_152)
        server.send(line: tiny)
        server.send(line: request(2, "ping"))
        let first = server.readMessage()
        #expect(first?["id"] == .null)
        #expect(first?["error"]?["code"] == -32600)
        #expect(first?["error"]?["data"] == ["reason": "tooComplex", "limit": 5_242_880])
        #expect(first?["error"]?["message"]?.stringValue?.contains("5242880 байт") == true)
        #expect(server.readMessage()?["id"] == 2)
    }

    @Test func aBatchOfTinyValuesIsTooComplexNotBatchTooLarge() throws {
        let server = try SatchelProcess(["--memory", "--max-message-bytes", "2097152"])
        let batch = "[" + Array(repeating: "{}", count: 600_000).joined(separator: ",") + "]"
        let first = server.call(batch)
        #expect(first?["error"]?["data"]?["reason"] == "tooComplex")
        #expect(server.call(request(2, "ping"))?["result"] == [:])
    }

    @Test func anImportOfOrdinaryNotesAsLongAsTheLimitIsTaken() throws {
        let server = try SatchelProcess(["--memory", "--max-message-bytes", "2097152"])
        var notes: [JSONValue] = []
        var size = 0
        while size < 2_000_000 {
            let index = notes.count
            let note: JSONValue = [
                "id": .string("note_01jd\(index)"), "title": .string("Note \(index): groceries and errands"),
                "content": .string(String(repeating: "Milk, eggs, bread; call the plumber — Заметка, 日本語. ", count: 1 + index % 12)),
                "color": ["hue": .number(Double(index % 360) / 360), "saturation": 0.25, "brightness": 1],
                "deadline": .null, "createdAt": "2025-01-02T03:04:05.000Z", "updatedAt": "2025-01-02T03:04:05.000Z",
                "revision": 1,
            ]
            size += note.description.utf8.count + 1
            notes.append(note)
        }
        let document: JSONValue = [
            "format": "satchel", "version": 1, "images": [], "notes": .array(notes), "photos": [], "reminders": [],
            "diary": [], "messages": [], "messageFeeds": [], "board": [],
        ]
        let line = request(1, "import", ["document": document, "mode": "merge"])
        #expect(line.utf8.count > 2_000_000 && line.utf8.count <= 2_097_152)
        let answer = server.call(line)
        #expect(answer?["result"]?["imported"]?["notes"] == .integer(Int64(notes.count)))
    }

    @Test func invalidUTF8AndInvalidJSONAreParseErrorsWithNullId() throws {
        let server = try SatchelProcess()
        server.send(Array(#"{"jsonrpc":"2.0","id":1,"method":"p"#.utf8) + [0xFF, 0xFE] + Array(#"ing"}"#.utf8) + [0x0A])
        let invalidUTF8 = server.readMessage()
        #expect(invalidUTF8?["id"] == .null)
        #expect(invalidUTF8?["error"]?["code"] == -32700)
        #expect(invalidUTF8?["error"]?["data"]?["reason"] == "invalidUTF8")
        let invalidJSON = server.call(#"{"jsonrpc":"2.0","id":1,"method":"ping""#)
        #expect(invalidJSON?["error"]?["code"] == -32700)
        #expect(invalidJSON?["id"] == .null)
    }

    @Test func nestingDeeperThan64IsInvalidRequest() throws {
        let server = try SatchelProcess()
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        let answer = server.call(deep)
        #expect(answer?["error"]?["code"] == -32600)
        #expect(answer?["id"] == .null)
        let params = String(repeating: "[", count: 63) + String(repeating: "]", count: 63)
        // 63 levels inside params plus the request object itself is 64: allowed (and then a params error).
        let allowed = server.call(#"{"jsonrpc":"2.0","id":3,"method":"ping","params":\#(params)}"#)
        #expect(allowed?["error"]?["code"] == -32602)
    }

    @Test func crlfAndBlankLinesAreTolerated() throws {
        let server = try SatchelProcess()
        server.send(Array("\n   \r\n".utf8) + Array((request(1, "ping") + "\r\n").utf8))
        #expect(server.readMessage()?["result"] == [:])
    }

    @Test func aVanishedReaderDoesNotKillTheServer() throws {
        let server = try SatchelProcess()
        try server.stdoutPipe.fileHandleForReading.close()
        for id in 0..<100 { server.send(line: request(id, "ping")) }
        server.closeInput()
        // Killed by SIGPIPE, the status would be the signal, not a clean exit.
        #expect(server.waitForExit() == 0)
        #expect(server.process.terminationReason == .exit)
    }

    @Test func batchesAreAnsweredAsOneArrayLine() throws {
        let server = try SatchelProcess()
        let line = "[" + [
            request(1, "ping"), #"{"jsonrpc":"2.0","method":"ping"}"#, "1", request(2, "nope"),
        ].joined(separator: ",") + "]"
        let answer = server.call(line)
        let items = try #require(answer?.arrayValue)
        #expect(items.count == 3)
        #expect(items[0]["id"] == 1)
        #expect(items[1]["error"]?["code"] == -32600)
        #expect(items[2]["error"]?["code"] == -32601)
        // Only notifications: nothing at all comes back, so the next line is the ping's.
        server.send(line: #"[{"jsonrpc":"2.0","method":"ping"},{"jsonrpc":"2.0","method":"ping"}]"#)
        #expect(server.call(request(3, "ping"))?["id"] == 3)
    }
}
