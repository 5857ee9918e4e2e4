import Testing

@testable import Protocol

/// The parser's memory budget: a tree of many tiny values is stopped as `.tooComplex` before it is built,
/// while realistic messages of the longest size parse.
@Suite struct ParseBudgetTests {
    /// The error parsing `text` under `budget` throws, or `nil` when it parses.
    func failure(_ text: String, budget: Int) -> JSONParseError? {
        do {
            _ = try JSONParser.parse(text, maximumValueBytes: budget)
            return nil
        } catch {
            return error
        }
    }

    /// The least budget under which `text` parses (its cost as the parser charges it).
    func cost(_ text: String) -> Int {
        var low = 0
        var high = 1 << 30
        while low < high {
            let middle = (low + high) / 2
            if failure(text, budget: middle) == nil { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// `count` copies of `element` as a JSON array.
    func array(of element: String, count: Int) -> String {
        "[" + Array(repeating: element, count: count).joined(separator: ",") + "]"
    }

    @Test("scalars, empty containers and short strings cost nothing on their own")
    func freeValues() {
        for text in ["0", "-1.5e3", "true", "null", "{}", "[]", #""fifteen bytes!!""#, #""\u00e9\u00e9\u00e9""#] {
            #expect(cost(text) == 0, "\(text)")
        }
    }

    @Test("what each part of a tree is charged")
    func charges() {
        let storage = JSONParser.Cost.storage
        let element = JSONParser.Cost.element
        let member = JSONParser.Cost.member
        #expect(cost("[0]") == storage + element)
        #expect(cost("[0,0]") == storage + 2 * element)
        // Storage doubles when full: 3 and 4 elements fit in room for 4.
        #expect(cost("[0,0,0]") == storage + 4 * element)
        #expect(cost("[0,0,0,0]") == storage + 4 * element)
        #expect(cost("[0,0,0,0,0]") == storage + 8 * element)
        // An object reserves room for 4 members up front.
        #expect(cost(#"{"a":0}"#) == storage + 4 * member)
        #expect(cost(#"{"a":0,"b":0,"c":0,"d":0,"e":0}"#) == storage + 8 * member)
        #expect(cost("[{},[]]") == storage + 2 * element)
        #expect(cost(#"[{"a":0}]"#) == 2 * storage + element + 4 * member)
        // Strings past 15 UTF-8 bytes take a heap block; escapes are charged by what they decode to.
        // (32 bytes of header, the text and a zero, and the allocator's 8, rounded up to 16.)
        #expect(cost(#""sixteen bytes!!!""#) == 64)
        #expect(cost(#""\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9""#) == 64)
        #expect(cost(#""twenty-four bytes long!!""#) == 80)
        #expect(cost(#"{"a key of 20 bytes...":0}"#) == storage + 4 * member + 64)
    }

    @Test("an object of more than 16 members is also charged for the set that finds repeated keys")
    func largeObjects() {
        func object(_ count: Int) -> String {
            "{" + (0..<count).map { #""k\#($0)":0"# }.joined(separator: ",") + "}"
        }
        let storage = JSONParser.Cost.storage
        let member = JSONParser.Cost.member
        #expect(cost(object(16)) == storage + 16 * member)
        #expect(cost(object(17)) == storage + 32 * member + 17 * JSONParser.Cost.memberName)
        #expect(cost(object(18)) == storage + 32 * member + 18 * JSONParser.Cost.memberName)
    }

    @Test("past the budget, many tiny values are .tooComplex, found early and at the place the budget ran out")
    func tinyValuesAreTooComplex() throws {
        let budget = 1 << 20
        for element in ["{}", "[]", "0", #""""#, #"{"a":0}"#, "[0]"] {
            let text = array(of: element, count: 200_000)
            #expect(failure(text, budget: .max) == nil)
            let error = try #require(failure(text, budget: budget), "\(element)")
            #expect(error.kind == .tooComplex, "\(element)")
            #expect(error.offset < text.utf8.count / 2, "\(element)")
            #expect(error.offset > 0)
        }
        let keys = "{" + (0..<200_000).map { #""\#($0)":{}"# }.joined(separator: ",") + "}"
        #expect(failure(keys, budget: budget)?.kind == .tooComplex)
        #expect(failure(keys, budget: .max) == nil)
    }

    @Test("the budget is a limit, not a guess: exactly the cost parses, a byte less does not")
    func exactLimit() {
        let text = #"{"jsonrpc":"2.0","id":1,"method":"notes.create","params":{"title":"A title of some length"}}"#
        let total = cost(text)
        #expect(total > 0)
        #expect(failure(text, budget: total) == nil)
        #expect(failure(text, budget: total - 1)?.kind == .tooComplex)
    }

    @Test("the decoder's budget follows the longest message: 2.5 times it, never below 1 MiB")
    func decoderBudget() {
        #expect(MessageDecoder().maximumValueBytes == 80 << 20)
        #expect(MessageDecoder(maximumMessageBytes: 4 << 20).maximumValueBytes == 10 << 20)
        #expect(MessageDecoder(maximumMessageBytes: 1024).maximumValueBytes == 1 << 20)
    }

    @Test("past the budget a line is rejected with -32600, reason tooComplex and the limit")
    func decoderRejects() throws {
        let decoder = MessageDecoder(maximumMessageBytes: 1 << 20)
        let limit = 2_621_440
        #expect(decoder.maximumValueBytes == limit)
        let line = #"{"jsonrpc":"2.0","id":1,"method":"ping","params":"# + array(of: #"{"a":0}"#, count: 100_000) + "}"
        #expect(line.utf8.count < 1 << 20)
        let message = decodeLine(line, decoder: decoder)
        #expect(message == .rejected(.invalidRequest(reason: "tooComplex", limit: limit)))
        let error = try #require(message.rejection)
        #expect(error.code.rawValue == -32600)
        #expect(error.data == ["reason": "tooComplex", "limit": .integer(Int64(limit))])
        // The same decoder goes on to decode the next line.
        #expect(decodeLine(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#, decoder: decoder)
            == .single(.request(Request(id: .integer(2), method: "ping"))))
    }

    /// An `import` request of notes with ordinary text, as long as `size` bytes allows.
    static func importRequest(size: Int) -> String {
        var generator = SplitMix64(seed: 7)
        let words = [
            "the", "meeting", "tomorrow", "groceries", "call", "project", "deadline", "Заметка", "日本語", "remember",
            "to", "buy", "milk", "and", "bread", "review", "notes", #"\"quoted\""#, #"line\nbreak"#,
        ]
        func text(_ count: Int) -> String {
            (0..<count).map { _ in words[Int(generator.next() % UInt64(words.count))] }.joined(separator: " ")
        }
        let head = #"{"jsonrpc":"2.0","id":1,"method":"import","params":{"mode":"merge","document":{"format":"satchel","version":1,"images":[],"photos":[],"reminders":[],"diary":[],"messages":[],"messageFeeds":[],"board":[],"notes":["#
        let tail = "]}}}"
        var notes: [String] = []
        var length = head.utf8.count + tail.utf8.count
        while true {
            let index = notes.count
            let note = #"{"id":"note_01jd\#(index)","title":"\#(text(4))","content":"\#(text(20 + Int(generator.next() % 130)))","color":{"hue":0.\#(index % 1000),"saturation":0.25,"brightness":1},"deadline":null,"createdAt":"2025-01-02T03:04:05Z","updatedAt":"2025-01-02T03:04:05Z","revision":1}"#
            guard length + note.utf8.count + 1 <= size else { break }
            length += note.utf8.count + 1
            notes.append(note)
        }
        return head + notes.joined(separator: ",") + tail
    }

    @Test("an import of notes with ordinary text as long as the longest message parses within the budget")
    func realisticImport() throws {
        let size = 4 << 20
        let line = Self.importRequest(size: size)
        #expect(line.utf8.count > size - 2048)
        guard case .single(.request(let request)) = decodeLine(line, decoder: MessageDecoder(maximumMessageBytes: size))
        else {
            Issue.record("a realistic import was not decoded")
            return
        }
        #expect(request.method == "import")
        // With room to spare: a fifth less would still do.
        #expect(failure(line, budget: MessageDecoder.maximumValueBytes(forMessagesUpTo: size) * 4 / 5) == nil)
    }

    @Test("a batch of 1000 requests as long as the longest message parses within the budget")
    func realisticBatch() {
        let size = 4 << 20
        let entry = #"{"jsonrpc":"2.0","id":1,"method":"notes.create","params":{"title":"Groceries","content":""#
            + String(repeating: "milk, eggs, bread; ", count: size / 1000 / 20 - 6) + #""}}"#
        let line = array(of: entry, count: 1000)
        #expect(line.utf8.count <= size)
        #expect(decodeLine(line, decoder: MessageDecoder(maximumMessageBytes: size)).batchCalls?.count == 1000)
    }
}
