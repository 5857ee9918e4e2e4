import Testing

@testable import Protocol

/// The usual request is read without a value tree for its envelope (`JSONParser.request`); every other
/// line is decoded in full. The two ways must never disagree.
@Suite struct UsualRequestTests {
    static func shortcut(_ line: String, budget: Int = .max) -> Request? {
        utf8(line).withUnsafeBytes { JSONParser.request($0, maximumValueBytes: budget) }
    }

    static func inFull(_ line: String, decoder: MessageDecoder = MessageDecoder()) -> IncomingMessage {
        utf8(line).withUnsafeBytes { decoder.decodeInFull($0) }
    }

    @Test(
        "the usual requests and notifications take the shortcut, with what decoding in full gives",
        arguments: [
            #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":7,"method":"notes.create","params":{"title":"a\"b","content":"é😀"}}"#,
            #"{"method":"notes.list","params":[1,{"a":[true,null,-2.5e3]}],"id":"x-1","jsonrpc":"2.0"}"#,
            #" { "jsonrpc" : "2.0" , "id" : null , "method" : "ping" , "params" : { } } "#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            #"{"jsonrpc":"2.0","method":"m","id":1}"#,  // the last name has fewer than 8 bytes after it
            #"{"jsonrpc":"2.0","id":-9223372036854775808,"method":"","params":[]}"#,
            #"{"params":{"id":1,"jsonrpc":"1.0","method":2},"jsonrpc":"2.0","method":"m\u00e9"}"#,
            "{\"jsonrpc\":\"2.0\",\t\"id\":\"\(String(repeating: "long id ", count: 40))\",\n\"method\":\"m\"}\r",
        ])
    func usualRequests(line: String) throws {
        let request = try #require(Self.shortcut(line), "the shortcut takes \(line)")
        #expect(IncomingMessage.single(.request(request)) == Self.inFull(line))
        #expect(decodeLine(line) == Self.inFull(line))
    }

    @Test(
        "anything else is left to decoding in full, which answers it as before",
        arguments: [
            // Not the envelope alone: another member, a repeated one, a name written with an escape.
            #"{"jsonrpc":"2.0","id":1,"method":"ping","extra":true}"#,
            #"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","method":"a","method":"b"}"#,
            #"{"jsonrpc":"2.0","\u0069d":1,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","method":"m","i":1}"#, #"{"jsonrpc":"2.0","method":"m","":1}"#,
            #"{"jsonrpc":"2.0","method":"m","params2":[]}"#, #"{"jsonrpc":"2.0","method":"m","parameters":[]}"#,
            #"{"jsonrpc":"2.0","method":"m","paramsX":[]}"#, #"{"jsonrpc":"2.0","method":"m","id"#,
            // Values of another kind, or a version written another way.
            #"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":true,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#,
            #"{"jsonrpc":"2\u002e0","id":1,"method":"ping"}"#,
            #"{"jsonrpc":"2.00","id":1,"method":"ping"}"#,
            #"{"jsonrpc":2.0,"id":1,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":1,"method":5}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"ping","params":null}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}"#,
            // Missing members, responses, other shapes.
            #"{"id":1,"method":"ping"}"#, #"{"jsonrpc":"2.0","id":1}"#, #"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            "{}", "[]", #"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, "5", #""ping""#, "",
            // Broken JSON, at every place the shortcut reads.
            #"{"jsonrpc":"2.0","id":1,"method":"ping""#, #"{"jsonrpc":"2.0","id":1,"method":"ping",}"#,
            #"{"jsonrpc":"2.0","id":1,"method":"ping"} x"#, #"{"jsonrpc":"2.0" "id":1}"#, #"{"jsonrpc""2.0"}"#,
            #"{"jsonrpc":"2.0","id":01,"method":"ping"}"#, #"{"jsonrpc":"2.0","method":"p\u12"}"#,
            #"{"jsonrpc":"2.0","method":"ping","params":{"a":}}"#, #"{"jsonrpc":"2.0","method":"ping","params":[1,]}"#,
            #"{"jsonrpc":"2.0","method":"ping","params":{"a":"\ud800"}}"#, #"{"jsonrpc"#, "{",
            // Nesting just past the limit inside params.
            #"{"jsonrpc":"2.0","method":"m","params":"# + nestedArrays(64) + "}",
        ])
    func otherLines(line: String) {
        #expect(Self.shortcut(line) == nil, "the shortcut leaves \(line)")
        #expect(decodeLine(line) == Self.inFull(line))
    }

    @Test("nesting up to the limit inside params is taken, as in full")
    func deepestParams() throws {
        let line = #"{"jsonrpc":"2.0","method":"m","params":"# + nestedArrays(63) + "}"
        let request = try #require(Self.shortcut(line))
        #expect(IncomingMessage.single(.request(request)) == Self.inFull(line))
    }

    @Test("invalid UTF-8 is left to decoding in full (-32700 invalidUTF8)")
    func invalidUTF8() {
        let line = utf8(#"{"jsonrpc":"2.0","id":1,"method":"p"#) + [0xC3, 0x28] + utf8(#""}"#)
        #expect(line.withUnsafeBytes { JSONParser.request($0, maximumValueBytes: .max) } == nil)
        #expect(decodeLine(line).rejection?.reason == "invalidUTF8")
    }

    @Test("params meet the same memory budget either way")
    func sameBudget() {
        let line = #"{"jsonrpc":"2.0","id":1,"method":"m","params":"# + "[" + Array(repeating: "{}", count: 300).joined(separator: ",") + "]}"
        // The least budget under which decoding in full takes the line: the shortcut takes it there too,
        // and refuses it just below.
        var low = 0
        var high = 1 << 20
        while low < high {
            let middle = (low + high) / 2
            let decoder = MessageDecoder(maximumMessageBytes: 1)
            var limited = decoder
            limited.maximumValueBytes = middle
            if case .single(.request) = Self.inFull(line, decoder: limited) { high = middle } else { low = middle + 1 }
        }
        #expect(low > 0)
        #expect(Self.shortcut(line, budget: low) != nil)
        #expect(Self.shortcut(line, budget: low - 1) == nil)
        var decoder = MessageDecoder()
        decoder.maximumValueBytes = low - 1
        #expect(decodeLine(line, decoder: decoder).rejection?.reason == "tooComplex")
    }
}
