import Testing

@testable import Protocol

/// The escape JSONWriter must produce for control character `byte`, spelled out independently.
private func expectedControlEscape(_ byte: UInt8) -> String {
    switch byte {
    case 0x08: return #"\b"#
    case 0x09: return #"\t"#
    case 0x0A: return #"\n"#
    case 0x0C: return #"\f"#
    case 0x0D: return #"\r"#
    default:
        let digits = Array("0123456789abcdef")
        return #"\u00"# + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }
}

@Suite("JSONWriter")
struct JSONWriterTests {
    // MARK: The buffer

    @Test("the buffer grows past its first capacity and copies of a writer stay independent")
    func bufferGrowsAndCopiesAreIndependent() {
        var writer = JSONWriter(capacity: 1)
        let long = String(repeating: "x", count: 5_000)
        writer.write(.array([.string(long), .integer(42)]))
        #expect(writer.bytes == Array(("[\"" + long + "\",42]").utf8))
        #expect(writer.count == long.utf8.count + 7)
        var copy = writer
        copy.writeRaw(",1")
        writer.writeRaw(",2")
        #expect(String(decoding: copy.bytes.suffix(2), as: UTF8.self) == ",1")
        #expect(String(decoding: writer.bytes.suffix(2), as: UTF8.self) == ",2")
        writer.removeAll()
        #expect(writer.count == 0)
        #expect(copy.count == long.utf8.count + 9, "emptying one leaves the other")
        writer.write(.null)
        #expect(writer.withUnsafeBytes { Array($0) } == Array("null".utf8))
    }

    // MARK: Escaping at every offset (text is scanned 8 bytes at a time)

    @Test(
        "a character that needs escaping is found at any offset; its neighbours are left alone",
        arguments: [UInt8(0x00), 0x01, 0x0A, 0x1F, 0x22, 0x5C])
    func escapesAtEveryOffset(special: UInt8) {
        let escaped = special < 0x20 ? expectedControlEscape(special) : (special == 0x22 ? #"\""# : #"\\"#)
        for length in 1...19 {
            for offset in 0..<length {
                var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
                bytes[offset] = special
                let text = String(decoding: bytes, as: UTF8.self)
                let expected = "\"" + String(repeating: "a", count: offset) + escaped
                    + String(repeating: "a", count: length - offset - 1) + "\""
                #expect(JSONWriter.string(.string(text)) == expected, "length \(length), offset \(offset)")
            }
        }
    }

    @Test(
        "bytes next to the escaped ranges, and non-ASCII text, are written as they are",
        arguments: ["\u{20}", "!", "#", "[", "]", "~", "\u{7F}", "é", "日本", "🙂"])
    func neighboursAreNotEscaped(piece: String) {
        for repeats in [1, 7, 8, 9, 17] {
            let text = String(repeating: piece, count: repeats)
            #expect(JSONWriter.string(.string(text)) == "\"" + text + "\"")
        }
    }

    // MARK: Compact output

    @Test(
        "values are written compactly",
        arguments: [
            (.null, "null"),
            (.bool(true), "true"),
            (.bool(false), "false"),
            (.integer(0), "0"),
            (.string(""), #""""#),
            (.string("abc"), #""abc""#),
            (.array([]), "[]"),
            (.object(JSONObject()), "{}"),
            (.array([.integer(1), .integer(2), .integer(3)]), "[1,2,3]"),
            (.array([.null, .bool(true), .string("x"), .array([]), .object(JSONObject())]), #"[null,true,"x",[],{}]"#),
            (.object(JSONObject([("a", .array([.integer(1), .integer(2), .object(JSONObject([("b", .null)]))])), ("c", .bool(true))])),
             #"{"a":[1,2,{"b":null}],"c":true}"#),
            (.array([.array([.array([])])]), "[[[]]]"),
        ] as [(JSONValue, String)])
    func compact(value: JSONValue, expected: String) {
        #expect(JSONWriter.string(value) == expected)
        #expect(JSONWriter.bytes(value) == utf8(expected))
        #expect(value.description == expected)
    }

    @Test("output never contains white space outside strings")
    func noWhitespace() throws {
        let value = try JSONParser.parse(" { \"a\" : [ 1 , 2 ] , \"b\" : { \"c\" : \" x y \" } } ")
        #expect(JSONWriter.string(value) == #"{"a":[1,2],"b":{"c":" x y "}}"#)
    }

    // MARK: Integers

    @Test(
        "integers are written in decimal, including the Int64 edges",
        arguments: [
            (0, "0"), (1, "1"), (9, "9"), (10, "10"), (-1, "-1"), (-9, "-9"), (-10, "-10"), (99, "99"),
            (100, "100"), (1_234_567_890, "1234567890"), (-1_234_567_890, "-1234567890"),
            (Int64.max, "9223372036854775807"), (Int64.min, "-9223372036854775808"),
            (Int64.max - 1, "9223372036854775806"), (Int64.min + 1, "-9223372036854775807"),
            (1_000_000_000_000_000_000, "1000000000000000000"),
        ] as [(Int64, String)])
    func integers(value: Int64, expected: String) throws {
        #expect(JSONWriter.string(.integer(value)) == expected)
        #expect(try JSONParser.parse(expected) == .integer(value))
    }

    // MARK: Doubles

    @Test(
        "doubles round-trip exactly through write and parse",
        arguments: [
            0.1, 0.2, 0.30000000000000004, 1e300, -1e300, Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude, -0.5, 0.5, 1.5, 1.0, 100.0, 0.0,
            1.7976931348623157e308, -1.7976931348623157e308, 2.2250738585072014e-308, Double.leastNormalMagnitude.nextDown,
            123456.789, 1e21, 1e22, 1e-7, 1e16, 9007199254740993.0, 3.141592653589793, 2.718281828459045,
            1.0 / 3.0, 6.02214076e23, -1.602176634e-19, Double.leastNonzeroMagnitude * 3, 9.223372036854775807e18,
        ] as [Double])
    func doubleRoundTrip(value: Double) throws {
        let text = JSONWriter.string(.number(value))
        let parsed = try JSONParser.parse(text)
        guard case .number(let back) = parsed else {
            Issue.record("\(value) was written as \(text), which parses as \(parsed), not .number")
            return
        }
        #expect(back == value, "\(value) -> \(text) -> \(back)")
        #expect(back.bitPattern == value.bitPattern)
    }

    @Test("negative zero keeps its sign through write and parse")
    func negativeZero() throws {
        let text = JSONWriter.string(.number(-0.0))
        let parsed = try JSONParser.parse(text)
        #expect(parsed.doubleValue?.sign == .minus, "-0.0 written as \(text)")
    }

    @Test("short doubles are written in their shortest form", arguments: [(0.1, "0.1"), (-0.5, "-0.5"), (1.5, "1.5"), (2.25, "2.25")] as [(Double, String)])
    func shortestForm(value: Double, expected: String) {
        #expect(JSONWriter.string(.number(value)) == expected)
    }

    @Test("NaN and infinities are written as null", arguments: [Double.nan, -Double.nan, .signalingNaN, .infinity, -.infinity])
    func nonFinite(value: Double) {
        #expect(JSONWriter.string(.number(value)) == "null")
        #expect(JSONWriter.string(.array([.integer(1), .number(value), .integer(2)])) == "[1,null,2]")
        #expect(JSONWriter.string(.object(JSONObject([("x", .number(value))]))) == #"{"x":null}"#)
    }

    // MARK: Strings

    @Test("quote and backslash are escaped")
    func quoteAndBackslash() {
        #expect(JSONWriter.string(.string("\"")) == #""\"""#)
        #expect(JSONWriter.string(.string("\\")) == #""\\""#)
        #expect(JSONWriter.string(.string(#"a"b\c"#)) == #""a\"b\\c""#)
        #expect(JSONWriter.string(.string(#"\""#)) == #""\\\"""#)
        #expect(JSONWriter.string(.string(#"\u0041"#)) == #""\\u0041""#)
    }

    @Test("every control character 0x00-0x1F is escaped", arguments: Array(UInt8(0)...UInt8(0x1F)))
    func controlCharacter(byte: UInt8) throws {
        let text = String(decoding: [byte], as: UTF8.self)
        let escape = expectedControlEscape(byte)
        #expect(JSONWriter.string(.string(text)) == "\"" + escape + "\"")
        #expect(JSONWriter.string(.string("a" + text + "b")) == "\"a" + escape + "b\"")
        // Never a raw control byte in the output.
        #expect(!JSONWriter.bytes(.string("x" + text)).contains(where: { $0 < 0x20 }))
        // And it parses back.
        #expect(try JSONParser.parse(JSONWriter.bytes(.string(text))) == .string(text))
    }

    @Test("control escapes use exactly these spellings")
    func controlSpellings() {
        #expect(JSONWriter.string(.string("\u{0}")) == #""\u0000""#)
        #expect(JSONWriter.string(.string("\u{1}")) == #""\u0001""#)
        #expect(JSONWriter.string(.string("\u{0B}")) == #""\u000b""#)
        #expect(JSONWriter.string(.string("\u{1B}")) == #""\u001b""#)
        #expect(JSONWriter.string(.string("\u{1F}")) == #""\u001f""#)
        #expect(JSONWriter.string(.string("\n\r\t\u{08}\u{0C}")) == #""\n\r\t\b\f""#)
        #expect(JSONWriter.string(.string("line1\r\nline2")) == #""line1\r\nline2""#)
    }

    @Test("slash, DEL and non-ASCII are not escaped")
    func notEscaped() {
        #expect(JSONWriter.string(.string("/")) == #""/""#)
        #expect(JSONWriter.string(.string("a/b</script>")) == #""a/b</script>""#)
        #expect(JSONWriter.bytes(.string("\u{7F}")) == [0x22, 0x7F, 0x22])
        #expect(JSONWriter.bytes(.string("é")) == [0x22, 0xC3, 0xA9, 0x22])
        #expect(JSONWriter.string(.string("Привет 日本 😀")) == "\"Привет 日本 😀\"")
        #expect(JSONWriter.bytes(.string("\u{2028}")) == [0x22, 0xE2, 0x80, 0xA8, 0x22])
        #expect(JSONWriter.bytes(.string("\u{10FFFF}")) == [0x22, 0xF4, 0x8F, 0xBF, 0xBF, 0x22])
    }

    @Test("every string of ASCII plus some non-ASCII round-trips")
    func stringRoundTrip() throws {
        let all = String(decoding: Array(UInt8(0)...UInt8(0x7F)), as: UTF8.self) + "é日😀\u{10FFFF}"
        let written = JSONWriter.bytes(.string(all))
        #expect(try JSONParser.parse(written) == .string(all))
        #expect(!written.contains(0x0A))
    }

    @Test("keys are escaped like strings")
    func keyEscaping() {
        let object = JSONObject([("a\"b", .integer(1)), ("c\nd", .integer(2)), ("é/", .integer(3))])
        #expect(JSONWriter.string(.object(object)) == #"{"a\"b":1,"c\nd":2,"é/":3}"#)
    }

    // MARK: Order and round trips

    @Test("object members are written in their order")
    func memberOrder() throws {
        let object = JSONObject([("z", .integer(1)), ("a", .integer(2)), ("m", .integer(3))])
        #expect(JSONWriter.string(.object(object)) == #"{"z":1,"a":2,"m":3}"#)

        var built = JSONObject()
        built["second"] = .integer(2)
        built["first"] = .integer(1)
        built["second"] = .integer(22)  // replacing keeps the place
        built["third"] = .integer(3)
        built["first"] = nil  // removing drops it
        #expect(JSONWriter.string(.object(built)) == #"{"second":22,"third":3}"#)

        let text = #"{"b":1,"a":2,"d":{"y":1,"x":2},"c":3}"#
        #expect(JSONWriter.string(try JSONParser.parse(text)) == text)
    }

    @Test("parse(write(v)) == v for nested values")
    func roundTrip() throws {
        let values: [JSONValue] = [
            .null, .bool(false), .integer(Int64.min), .integer(Int64.max), .number(0.1), .string("a\"\\/\n\u{0}😀"),
            .array([]), .object(JSONObject()),
            .object(JSONObject([
                ("jsonrpc", .string("2.0")),
                ("id", .integer(7)),
                ("params", .object(JSONObject([
                    ("list", .array([.integer(1), .number(-2.5), .number(1e300), .null, .bool(true)])),
                    ("nested", .array([.array([.object(JSONObject([("deep", .array([.string("x")]))]))])])),
                    ("text", .string("Привет\t\"мир\"")),
                    ("empty", .object(JSONObject())),
                ]))),
            ])),
            try JSONParser.parse(nestedMixed(64)),
            .object(JSONObject((0..<40).map { ("k\($0)", JSONValue.integer(Int64($0))) })),
        ]
        for value in values {
            let bytes = JSONWriter.bytes(value)
            #expect(try JSONParser.parse(bytes) == value, "\(value)")
            // Writing is deterministic and idempotent through a round trip.
            #expect(JSONWriter.bytes(try JSONParser.parse(bytes)) == bytes)
        }
    }

    @Test("write(parse(text)) reproduces compact text exactly")
    func textRoundTrip() throws {
        let texts = [
            #"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            #"[1,-2,3.5,"x",null,true,false,[],{},{"a":[{"b":[]}]}]"#,
            #""\"\\\n\r\t\b\f\u0000\u001f""#,
            #"-9223372036854775808"#,
        ]
        for text in texts {
            #expect(JSONWriter.string(try JSONParser.parse(text)) == text)
        }
    }

    // MARK: Writer API

    @Test("a writer accumulates, and removeAll starts afresh")
    func writerAPI() {
        var writer = JSONWriter(capacity: 4)
        writer.write(.integer(1))
        writer.writeByte(0x0A)
        writer.writeRaw("[]")
        writer.write(string: "s")
        writer.write(integer: -5)
        writer.write(number: 2.5)
        writer.write(number: .nan)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "1\n[]\"s\"-52.5null")
        writer.removeAll()
        #expect(writer.bytes.isEmpty)
        writer.write(.bool(true))
        #expect(writer.bytes == utf8("true"))
    }
}
