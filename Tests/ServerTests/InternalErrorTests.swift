import Domain
import Foundation
import Protocol
import Testing

@testable import RPCServer

/// SPEC §2: an unexpected error in a handler is -32603 (a bug: logged to stderr), and serving goes on.
@Suite struct InternalErrorTests {
    struct Unexpected: Error {}

    @Test func anUnexpectedErrorIsAnInternalErrorAndTheNextRequestIsServed() throws {
        var registry = MethodRegistry()
        registry.register(RPCMethod("broken", summary: "always fails", result: Schema.null) { _, _ in throw Unexpected() })
        registry.register(RPCMethod("fine", summary: "works", result: Schema.null) { _, _ in .null })
        let session = Session(language: .english, timeZone: .gmt, editing: ReminderEditingSession(id: "s"))
        let dispatcher = RequestDispatcher(
            registry: registry, session: session, logger: Logger(level: .error), maximumMessageBytes: 1 << 20)
        var output = JSONWriter()
        for line in [request(1, "broken"), request(2, "fine")] {
            Array(line.utf8).withUnsafeBytes { dispatcher.handle(line: $0, into: &output) }
        }
        let lines = String(decoding: output.bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let first = try JSONParser.parse(lines[0])
        #expect(first["id"] == 1)
        #expect(first["error"]?["code"] == -32603)
        #expect(try JSONParser.parse(lines[1])["result"] == .null)
    }
}
