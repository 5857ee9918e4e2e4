import Foundation
import Testing

@testable import Domain

/// The file reader finds a document's parts and reads its elements one at a time, whatever falls on the
/// edge of what it has read so far: a string's escape, a quote, a nested object, white space.
@Suite struct ExchangeFileReaderTests {
    static func document() -> ExchangeDocument {
        let tricky = ["plain", "a \"quoted\" word", "back\\slash\\", "new\nline", "ünïcödé ✓ 京都", "ends with \\\"", "{[,]}:"]
        return ExchangeDocument(
            format: "satchel", version: 1, images: [], notes: tricky.enumerated().map { index, title in
                ExchangeDocument.Note(
                    id: "note_\(index)", title: title, content: String(repeating: title, count: index),
                    color: .init(hue: Double(index) / 10, saturation: 0.5, brightness: 1), deadline: nil,
                    createdAt: "2026-11-21T09:15:00.000Z", updatedAt: "2026-11-21T09:15:00.000Z", revision: Int64(index + 1))
            }, photos: [], reminders: [], diary: [], messages: [], messageFeeds: [],
            board: [
                ExchangeDocument.BoardPost(
                    id: "bp_1", title: "votes", ups: 2, downs: 1,
                    votes: [.init(voter: "a", direction: "up"), .init(voter: "b\"", direction: "down")],
                    createdAt: "2026-11-21T09:15:00.000Z", updatedAt: "2026-11-21T09:15:00.000Z", revision: 3)
            ])
    }

    @Test(arguments: [1, 2, 3, 5, 7, 13, 64, 1 << 20])
    func everyElementReadsBackWhateverTheBufferSize(bufferSize: Int) throws {
        try DomainTestSupport.withTemporaryDirectory { directory in
            let path = directory + "/document.json"
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted]  // white space between every token too
            try encoder.encode(Self.document()).write(to: URL(fileURLWithPath: path))
            let reader = try ExchangeFileReader(path: path, bufferSize: bufferSize)
            try reader.locate()
            #expect(reader.format == "satchel" && reader.version == 1)
            #expect(reader.counts[.notes] == 7 && reader.counts[.board] == 1 && reader.counts[.images] == 0)
            var notes: [ExchangeDocument.Note] = []
            try reader.forEach(.notes, as: ExchangeDocument.Note.self) { _, note in notes.append(note) }
            var board: [ExchangeDocument.BoardPost] = []
            try reader.forEach(.board, as: ExchangeDocument.BoardPost.self) { _, post in board.append(post) }
            #expect(notes == Self.document().notes)
            #expect(board == Self.document().board)
        }
    }
}
