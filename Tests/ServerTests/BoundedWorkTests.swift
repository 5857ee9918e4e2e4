import Foundation
import Protocol
import Testing

/// Bounded work on hostile input, on the real binary: an answer comes, a `ping` written right behind the
/// request is answered soon after, and the server's peak memory stays under 256 MiB. (Timing bounds are
/// generous for a busy 2-core machine and a debug build; the figures are in BENCHMARKS.md.)
@Suite struct BoundedWorkTests {
    static let memoryBound = 256.0  // MiB
    static let pingBound = 10.0  // seconds, debug build on a busy machine

    /// The server's peak resident memory so far, in MiB.
    static func peakMiB(_ server: SatchelProcess) -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(server.pid)/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kib = Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return .nan }
        return kib / 1024
    }

    /// Sends `line` and a ping in one write; returns the request's answer and the seconds until the ping's.
    static func withPing(_ server: SatchelProcess, _ line: String, id: Int) -> (JSONValue?, Double) {
        let started = Date()
        server.send(Array((line + "\n" + request(id + 1_000_000, "ping") + "\n").utf8))
        var answer: JSONValue? = nil
        while let message = server.readMessage(timeout: 60) {
            if message["id"] == .integer(Int64(id)) { answer = message }
            if message["id"] == .integer(Int64(id + 1_000_000)) { break }
        }
        return (answer, Date().timeIntervalSince(started))
    }

    @Test func searchingRepetitiveTextIsBoundedInTimeAndMemory() throws {
        let server = try SatchelProcess(["--db", NotesEndToEndTests.temporaryDatabase()])
        #expect(server.call(request(1, "notes.create", ["content": .string(String(repeating: "w", count: 1_000_000))]))?["result"] != nil)
        #expect(server.call(request(2, "notes.create", ["content": .string(String(repeating: "ab", count: 50_000))]))?["result"] != nil)
        #expect(server.call(request(3, "notes.create", ["content": .string(String(repeating: "-", count: 20_000))]))?["result"] != nil)
        let queries = [
            String(repeating: "w", count: 10), String(repeating: "w", count: 64),
            (0..<32).map { String(repeating: "w", count: 10 + $0) }.joined(separator: " "),
            String(repeating: "ab", count: 32), String(repeating: "-", count: 20), String(repeating: "-", count: 19) + "x",
        ]
        for (index, query) in queries.enumerated() {
            let (answer, ping) = Self.withPing(server, request(10 + index, "search", ["query": .string(query)]), id: 10 + index)
            #expect(answer?["result"]?["hits"] != nil, "\(query.prefix(20)): \(String(describing: answer))")
            #expect(ping < Self.pingBound, "\(query.prefix(20)): the ping waited \(ping) s")
        }
        // Past the bounds: answered at once with the reason.
        let (tooLong, _) = Self.withPing(server, request(50, "search", ["query": .string(String(repeating: "w", count: 5_000))]), id: 50)
        #expect(tooLong?["error"]?["code"] == -32602)
        let (marks, _) = Self.withPing(server, request(51, "search", ["query": .string("a" + String(repeating: "\u{301}", count: 200_000))]), id: 51)
        #expect(marks?["error"]?["code"] == -32602)
        #expect(Self.peakMiB(server) < Self.memoryBound, "peak \(Self.peakMiB(server)) MiB")
    }
}
