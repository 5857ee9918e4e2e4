import Foundation
import Imaging
import SatchelKit
import Testing

/// One contract, tested against every way of reaching a Satchel: each test runs once per ``Way``.
enum Way: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case inProcess
    case childProcess

    var testDescription: String { rawValue }

    /// A Satchel reached this way, with `arguments` (its command-line flags).
    func start(_ arguments: [String] = ["--memory"]) async throws -> Satchel {
        switch self {
        case .inProcess: try await Satchel.inProcess(arguments: arguments)
        case .childProcess: try await Satchel.process(executable: Way.binary, arguments: arguments)
        }
    }

    /// The server binary: `$SATCHEL_BINARY`, else the build folder's `satchel` beside the tests.
    static var binary: URL {
        if let explicit = ProcessInfo.processInfo.environment["SATCHEL_BINARY"] { return URL(fileURLWithPath: explicit) }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        for _ in 0..<4 {
            directory = directory.deletingLastPathComponent()
            let candidate = directory.appendingPathComponent("satchel")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return Bundle.main.bundleURL.appendingPathComponent("satchel")
    }
}

/// A phone-size JPEG (`width` × `height`, a gradient), as a camera would hand it over.
func jpeg(width: Int, height: Int) throws -> Data {
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
        for x in 0..<width {
            let at = (y * width + x) * 3
            pixels[at] = UInt8(x * 255 / width)
            pixels[at + 1] = UInt8(y * 255 / height)
            pixels[at + 2] = 128
        }
    }
    return Data(try JPEG.encode(Bitmap(width: width, height: height, channels: 3, pixels: pixels), quality: 85))
}

@Suite struct SatchelKitContractTests {
    @Test(arguments: Way.allCases)
    func theFiveAppsAnswerAsTypedSwift(way: Way) async throws {
        let satchel = try await way.start()
        let note = try await satchel.notes.create(
            title: "Groceries", color: ColorInput(hue: 0.33, saturation: 0.4, brightness: 1),
            deadline: .some(Date(timeIntervalSince1970: 1_800_000_000)))
        #expect(note.title == "Groceries" && note.color.hex.hasPrefix("#") && note.revision == 1)
        #expect(note.deadline == Date(timeIntervalSince1970: 1_800_000_000))
        let cleared = try await satchel.notes.update(id: note.id, deadline: .some(nil))
        #expect(cleared.deadline == nil && cleared.title == "Groceries")
        #expect(try await satchel.notes.list().items.map(\.id) == [note.id])

        let added = try await satchel.reminders.add(title: "Milk")
        #expect(added.reminder.title == "Milk")
        let post = try await satchel.diary.create(text: "A walk by the sea")
        #expect(post.text == "A walk by the sea")
        let message = try await satchel.messages.send(text: "Hello")
        #expect(message.text == "Hello" && message.origin == "local")
        let board = try await satchel.board.create(title: "Ideas")
        #expect(board.votes == 0)
        #expect(try await satchel.search(query: "walk").hits.map(\.id) == [post.id])
        await satchel.close()
    }

    @Test(arguments: Way.allCases)
    func anErrorIsItsCodeWithItsReasonAndField(way: Way) async throws {
        let satchel = try await way.start(["--memory", "--locale", "ja"])
        let missing = await outcome { () async throws(SatchelError) in try await satchel.notes.get(id: "note_missing") }
        guard case .failure(.notFound(let info)) = missing else {
            Issue.record("a missing note: \(missing)")
            return
        }
        #expect(info.code == -32001 && info.reason == "notFound" && info.message.contains("note_missing"))
        let hue = await outcome { () async throws(SatchelError) in
            try await satchel.notes.create(color: ColorInput(hue: 2, saturation: 0, brightness: 0))
        }
        guard case .failure(let error) = hue else {
            Issue.record("a hue of 2 was taken")
            return
        }
        switch error {
        case .validationFailed(let info), .invalidParams(let info):
            #expect(info.field?.hasPrefix("color") == true, "\(info)")
        default:
            Issue.record("a hue of 2: \(error)")
        }
        await satchel.close()
        let closed = await outcome { () async throws(SatchelError) in try await satchel.ping() }
        guard case .failure(.closed) = closed else {
            Issue.record("a closed Satchel answered \(closed)")
            return
        }
    }

    @Test(arguments: Way.allCases)
    func imagesGoInAndComeBackAsRenditions(way: Way) async throws {
        let satchel = try await way.start()
        let photo = try await satchel.photos.add(image: .data(try jpeg(width: 1170, height: 2532).base64EncodedString(), mimeType: "image/jpeg"), caption: "Sea")
        #expect(photo.image.width == 1170 && photo.image.height == 2532 && photo.caption == "Sea")
        let thumbnail = try await satchel.images.get(id: photo.image.id, size: "thumbnail")
        #expect(thumbnail.rendition.size == "thumbnail" && max(thumbnail.rendition.width, thumbnail.rendition.height) <= 320)
        #expect(Data(base64Encoded: thumbnail.data)?.isEmpty == false)
        let post = try await satchel.diary.create(text: "Shore", images: [.imageId(photo.image.id)])
        #expect(post.images.map(\.id) == [photo.image.id])
        await satchel.close()
    }

    @Test(arguments: Way.allCases)
    func theChangeFeedHearsEveryChangeWithItsEntity(way: Way) async throws {
        let satchel = try await way.start()
        let feed = try await satchel.changes(domains: ["notes"])
        let note = try await satchel.notes.create(title: "First")
        _ = try await satchel.reminders.add(title: "Not heard")
        _ = try await satchel.notes.delete(id: note.id)
        var heard: [Change] = []
        for await change in feed {
            heard.append(change)
            if heard.count == 2 { break }
        }
        guard case .changed(let created, .note(let entity))? = heard.first, case .changed(let deleted, nil)? = heard.last else {
            Issue.record("heard \(heard)")
            return
        }
        #expect(created.kind == "created" && entity.title == "First" && deleted.kind == "deleted" && deleted.id == note.id)
        await satchel.close()
    }

    @Test(arguments: Way.allCases)
    func longWorkReportsProgressAndACancelledTaskCancelsItsCall(way: Way) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("satchelkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let satchel = try await way.start()
        for start in stride(from: 0, to: 3000, by: 500) {
            for index in start..<start + 500 { _ = try await satchel.notes.create(title: "note \(index)") }
        }
        let reports = Reports()
        let path = folder.appendingPathComponent("export.json").path
        let exported = try await satchel.export(path: path, progress: { reports.add($0) })
        #expect(exported["counts"]?["notes"]?.integerValue == 3000)
        let seen = reports.all
        #expect(!seen.isEmpty && seen.last?.progress == seen.last?.total)

        // A call that waits on the network (a feed that never answers) ends when its task is cancelled.
        await satchel.close()
        let silent = try SilentFeed()
        let waiting = try await way.start(["--memory", "--messages-feed", silent.url, "--feed-timeout", "60"])
        let call = Task { try await waiting.messages.loadMore() }
        try await Task.sleep(for: .milliseconds(300))
        call.cancel()
        let outcome = await call.result
        #expect(throws: SatchelError.cancelled) { try outcome.get() }
        // The connection goes on.
        #expect(try await waiting.notes.create(title: "after").title == "after")
        await waiting.close()
        silent.stop()
    }

    @Test func aSatchelLetGoEndsItsServer() async throws {
        var satchel: Satchel? = try await Satchel.process(executable: Way.binary, arguments: ["--memory"], restartsAfterCrash: false)
        let pid = try #require(await satchel?.processIdentifier)
        #expect(try await satchel?.ping() != nil)
        satchel = nil
        var alive = true
        for _ in 0..<100 where alive {
            try await Task.sleep(for: .milliseconds(50))
            alive = kill(pid, 0) == 0
        }
        #expect(!alive, "the server of a Satchel let go is still running")
    }

    @Test func aCrashedChildIsStartedAgainAndItsFeedHearsWhatItMissed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("satchelkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("notes.sqlite").path
        let satchel = try await Satchel.process(executable: Way.binary, arguments: ["--db", database])
        let feed = try await satchel.changes(domains: ["notes"])
        let first = try await satchel.notes.create(title: "before the crash")
        let pid = try #require(await satchel.processIdentifier)
        kill(pid, SIGKILL)
        // Meanwhile another process writes to the same database.
        let other = try await Satchel.process(executable: Way.binary, arguments: ["--db", database], restartsAfterCrash: false)
        let missed = try await other.notes.create(title: "while it was down")
        await other.close()
        // The next call is served by a new server (the first may fail while it starts again).
        var after: Note?
        for _ in 0..<50 where after == nil {
            after = try? await satchel.notes.create(title: "after the crash")
            if after == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(await satchel.processIdentifier != pid)
        var ids: [String] = []
        for await change in feed {
            if case .changed(let event, _) = change { ids.append(event.id) }
            if ids.count == 3 { break }
        }
        #expect(ids == [first.id, missed.id, try #require(after).id], "\(ids)")
        await satchel.close()
    }
}

/// What `body` answered or threw.
func outcome<T>(_ body: () async throws(SatchelError) -> T) async -> Result<T, SatchelError> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}

/// Progress reports, collected from the server's thread.
final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [CallProgress] = []

    func add(_ report: CallProgress) { lock.withLock { reports.append(report) } }
    var all: [CallProgress] { lock.withLock { reports } }
}

/// An HTTP feed on 127.0.0.1 that accepts connections and never answers.
final class SilentFeed: @unchecked Sendable {
    private let socket: Int32
    let url: String

    init() throws {
        let listening = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listening, $0, size) } }
        listen(listening, 16)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listening, $0, &size) } }
        socket = listening
        url = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/history"
    }

    func stop() { close(socket) }
}
