import Testing

@testable import Protocol

// Every example of the JSON-RPC 2.0 specification, section 7 ("Examples"), as the decoder sees it, and
// as a minimal server built from MessageDecoder + MessageEncoder answers it.

/// One example: what the client sends and what the specification says comes back (`nil`: nothing).
struct SpecExample: Sendable, CustomTestStringConvertible {
    let name: String
    let request: String
    let response: String?
    let decoded: IncomingMessage

    var testDescription: String { name }
}

let specExamples: [SpecExample] = [
    SpecExample(
        name: "positional parameters (1)",
        request: #"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#,
        response: #"{"jsonrpc": "2.0", "result": 19, "id": 1}"#,
        decoded: .single(.request(Request(
            id: .integer(1), method: "subtract", params: .byPosition([.integer(42), .integer(23)]))))),
    SpecExample(
        name: "positional parameters (2)",
        request: #"{"jsonrpc": "2.0", "method": "subtract", "params": [23, 42], "id": 2}"#,
        response: #"{"jsonrpc": "2.0", "result": -19, "id": 2}"#,
        decoded: .single(.request(Request(
            id: .integer(2), method: "subtract", params: .byPosition([.integer(23), .integer(42)]))))),
    SpecExample(
        name: "named parameters (1)",
        request: #"{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}"#,
        response: #"{"jsonrpc": "2.0", "result": 19, "id": 3}"#,
        decoded: .single(.request(Request(
            id: .integer(3), method: "subtract",
            params: .byName(JSONObject([("subtrahend", .integer(23)), ("minuend", .integer(42))])))))),
    SpecExample(
        name: "named parameters (2)",
        request: #"{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}"#,
        response: #"{"jsonrpc": "2.0", "result": 19, "id": 4}"#,
        decoded: .single(.request(Request(
            id: .integer(4), method: "subtract",
            params: .byName(JSONObject([("minuend", .integer(42)), ("subtrahend", .integer(23))])))))),
    SpecExample(
        name: "notification (1)",
        request: #"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#,
        response: nil,
        decoded: .single(.request(Request(
            id: nil, method: "update",
            params: .byPosition([.integer(1), .integer(2), .integer(3), .integer(4), .integer(5)]))))),
    SpecExample(
        name: "notification (2)",
        request: #"{"jsonrpc": "2.0", "method": "foobar"}"#,
        response: nil,
        decoded: .single(.request(Request(id: nil, method: "foobar")))),
    SpecExample(
        name: "non-existent method",
        request: #"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"#,
        response: #"{"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "1"}"#,
        decoded: .single(.request(Request(id: .string("1"), method: "foobar")))),
    SpecExample(
        name: "invalid JSON",
        request: #"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#,
        response: #"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}"#,
        decoded: .rejected(.parseError(reason: "invalidJSON"))),  // `detail` is compared separately
    SpecExample(
        name: "invalid Request object",
        request: #"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#,
        response: #"{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}"#,
        decoded: .single(.invalid(.null, .invalidRequest(reason: "invalidMethod")))),
    SpecExample(
        name: "batch, invalid JSON",
        request: """
            [
              {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
              {"jsonrpc": "2.0", "method"
            ]
            """,
        response: #"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}"#,
        decoded: .rejected(.parseError(reason: "invalidJSON"))),
    SpecExample(
        name: "empty array",
        request: "[]",
        response: #"{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}"#,
        decoded: .rejected(.invalidRequest(reason: "emptyBatch"))),
    SpecExample(
        name: "invalid batch (but not empty)",
        request: "[1]",
        response: #"[{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}]"#,
        decoded: .batch([.invalid(.null, .invalidRequest(reason: "notAnObject"))])),
    SpecExample(
        name: "invalid batch",
        request: "[1,2,3]",
        response: """
            [
              {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},
              {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},
              {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}
            ]
            """,
        decoded: .batch(Array(repeating: .invalid(.null, .invalidRequest(reason: "notAnObject")), count: 3))),
    SpecExample(
        name: "batch",
        request: """
            [
                {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
                {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
                {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},
                {"foo": "boo"},
                {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
                {"jsonrpc": "2.0", "method": "get_data", "id": "9"}
            ]
            """,
        response: """
            [
                {"jsonrpc": "2.0", "result": 7, "id": "1"},
                {"jsonrpc": "2.0", "result": 19, "id": "2"},
                {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},
                {"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "5"},
                {"jsonrpc": "2.0", "result": ["hello", 5], "id": "9"}
            ]
            """,
        decoded: .batch([
            .request(Request(
                id: .string("1"), method: "sum", params: .byPosition([.integer(1), .integer(2), .integer(4)]))),
            .request(Request(id: nil, method: "notify_hello", params: .byPosition([.integer(7)]))),
            .request(Request(id: .string("2"), method: "subtract", params: .byPosition([.integer(42), .integer(23)]))),
            .invalid(.null, .invalidRequest(reason: "invalidVersion")),
            .request(Request(
                id: .string("5"), method: "foo.get", params: .byName(JSONObject([("name", .string("myself"))])))),
            .request(Request(id: .string("9"), method: "get_data")),
        ])),
    SpecExample(
        name: "batch of notifications only",
        request: """
            [
                {"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]},
                {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}
            ]
            """,
        response: nil,
        decoded: .batch([
            .request(Request(
                id: nil, method: "notify_sum", params: .byPosition([.integer(1), .integer(2), .integer(4)]))),
            .request(Request(id: nil, method: "notify_hello", params: .byPosition([.integer(7)]))),
        ])),
]

// MARK: - A minimal server for the examples' methods

/// Answers one line the way the specification's examples do, using only the Protocol module.
func specServerRespond(to line: [UInt8]) -> [UInt8]? {
    var output: [UInt8] = []
    switch line.withUnsafeBytes({ MessageDecoder().decode($0) }) {
    case .rejected(let error):
        var writer = JSONWriter()
        writer.writeResponse(id: .null, error: error)
        output = writer.bytes
    case .single(let call):
        guard let answer = specAnswer(call) else { return nil }
        output = answer
    case .batch(let calls):
        let answers = calls.compactMap(specAnswer)
        if answers.isEmpty { return nil }
        output = [UInt8(ascii: "[")]
        for (index, answer) in answers.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output += answer
        }
        output.append(UInt8(ascii: "]"))
    }
    return output
}

private func specAnswer(_ call: IncomingCall) -> [UInt8]? {
    var writer = JSONWriter()
    switch call {
    case .response:
        return nil
    case .invalid(let id, let error):
        writer.writeResponse(id: id, error: error)
    case .request(let request):
        guard let id = request.id else { return nil }  // notifications are never answered
        switch specDispatch(request) {
        case .success(let result): writer.writeResponse(id: id, result: result)
        case .failure(let error): writer.writeResponse(id: id, error: error)
        }
    }
    return writer.bytes
}

private func specDispatch(_ request: Request) -> Result<JSONValue, ResponseError> {
    switch (request.method, request.params) {
    case ("subtract", .byPosition(let values)) where values.count == 2:
        guard let a = values[0].integerValue, let b = values[1].integerValue else { break }
        return .success(.integer(a - b))
    case ("subtract", .byName(let named)):
        guard let a = named["minuend"]?.integerValue, let b = named["subtrahend"]?.integerValue else { break }
        return .success(.integer(a - b))
    case ("sum", .byPosition(let values)):
        return .success(.integer(values.compactMap(\.integerValue).reduce(0, +)))
    case ("get_data", .none):
        return .success(.array([.string("hello"), .integer(5)]))
    case ("update", _), ("notify_hello", _), ("notify_sum", _):
        return .success(.null)
    default:
        return .failure(.methodNotFound(request.method))
    }
    return .failure(.invalidParams(field: "params", expected: "integers"))
}

/// `value` without the `data` member of error objects (the specification's examples have none).
func withoutErrorData(_ value: JSONValue) -> JSONValue {
    switch value {
    case .array(let elements):
        return .array(elements.map(withoutErrorData))
    case .object(var object):
        if case .object(var error)? = object["error"] {
            error["data"] = nil
            object["error"] = .object(error)
        }
        return .object(object)
    default:
        return value
    }
}

// MARK: - Tests

@Suite("JSON-RPC 2.0 specification examples")
struct JSONRPCSpecExamplesTests {
    @Test("the decoder classifies each example", arguments: specExamples)
    func decoded(example: SpecExample) {
        let message = decodeLine(example.request)
        if case .rejected(let expected) = example.decoded {
            // Parse errors carry a `detail` for logs; compare code, message and reason.
            let error = message.rejection
            #expect(error?.code == expected.code)
            #expect(error?.message == expected.message)
            #expect(error?.reason == expected.reason)
        } else {
            #expect(message == example.decoded)
        }
    }

    @Test("the answer has the specification's code, message, id and result", arguments: specExamples)
    func answered(example: SpecExample) throws {
        let output = specServerRespond(to: utf8(example.request))
        guard let expectedText = example.response else {
            #expect(output == nil, "expected no answer, got \(output.map { String(decoding: $0, as: UTF8.self) } ?? "")")
            return
        }
        let bytes = try #require(output)
        #expect(!bytes.contains(0x0A), "an answer is one line")
        let answer = try JSONParser.parse(bytes)
        let expected = try JSONParser.parse(expectedText)
        #expect(withoutErrorData(answer) == expected)
        // Compact and in envelope order: "jsonrpc" first, then "id", then "result"/"error".
        for response in answer.arrayValue ?? [answer] {
            let keys = try #require(response.objectValue?.orderedKeys)
            #expect(keys.count == 3)
            #expect(keys.first == "jsonrpc")
            #expect(keys.dropFirst().first == "id")
        }
        #expect(JSONWriter.bytes(answer) == bytes)
    }

    @Test("the answers, written exactly")
    func exactBytes() {
        func answer(_ text: String) -> String? {
            specServerRespond(to: utf8(text)).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(answer(specExamples[0].request) == #"{"jsonrpc":"2.0","id":1,"result":19}"#)
        #expect(answer(specExamples[1].request) == #"{"jsonrpc":"2.0","id":2,"result":-19}"#)
        #expect(answer(specExamples[6].request)
            == #"{"jsonrpc":"2.0","id":"1","error":{"code":-32601,"message":"Method not found","data":{"method":"foobar"}}}"#)
        #expect(answer(specExamples[8].request)
            == #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request","data":{"reason":"invalidMethod"}}}"#)
        #expect(answer("[]")
            == #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request","data":{"reason":"emptyBatch"}}}"#)
        #expect(answer("[1]")
            == #"[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request","data":{"reason":"notAnObject"}}}]"#)
    }

    @Test("the specification's responses, read back, are responses (nothing to answer)")
    func responsesAreRecognised() throws {
        #expect(decodeLine(#"{"jsonrpc": "2.0", "result": 19, "id": 1}"#) == .single(.response(.integer(1), result: 19)))
        #expect(decodeLine(#"{"jsonrpc": "2.0", "result": -19, "id": 2}"#) == .single(.response(.integer(2), result: -19)))
        #expect(decodeLine(#"{"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "1"}"#)
            == .single(.response(.string("1"), result: nil)))
        #expect(decodeLine(#"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}"#)
            == .single(.response(.null, result: nil)))
        let batchResponse = try #require(specExamples.first { $0.name == "batch" }?.response)
        #expect(decodeLine(batchResponse) == .batch([
            .response(.string("1"), result: 7), .response(.string("2"), result: 19), .response(.null, result: nil),
            .response(.string("5"), result: nil), .response(.string("9"), result: ["hello", 5]),
        ]))
        #expect(specServerRespond(to: utf8(batchResponse)) == nil)
    }

    @Test("all examples as one stream through LineFramer, in random splits", arguments: [11, 22, 33] as [UInt64])
    func throughTheFramer(seed: UInt64) throws {
        // One message per line: the multi-line examples are folded onto one line (JSON white space).
        var stream: [UInt8] = []
        var expected: [JSONValue] = []
        for (index, example) in specExamples.enumerated() {
            let line = example.request.replacingNewlines()
            stream += utf8(line) + (index % 2 == 0 ? utf8("\r\n") : utf8("\n"))
            if index % 3 == 0 { stream += utf8("\n  \n") }  // blank lines in between are ignored
            if let response = example.response { expected.append(try JSONParser.parse(response)) }
        }
        var framer = LineFramer(maximumLineBytes: 1 << 20)
        var answers: [JSONValue] = []
        var failures: [String] = []
        let handle: (LineFramer.Event) -> Void = { event in
            guard case .line(let raw) = event else {
                failures.append("unexpected tooLong")
                return
            }
            guard let answer = specServerRespond(to: Array(raw)) else { return }
            do {
                answers.append(withoutErrorData(try JSONParser.parse(answer)))
            } catch {
                failures.append("answer is not JSON: \(error)")
            }
        }
        for chunk in randomChunks(stream, seed: seed, maximumChunk: 50) {
            framer.feed(chunk, handle)
        }
        framer.finish(handle)
        #expect(failures.isEmpty, "\(failures)")
        #expect(answers == expected)
    }
}

extension String {
    /// The text with its line breaks turned into spaces.
    fileprivate func replacingNewlines() -> String {
        String(map { $0 == "\n" ? " " : $0 })
    }
}
