import Foundation
import Testing

/// SatchelKit's typed API is generated from the server's `rpc.discover`: the checked-in file must be what
/// the server built beside it describes.
@Suite struct GeneratedAPITests {
    static var generator: URL { Way.binary.deletingLastPathComponent().appendingPathComponent("satchel-kit-generate") }

    func check(_ output: String? = nil) throws -> Int32 {
        let process = Process()
        process.executableURL = Self.generator
        process.arguments = ["--check", "--binary", Way.binary.path] + (output.map { ["--output", $0] } ?? [])
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func theCheckedInAPIIsWhatTheServerDescribes() throws {
        #expect(try check() == 0, "Sources/SatchelKit/Generated/API.swift is stale: run swift run satchel-kit-generate")
    }

    @Test func aMethodTheFileLacksMakesItStale() throws {
        let generated = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/SatchelKit/Generated/API.swift")
        let text = try String(contentsOf: generated, encoding: .utf8)
        let older = FileManager.default.temporaryDirectory.appendingPathComponent("API-\(UUID().uuidString).swift")
        defer { try? FileManager.default.removeItem(at: older) }
        // A file whose `notes.move` calls nothing, as if written by hand.
        let line = #"        return try await satchel.call("notes.move", params, progress: progress)"# + "\n"
        #expect(text.contains(line))
        try text.replacingOccurrences(of: line, with: "").write(to: older, atomically: true, encoding: .utf8)
        #expect(try check(older.path) == 1)
    }
}
