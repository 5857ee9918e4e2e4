import Testing

@testable import Protocol

// MARK: - Value kinds

let parserValueCases: [(String, JSONValue)] = [
    ("null", .null),
    ("true", .bool(true)),
    ("false", .bool(false)),
    ("0", .integer(0)),
    ("7", .integer(7)),
    ("42", .integer(42)),
    ("-17", .integer(-17)),
    ("1234567890123", .integer(1_234_567_890_123)),
    (#""""#, .string("")),
    (#""hello""#, .string("hello")),
    (#""with space""#, .string("with space")),
    ("[]", .array([])),
    ("{}", .object(JSONObject())),
    ("[null]", .array([.null])),
    (#"[1,"a",null,true,false,1.5,[],{}]"#,
     .array([.integer(1), .string("a"), .null, .bool(true), .bool(false), .number(1.5), .array([]), .object(JSONObject())])),
    (#"{"a":1}"#, .object(JSONObject([("a", .integer(1))]))),
    (#"{"s":"x","n":null,"b":false,"i":-3,"d":2.5,"a":[1],"o":{"k":"v"}}"#,
     .object(JSONObject([
        ("s", .string("x")), ("n", .null), ("b", .bool(false)), ("i", .integer(-3)), ("d", .number(2.5)),
        ("a", .array([.integer(1)])), ("o", .object(JSONObject([("k", .string("v"))]))),
     ]))),
    (#"[[[]]]"#, .array([.array([.array([])])])),
]

@Suite("JSONParser: values")
struct JSONParserValueTests {
    @Test("escapes, a closing quote and a control character are found at any offset (strings are scanned 8 bytes at a time)")
    func stringEndsAndEscapesAtEveryOffset() throws {
        for length in 1...19 {
            for offset in 0..<length {
                let before = String(repeating: "a", count: offset)
                let after = String(repeating: "b", count: length - offset - 1)
                #expect(try JSONParser.parse("\"" + before + #"\n"# + after + "\"") == .string(before + "\n" + after))
                #expect(try JSONParser.parse("\"" + before + #"\""# + after + "\"") == .string(before + "\"" + after))
                #expect(try JSONParser.parse("[\"" + before + "\"]") == .array([.string(before)]))
                #expect(throws: JSONParseError.self) { try JSONParser.parse("\"" + before + "\u{01}" + after + "\"") }
                #expect(throws: JSONParseError.self) { try JSONParser.parse("\"" + before + "\u{1F}" + after + "\"") }
                #expect(throws: JSONParseError.self) { try JSONParser.parse("\"" + before + after) }
            }
        }
    }

    @Test("every kind of value parses to the expected JSONValue", arguments: parserValueCases)
    func parsesValue(text: String, expected: JSONValue) throws {
        let value = try JSONParser.parse(text)
        #expect(value == expected)
        #expect(value.typeName == expected.typeName)
    }

    @Test("the three parse entry points (String, [UInt8], raw buffer) agree")
    func entryPointsAgree() throws {
        let text = #"{"a":[1,2.5,"x",null,true]}"#
        let fromString = try JSONParser.parse(text)
        let fromBytes = try JSONParser.parse(utf8(text))
        let fromRaw = try utf8(text).withUnsafeBytes { raw in try JSONParser.parse(raw) }
        #expect(fromString == fromBytes)
        #expect(fromBytes == fromRaw)
        #expect(fromString["a"]?.arrayValue?.count == 5)
    }

    @Test("-0 is zero")
    func negativeZero() throws {
        let value = try JSONParser.parse("-0")
        #expect(value.doubleValue == 0)
        #expect(value.integerValue == 0)
    }

    @Test("Int64.max and Int64.min are kept exactly as .integer")
    func int64Edges() throws {
        #expect(try JSONParser.parse("9223372036854775807") == .integer(Int64.max))
        #expect(try JSONParser.parse("-9223372036854775808") == .integer(Int64.min))
        #expect(try JSONParser.parse("-9223372036854775807") == .integer(-Int64.max))
        #expect(try JSONParser.parse("9223372036854775806") == .integer(Int64.max - 1))
        #expect(try JSONParser.parse("[9223372036854775807,-9223372036854775808]")
            == .array([.integer(Int64.max), .integer(Int64.min)]))
    }

    @Test(
        "integers outside Int64 become .number",
        arguments: [
            ("9223372036854775808", 9_223_372_036_854_775_808.0),  // Int64.max + 1
            ("-9223372036854775809", -9_223_372_036_854_775_809.0),  // Int64.min - 1
            ("18446744073709551615", 18_446_744_073_709_551_615.0),  // UInt64.max
            ("18446744073709551616", 18_446_744_073_709_551_616.0),  // UInt64.max + 1: overflows UInt64 too
            ("-18446744073709551617", -18_446_744_073_709_551_617.0),
            ("100000000000000000000", 1e20),
            ("123456789012345678901234567890", 123_456_789_012_345_678_901_234_567_890.0),
        ] as [(String, Double)])
    func outOfRangeIntegers(text: String, expected: Double) throws {
        let value = try JSONParser.parse(text)
        guard case .number(let number) = value else {
            Issue.record("\(text) parsed as \(value), expected .number")
            return
        }
        #expect(number == expected)
    }

    @Test(
        "fractions and exponents are .number",
        arguments: [
            ("1.5", 1.5), ("-0.25", -0.25), ("0.0", 0.0), ("1.0", 1.0), ("100.000", 100.0),
            ("1e2", 100.0), ("1E2", 100.0), ("1e+2", 100.0), ("1E-2", 0.01), ("1e-2", 0.01),
            ("2.5e-3", 0.0025), ("-1.25E+3", -1250.0), ("0e0", 0.0), ("0.1", 0.1), ("1e300", 1e300),
            ("5e-324", Double.leastNonzeroMagnitude), ("4.9406564584124654e-324", Double.leastNonzeroMagnitude), ("1.7976931348623157e308", 1.7976931348623157e308),
            ("3.141592653589793", 3.141592653589793),
        ] as [(String, Double)])
    func fractionsAndExponents(text: String, expected: Double) throws {
        let value = try JSONParser.parse(text)
        guard case .number(let number) = value else {
            Issue.record("\(text) parsed as \(value), expected .number")
            return
        }
        #expect(number == expected)
        #expect(value.doubleValue == expected)
    }

    @Test("-0.0 keeps its sign")
    func negativeZeroFraction() throws {
        let value = try JSONParser.parse("-0.0")
        guard case .number(let number) = value else {
            Issue.record("expected .number, got \(value)")
            return
        }
        #expect(number == 0)
        #expect(number.sign == .minus)
    }

    @Test("a long array of numbers parses")
    func longArray() throws {
        let count = 100_000
        let text = "[" + (0..<count).map(String.init).joined(separator: ",") + "]"
        let value = try JSONParser.parse(text)
        let elements = try #require(value.arrayValue)
        #expect(elements.count == count)
        #expect(elements.first == .integer(0))
        #expect(elements.last == .integer(Int64(count - 1)))
    }

    @Test("a long string parses")
    func longString() throws {
        let body = String(repeating: "abcdefgh", count: 100_000)
        #expect(try JSONParser.parse("\"" + body + "\"") == .string(body))
        // Same with an escape at the very end, which takes the slow path for the whole body.
        #expect(try JSONParser.parse("\"" + body + #"\n""#) == .string(body + "\n"))
    }
}

// MARK: - Syntax errors

let syntaxErrorCases: [String] = [
    // empty input
    "", " ", "\n", " \t\r\n ",
    // leading zeros
    "01", "00", "-01", "0123", "[01]", #"{"a":00}"#, "-00.5", "012.5",
    // trailing / stray commas
    "[1,]", "[1,2,]", #"{"a":1,}"#, "[,]", "[,1]", "{,}", "[1,,2]", #"{"a":1,,"b":2}"#, ",", "1,",
    // bare words and non-JSON literals
    "abc", "undefined", "NaN", "Infinity", "-Infinity", "True", "FALSE", "Null", "nil", "tru", "fals", "nul",
    "t", "nulll", "{a:1}", "{'a':1}", "'x'", #"{"a":b}"#, "[x]",
    // unterminated strings, arrays, objects
    #"""#, #""abc"#, #""abc\""#, #""\"#, #""\u12"#, #""\u"#, "[", "[1", "[1,", "[[]", #"{"a":1"#, #"{"a""#,
    #"{"a":"#, "{", #"{"a":[1}"#, #"["a"#, #"{"a"#,
    // garbage after the value
    "1 2", "{}x", "[1]]", #""a"b"#, #""a""b""#, "truefalse", "nullx", "true1", "1x", "0x10", "1.0.0", "{} {}",
    "[] ,", "[]]", "{}}", "1 ]", "1/", "1//comment", "1 /* c */",
    // malformed numbers
    "-", "+1", ".5", "1.", "1.e5", "1e", "1e+", "1e-", "--1", "-.5", "1ee2", "0.e1", "- 1", "1e2.5", "0b1",
    "1_000", "١",
    // structure
    "[1 2]", #"{"a" 1}"#, "{1:2}", #"{"a":1 "b":2}"#, #"{"a",1}"#, #"{"a"::1}"#, "]", "}", ":", #"{"a"}"#,
    #"{null:1}"#, #"{"a":1]"#, #"[1}"#, "[:]",
    // white space JSON does not allow
    "\u{0C}1", "1\u{0C}", "\u{0B}1", "[1,\u{0C}2]", "\u{A0}1", "[\u{A0}]", "\u{2003}1",
]

@Suite("JSONParser: syntax errors")
struct JSONParserSyntaxTests {
    @Test("malformed JSON is rejected as .syntax", arguments: syntaxErrorCases)
    func rejected(text: String) {
        let error = parseFailure(text)
        #expect(error?.kind == .syntax, "\(text.debugDescription) -> \(String(describing: error))")
    }

    @Test("top-level scalars are valid JSON texts (RFC 8259)", arguments: ["1", "-1", "1.5", #""s""#, "true", "null"])
    func topLevelScalars(text: String) {
        #expect(parseFailure(text) == nil)
    }

    @Test("the error offset points at the offending byte")
    func offsets() throws {
        let trailingComma = try #require(parseFailure("[1,]"))
        #expect(trailingComma.kind == .syntax)
        #expect(trailingComma.offset == 3)
        #expect(trailingComma.description.hasSuffix("at byte 3"))

        let garbage = try #require(parseFailure("{}  x"))
        #expect(garbage.offset == 4)

        let leadingZero = try #require(parseFailure("[ 01]"))
        #expect(leadingZero.offset == 3)
    }

    @Test("control characters U+0000...U+001F are rejected inside strings", arguments: Array(UInt8(0)...UInt8(0x1F)))
    func controlCharactersRejected(byte: UInt8) {
        // Plain string (fast path).
        #expect(parseFailure([0x22, byte, 0x22])?.kind == .syntax)
        #expect(parseFailure([0x22, 0x61, byte, 0x62, 0x22])?.kind == .syntax)
        // After an escape (slow path).
        #expect(parseFailure([0x22, 0x5C, 0x6E, byte, 0x22])?.kind == .syntax)
        // In a member name.
        #expect(parseFailure(utf8(#"{""#) + [byte] + utf8(#"":1}"#))?.kind == .syntax)
    }

    @Test("DEL (0x7F) is not a control character for JSON and is accepted")
    func delAccepted() throws {
        #expect(try JSONParser.parse([0x22, 0x7F, 0x22]) == .string("\u{7F}"))
    }
}

// MARK: - Strings and escapes

let escapeCases: [(String, String)] = [
    (#""\"""#, "\""),
    (#""\\""#, "\\"),
    (#""\/""#, "/"),
    (#""\b""#, "\u{08}"),
    (#""\f""#, "\u{0C}"),
    (#""\n""#, "\n"),
    (#""\r""#, "\r"),
    (#""\t""#, "\t"),
    (#""\u0041""#, "A"),
    (#""\u0000""#, "\u{0}"),
    (#""\u001f""#, "\u{1F}"),
    (#""\u007F""#, "\u{7F}"),
    (#""\u00e9""#, "é"),
    (#""\u00E9""#, "é"),
    (#""\u0416""#, "Ж"),
    (#""\u65e5\u672C""#, "日本"),
    (#""\u2028\u2029""#, "\u{2028}\u{2029}"),
    (#""\uFFFF""#, "\u{FFFF}"),
    (#""\uFEFF""#, "\u{FEFF}"),
    (#""\ud83d\ude00""#, "😀"),
    (#""\uD83D\uDE00""#, "😀"),
    (#""\uD83d\uDe00""#, "😀"),
    (#""\ud800\udc00""#, "\u{10000}"),
    (#""\udbff\udfff""#, "\u{10FFFF}"),
    (#""x\ud834\udd1ey""#, "x𝄞y"),
    (#""a\"b\\c\/d\be\ff\ng\rh\ti\u0041j""#, "a\"b\\c/d\u{08}e\u{0C}f\ng\rh\tiAj"),
    (#""prefix before the first escape: \n and after""#, "prefix before the first escape: \n and after"),
    (#""Привет\tмир""#, "Привет\tмир"),
    (#""😀\n😀""#, "😀\n😀"),
    (#""\\u0041""#, "\\u0041"),
]

@Suite("JSONParser: strings")
struct JSONParserStringTests {
    @Test("every escape is decoded", arguments: escapeCases)
    func escapes(text: String, expected: String) throws {
        #expect(try JSONParser.parse(text) == .string(expected))
    }

    @Test("escapes in member names are decoded")
    func escapedKeys() throws {
        let value = try JSONParser.parse(#"{"\u0041\n":1,"\ud83d\ude00":2}"#)
        let object = try #require(value.objectValue)
        #expect(object.orderedKeys == ["A\n", "😀"])
        #expect(value["A\n"] == .integer(1))
        #expect(value["😀"] == .integer(2))
    }

    @Test(
        "invalid escapes are .syntax",
        arguments: [
            #""\x41""#, #""\a""#, #""\'""#, #""\U0041""#, #""\u12G4""#, #""\u-123""#, #""\0""#, #""\ ""#,
            #""\u 123""#, #""\u00""#, #""\u00e""#, #""\uGGGG""#, #""\e""#, "\"\\\u{0A}\"",
        ])
    func invalidEscapes(text: String) {
        #expect(parseFailure(text)?.kind == .syntax)
    }

    @Test(
        "lone and mismatched surrogate escapes are .syntax",
        arguments: [
            #""\ud83d""#,  // lone high at the end
            #""\ud83dx""#,  // high followed by a plain character
            #""\ud83d\n""#,  // high followed by another escape
            #""\ud83d\\""#,  // high followed by an escaped backslash
            #""\ud83d\u0041""#,  // high followed by a non-surrogate \u escape
            #""\ud83d\ud83d""#,  // high followed by high
            #""\ud83d\ude0""#,  // high followed by a truncated escape
            #""\ud83d\u""#,
            #""\ude00""#,  // lone low
            #""\udfff""#,
            #""\udc00\ud800""#,  // reversed pair
            #""a\ud800b""#,
            #"{"\ud800":1}"#,  // in a member name
        ])
    func badSurrogates(text: String) {
        #expect(parseFailure(text)?.kind == .syntax)
    }

    @Test(
        "valid multibyte text round-trips through parse and write",
        arguments: [
            "Привет, мир", "日本語のテキスト", "😀👍🏽🇫🇷", "é", "𝄞", "aé日😀", "Ελληνικά", "עברית", "\u{10FFFF}",
            "\u{80}\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFD}\u{FFFF}\u{10000}",
        ])
    func multibyteRoundTrip(text: String) throws {
        let quoted = "\"" + text + "\""
        #expect(try JSONParser.parse(quoted) == .string(text))
        #expect(JSONWriter.bytes(.string(text)) == utf8(quoted))
        let asKey = #"{""# + text + #"":""# + text + #""}"#
        let value = try JSONParser.parse(asKey)
        #expect(value[text] == .string(text))
        #expect(JSONWriter.string(value) == asKey)
    }
}

// MARK: - UTF-8 validation

let invalidUTF8Sequences: [[UInt8]] = [
    [0xC0, 0xAF],  // overlong "/"
    [0xC1, 0xBF],  // overlong
    [0xE0, 0x80, 0xAF],  // overlong 3-byte
    [0xE0, 0x9F, 0xBF],  // overlong 3-byte (just below U+0800)
    [0xF0, 0x80, 0x80, 0xAF],  // overlong 4-byte
    [0xF0, 0x8F, 0xBF, 0xBF],  // overlong 4-byte (just below U+10000)
    [0xED, 0xA0, 0x80],  // U+D800 (surrogate) encoded
    [0xED, 0xBF, 0xBF],  // U+DFFF (surrogate) encoded
    [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80],  // CESU-8 style surrogate pair
    [0xF4, 0x90, 0x80, 0x80],  // U+110000
    [0xF5, 0x80, 0x80, 0x80],  // lead byte past U+10FFFF
    [0xF7, 0xBF, 0xBF, 0xBF],
    [0xF8, 0x88, 0x80, 0x80, 0x80],  // 5-byte form
    [0xFC, 0x84, 0x80, 0x80, 0x80, 0x80],  // 6-byte form
    [0xFE], [0xFF], [0xFF, 0xFE],
    [0x80],  // lone continuation byte
    [0xBF],
    [0x80, 0x80],
    [0xC3],  // truncated 2-byte
    [0xE2, 0x82],  // truncated 3-byte
    [0xF0, 0x9F, 0x98],  // truncated 4-byte
    [0xC3, 0x28],  // bad continuation
    [0xE2, 0x28, 0xA1],
    [0xE2, 0x82, 0x28],
    [0xF0, 0x28, 0x8C, 0xBC],
    [0xF0, 0x90, 0x28, 0xBC],
    [0xF0, 0x90, 0x8C, 0x28],
]

@Suite("JSONParser: UTF-8 validation")
struct JSONParserUTF8Tests {
    @Test("invalid UTF-8 inside a string is .invalidUTF8", arguments: invalidUTF8Sequences)
    func insideString(sequence: [UInt8]) throws {
        let error = try #require(parseFailure([0x22] + sequence + [0x22]))
        #expect(error.kind == .invalidUTF8)
        #expect(error.offset == 1)
        // After some ASCII (exercises the eight-bytes-at-a-time path) and in a member name.
        let padded = utf8(#"{"key":"0123456789abcdef"#) + sequence + utf8(#""}"#)
        #expect(parseFailure(padded)?.kind == .invalidUTF8)
        let inKey = utf8(#"{"k"#) + sequence + utf8(#"":1}"#)
        #expect(parseFailure(inKey)?.kind == .invalidUTF8)
    }

    @Test("invalid UTF-8 outside strings is .invalidUTF8 (not .syntax)", arguments: invalidUTF8Sequences)
    func outsideString(sequence: [UInt8]) {
        #expect(parseFailure(sequence)?.kind == .invalidUTF8)
        #expect(parseFailure(utf8("[1,") + sequence + utf8("]"))?.kind == .invalidUTF8)
        #expect(parseFailure(utf8(" ") + sequence + utf8(" 1"))?.kind == .invalidUTF8)
        #expect(parseFailure(utf8("1") + sequence)?.kind == .invalidUTF8)
        #expect(parseFailure(utf8(#"{"a":1}"#) + sequence)?.kind == .invalidUTF8)
    }

    @Test("an invalid string that is also unterminated reports .invalidUTF8")
    func truncatedAtEnd() {
        #expect(parseFailure([0x22, 0xF0, 0x9F, 0x98])?.kind == .invalidUTF8)
        #expect(parseFailure([0x22, 0xE2])?.kind == .invalidUTF8)
    }

    @Test("the offset of invalid UTF-8 is exact wherever the bad byte sits", arguments: 0..<40)
    func offsetAnywhere(position: Int) throws {
        // A string of `position` ASCII bytes (after the quote), then 0xFF, then more ASCII.
        var bytes: [UInt8] = [0x22] + Array(repeating: 0x61, count: position) + [0xFF]
        bytes += Array(repeating: 0x62, count: 17) + [0x22]
        let error = try #require(parseFailure(bytes))
        #expect(error.kind == .invalidUTF8)
        #expect(error.offset == position + 1)

        // A valid multibyte character just before the bad byte does not hide it.
        var mixed: [UInt8] = [0x22] + Array(repeating: 0x61, count: position) + [0xC3, 0xA9, 0xED, 0xA0, 0x80]
        mixed += Array(repeating: 0x62, count: 9) + [0x22]
        let mixedError = try #require(parseFailure(mixed))
        #expect(mixedError.kind == .invalidUTF8)
        #expect(mixedError.offset == position + 3)
    }

    @Test(
        "boundary code points are valid UTF-8",
        arguments: [
            [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
            [0xEF, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0x7F],
        ] as [[UInt8]])
    func boundaryCodePoints(sequence: [UInt8]) throws {
        let value = try JSONParser.parse([0x22] + sequence + [0x22])
        let expected = String(decoding: sequence, as: UTF8.self)
        #expect(value == .string(expected))
        #expect(Array(expected.utf8) == sequence)
    }
}

// MARK: - Depth

@Suite("JSONParser: nesting depth")
struct JSONParserDepthTests {
    @Test("the default limit is 64")
    func defaultLimit() {
        #expect(JSONParser.defaultMaximumDepth == 64)
    }

    @Test("64 nested arrays parse; 65 are .tooDeep")
    func arrays() throws {
        var value = try JSONParser.parse(nestedArrays(64))
        var depth = 0
        while case .array(let elements) = value {
            depth += 1
            guard let first = elements.first else { break }
            value = first
        }
        #expect(depth == 64)
        #expect(parseFailure(nestedArrays(64, inner: "1")) == nil)
        #expect(parseFailure(nestedArrays(65))?.kind == .tooDeep)
        #expect(parseFailure(nestedArrays(65, inner: "1"))?.kind == .tooDeep)
    }

    @Test("64 nested objects parse; 65 are .tooDeep")
    func objects() {
        #expect(parseFailure(nestedObjects(64)) == nil)
        #expect(parseFailure(nestedObjects(65))?.kind == .tooDeep)
    }

    @Test("64 mixed arrays/objects parse; 65 are .tooDeep")
    func mixed() {
        #expect(parseFailure(nestedMixed(64)) == nil)
        #expect(parseFailure(nestedMixed(65))?.kind == .tooDeep)
        // Object outermost this time.
        let objectFirst64 = #"{"k":"# + nestedMixed(63) + "}"
        let objectFirst65 = #"{"k":"# + nestedMixed(64) + "}"
        #expect(parseFailure(objectFirst64) == nil)
        #expect(parseFailure(objectFirst65)?.kind == .tooDeep)
    }

    @Test("depth counts nesting, not siblings")
    func siblings() {
        let wide = "[" + Array(repeating: nestedArrays(63), count: 500).joined(separator: ",") + "]"
        #expect(parseFailure(wide) == nil)
        let oneTooDeep = "[" + nestedArrays(63) + "," + nestedArrays(64) + "]"
        #expect(parseFailure(oneTooDeep)?.kind == .tooDeep)
    }

    @Test("very deep input (even unterminated) is .tooDeep, without exhausting the stack")
    func veryDeep() {
        #expect(parseFailure(String(repeating: "[", count: 100_000))?.kind == .tooDeep)
        #expect(parseFailure(nestedArrays(100_000))?.kind == .tooDeep)
        #expect(parseFailure(String(repeating: #"{"a":"#, count: 100_000))?.kind == .tooDeep)
    }

    @Test("a custom maximumDepth is honoured")
    func customDepth() {
        #expect(parseFailure(nestedArrays(3), maximumDepth: 3) == nil)
        #expect(parseFailure(nestedArrays(4), maximumDepth: 3)?.kind == .tooDeep)
        #expect(parseFailure("1", maximumDepth: 0) == nil)
        #expect(parseFailure("[]", maximumDepth: 0)?.kind == .tooDeep)
        #expect(parseFailure(nestedArrays(100), maximumDepth: 100) == nil)
    }
}

// MARK: - Objects: duplicates, order, white space

@Suite("JSONParser: objects and white space")
struct JSONParserObjectTests {
    @Test("a repeated key keeps its last value, in its first place")
    func duplicateKeys() throws {
        let value = try JSONParser.parse(#"{"a":1,"b":2,"a":3}"#)
        let object = try #require(value.objectValue)
        #expect(object.count == 2)
        #expect(object.orderedKeys == ["a", "b"])
        #expect(object["a"] == .integer(3))
        #expect(object["b"] == .integer(2))
        #expect(JSONWriter.string(value) == #"{"a":3,"b":2}"#)

        let triple = try JSONParser.parse(#"{"x":1,"x":"two","x":[3]}"#)
        #expect(triple.objectValue?.count == 1)
        #expect(triple["x"] == .array([.integer(3)]))
    }

    @Test("duplicates are handled the same in objects with more than 16 keys", arguments: [20, 40, 100])
    func duplicateKeysLargeObject(keyCount: Int) throws {
        var members = (0..<keyCount).map { #""k\#($0)":\#($0)"# }
        // Repeat an early key (stored before the 16th), a key right at the boundary, and a late one.
        members.append(#""k3":"early""#)
        members.append(#""k15":"boundary""#)
        members.append(#""k16":"after""#)
        members.append(#""k\#(keyCount - 1)":"late""#)
        members.append(#""k3":"early again""#)
        let value = try JSONParser.parse("{" + members.joined(separator: ",") + "}")
        let object = try #require(value.objectValue)
        #expect(object.count == keyCount)
        #expect(object.orderedKeys == (0..<keyCount).map { "k\($0)" })
        #expect(object["k3"] == .string("early again"))
        #expect(object["k15"] == .string("boundary"))
        #expect(object["k16"] == .string("after"))
        #expect(object["k\(keyCount - 1)"] == .string("late"))
        #expect(object["k0"] == .integer(0))
        #expect(object["k10"] == .integer(10))
    }

    @Test("a duplicate whose first occurrence was among the first 16 keys is found after the switch to hashing")
    func duplicateAcrossTheSwitch() throws {
        // Duplicate inside the first 16 keys, then more keys, then the same key again.
        var members = [#""a":1"#, #""a":2"#]
        members += (0..<20).map { #""m\#($0)":true"# }
        members.append(#""a":3"#)
        let value = try JSONParser.parse("{" + members.joined(separator: ",") + "}")
        let object = try #require(value.objectValue)
        #expect(object.count == 21)
        #expect(object.orderedKeys.first == "a")
        #expect(object["a"] == .integer(3))
        #expect(object.orderedKeys.filter { $0 == "a" }.count == 1)
    }

    @Test("member order is kept as written")
    func memberOrder() throws {
        let keys = (0..<50).map { "key\((($0 * 37) % 50))" }
        let text = "{" + keys.map { #""\#($0)":null"# }.joined(separator: ",") + "}"
        let value = try JSONParser.parse(text)
        #expect(value.objectValue?.orderedKeys == keys)
        #expect(JSONWriter.string(value) == text)
    }

    @Test("white space (space, tab, CR, LF) is allowed around every token")
    func whitespace() throws {
        let text = " \t\r\n[ \t1 ,\n{ \"a\" :\r\n2 , \"b\"\t:\t[ ] } , \"s\" , true ,\nnull ]\n\t\r "
        let expected: JSONValue = .array([
            .integer(1), .object(JSONObject([("a", .integer(2)), ("b", .array([]))])), .string("s"), .bool(true), .null,
        ])
        #expect(try JSONParser.parse(text) == expected)
        #expect(try JSONParser.parse("\n\n  42  \n") == .integer(42))
        #expect(try JSONParser.parse("{ }") == .object(JSONObject()))
        #expect(try JSONParser.parse("[ ]") == .array([]))
    }

    @Test("white space inside strings is kept verbatim")
    func whitespaceInStrings() throws {
        #expect(try JSONParser.parse(#""  a  b  ""#) == .string("  a  b  "))
    }
}

// MARK: - Literals, number conversion, member names

@Suite("JSONParser: literals and numbers in context")
struct JSONParserContextTests {
    // Literals after the first byte once failed a bounds check that compared against the literal's own length.
    @Test(
        "true, false and null parse anywhere, not only at the start of the input",
        arguments: [
            (" true", JSONValue.bool(true)), ("\nnull", .null), ("[true]", .array([.bool(true)])),
            (#"{"a":null,"b":false}"#, ["a": .null, "b": .bool(false)]),
            ("[null,true,false]", .array([.null, .bool(true), .bool(false)])),
        ] as [(String, JSONValue)])
    func literalsInContext(text: String, expected: JSONValue) throws {
        #expect(try JSONParser.parse(text) == expected)
    }

    @Test("truncated literals at the end of the input are .syntax, wherever they start")
    func truncatedLiterals() {
        for text in ["tru", "[tru", "[1,fals", #"{"a":nul"#, " n", "[t"] {
            #expect(parseFailure(text)?.kind == .syntax, "\(text)")
        }
    }

    @Test("decimal numbers convert exactly as the standard library does", arguments: [1, 2, 3, 4] as [UInt64])
    func numbersMatchStandardLibrary(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let digits = Array("0123456789")
        for _ in 0..<2_000 {
            var text = Bool.random(using: &rng) ? "-" : ""
            let integerDigits = Int.random(in: 1...20, using: &rng)
            text.append(Int.random(in: 0...3, using: &rng) == 0 ? "0" : String(digits[Int.random(in: 1...9, using: &rng)]))
            if text.last != "0" {
                for _ in 1..<integerDigits { text.append(digits[Int.random(in: 0...9, using: &rng)]) }
            }
            let fractionDigits = Int.random(in: 0...25, using: &rng)
            if fractionDigits > 0 || Bool.random(using: &rng) {
                text.append(".")
                for _ in 0..<max(1, fractionDigits) { text.append(digits[Int.random(in: 0...9, using: &rng)]) }
            }
            if Int.random(in: 0...3, using: &rng) == 0 {
                text.append(Bool.random(using: &rng) ? "e" : "E")
                text.append(["", "+", "-"][Int.random(in: 0...2, using: &rng)])
                text.append(String(Int.random(in: 0...330, using: &rng)))
            }
            let expected = try #require(Double(text))
            let value = try JSONParser.parse(text)
            switch value {
            case .integer(let integer):
                #expect(Int64(text) == integer, "\(text)")
            case .number(let number):
                #expect(number.bitPattern == expected.bitPattern, "\(text): got \(number), expected \(expected)")
            default:
                Issue.record("\(text) parsed as \(value)")
            }
        }
    }

    @Test(
        "hard decimal conversions are correctly rounded",
        arguments: [
            "0.1", "0.2", "0.3", "0.7", "1.1", "2.675", "123.456", "0.000001", "9007199254740993.0",
            "9007199254740992.5", "0.30000000000000004", "1.7976931348623157", "4503599627370497.5",
            "0.1000000000000000055511151231257827", "123456789012345678.9", "1.00000000000000011102230246251565",
            "2.2250738585072011e-308", "0.0000000000000000000000000001", "-0.0000001", "99999999999999999999.5",
        ])
    func hardConversions(text: String) throws {
        let expected = try #require(Double(text))
        guard case .number(let number) = try JSONParser.parse(text) else {
            Issue.record("\(text) is not a .number")
            return
        }
        #expect(number.bitPattern == expected.bitPattern, "\(text): got \(number), expected \(expected)")
    }

    @Test(
        "envelope words and their near misses decode to exactly their text",
        arguments: [
            "jsonrpc", "2.0", "id", "method", "params", "result", "error", "jsonrpC", "jsonrp", "2.1", "2.00", "iD",
            "ids", "i", "methoD", "paramz", "resulT", "errors", "erro", "", "x", "jsonrpc ", " id",
        ])
    func envelopeWords(word: String) throws {
        #expect(try JSONParser.parse("\"" + word + "\"") == .string(word))
        let object = try JSONParser.parse(#"{""# + word + #"":""# + word + #""}"#)
        #expect(object.objectValue?.orderedKeys == [word])
        #expect(object[word] == .string(word))
    }

    @Test("an empty buffer without a base address is .syntax, and the decoder and framer cope with it")
    func emptyNilBuffer() {
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        do {
            _ = try JSONParser.parse(empty)
            Issue.record("an empty buffer parsed")
        } catch {
            #expect(error.kind == .syntax)
        }
        #expect(MessageDecoder().decode(empty).rejection?.reason == "invalidJSON")
        var framer = LineFramer(maximumLineBytes: 10)
        var count = 0
        framer.feed(empty) { _ in count += 1 }
        framer.finish { _ in count += 1 }
        #expect(count == 0)
    }
}
