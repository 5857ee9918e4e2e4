import Foundation
import Testing

@testable import Domain

// Shared helpers for the ENotes domain tests. Everything lives in one namespace so these names cannot
// collide with helpers other test files of this module define.
enum DomainTestSupport {
    // MARK: Stores

    /// A fresh in-memory store with a hand-driven clock and ids `note_1`, `photo_2`, `img_3`, ...
    static func openStore(freeLimit: Int? = nil, clock: ManualClock = ManualClock()) throws -> DataStore {
        try DataStore(
            path: nil, settings: DomainSettings(freeLimit: freeLimit), clock: clock, ids: SequentialIDGenerator())
    }

    /// A store on the database file at `path` (created when missing). For restart tests: open, write, drop
    /// the store, open again. A reopened store that creates entities needs ids that cannot repeat the
    /// first run's, so pass `RandomIDGenerator` (or nothing, which means the same) for it.
    static func openStore(
        path: String, freeLimit: Int? = nil, clock: ManualClock = ManualClock(), ids: (any IDGenerator)? = nil
    ) throws -> DataStore {
        try DataStore(path: path, settings: DomainSettings(freeLimit: freeLimit), clock: clock, ids: ids)
    }

    /// Runs `body` with a new, empty temporary directory, removed afterwards.
    static func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("satchel-domain-tests-\(UUID().uuidString)", isDirectory: true).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try body(directory)
    }

    // MARK: Listing

    /// Every note, in the user's order, read page by page.
    static func allNotes(_ store: DataStore, pageSize: Int = PageRequest.maximumLimit) throws -> [Note] {
        var notes: [Note] = []
        var cursor: String?
        repeat {
            let page = try store.notes.list(PageRequest(limit: pageSize, cursor: cursor))
            notes += page.items
            cursor = page.nextCursor
        } while cursor != nil
        return notes
    }

    static func noteIDs(_ store: DataStore) throws -> [String] {
        try allNotes(store).map(\.id)
    }

    /// Every photo note, in the user's order, read page by page.
    static func allPhotos(_ store: DataStore, pageSize: Int = PageRequest.maximumLimit) throws -> [PhotoNote] {
        var photos: [PhotoNote] = []
        var cursor: String?
        repeat {
            let page = try store.photos.list(PageRequest(limit: pageSize, cursor: cursor))
            photos += page.items
            cursor = page.nextCursor
        } while cursor != nil
        return photos
    }

    static func photoIDs(_ store: DataStore) throws -> [String] {
        try allPhotos(store).map(\.id)
    }

    /// Every event in the change log, oldest first.
    static func allEvents(_ store: DataStore) throws -> [ChangeEvent] {
        try store.changes.events(after: 0, limit: 1_000_000)
    }

    // MARK: Text

    /// "é" as two scalars (e + COMBINING ACUTE ACCENT): one `Character`, three UTF-8 bytes.
    static let combiningE = "e\u{301}"
    /// A family emoji: one `Character`, seven scalars, 25 UTF-8 bytes.
    static let family = "👩‍👩‍👧‍👦"

    /// Exactly `count` characters, none of them ASCII, alternating combining "é" and a family emoji, so
    /// neither the UTF-8 length nor the scalar count equals the character count.
    static func characters(_ count: Int) -> String {
        var text = ""
        for index in 0..<count { text += index.isMultiple(of: 2) ? combiningE : family }
        return text
    }

    // MARK: Images

    /// A valid 1x1 PNG.
    static let onePixelPNGBase64 =
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

    /// The 1x1 PNG, or (with a `tag`) the same picture with a `tEXt` chunk naming the tag, so every tag gives
    /// a distinct, still valid file (and so a distinct stored image).
    static func pngBytes(tag: Int? = nil) -> [UInt8] {
        var bytes = [UInt8](Data(base64Encoded: onePixelPNGBase64)!)
        guard let tag else { return bytes }
        let type = Array("tEXt".utf8)
        let data = Array("Comment".utf8) + [0] + Array("image \(tag)".utf8)
        var chunk = bigEndian(UInt32(data.count)) + type + data
        chunk += bigEndian(crc32(type + data))
        // Right after the signature (8 bytes) and the IHDR chunk (4 + 4 + 13 + 4 bytes).
        bytes.insert(contentsOf: chunk, at: 33)
        return bytes
    }

    /// An image input carrying `pngBytes(tag:)` as base64.
    static func png(tag: Int? = nil) -> ImageInput {
        .data(base64: Data(pngBytes(tag: tag)).base64EncodedString(), claimedMimeType: "image/png")
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// CRC-32 (ISO-HDLC), as PNG chunks use it.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    // MARK: Cursors

    /// `text` in unpadded base64url, the cursors' alphabet.
    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// SplitMix64: a tiny deterministic generator, so the "random" move sequences are reproducible.
struct DomainTestRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A tool's output (sqlite3, date, zdump), read once it has exited.
enum ChildOutput {
    struct Failed: Error {
        let status: Int32
    }

    /// What `executable` prints given `arguments`, `environment` and `input`. Input and output go through
    /// files, not pipes: a process another test starts meanwhile may inherit a pipe's end, and then the end
    /// of input or output never comes. `succeeding`: an exit status other than 0 is an error.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], input: String = "",
        succeeding: Bool = false
    ) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputFile = folder.appendingPathComponent("in")
        let outputFile = folder.appendingPathComponent("out")
        try Data(input.utf8).write(to: inputFile)
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let reading = try FileHandle(forReadingFrom: inputFile)
        let writing = try FileHandle(forWritingTo: outputFile)
        process.standardInput = reading
        process.standardOutput = writing
        try process.run()
        process.waitUntilExit()
        try reading.close()
        try writing.close()
        if succeeding && process.terminationStatus != 0 { throw Failed(status: process.terminationStatus) }
        return String(decoding: try Data(contentsOf: outputFile), as: UTF8.self)
    }
}
