import Testing

@testable import Protocol

@Suite("MessageDecoder")
struct MessageDecoderTests {
    // MARK: Ids

    @Test(
        "string, integer and null ids are kept",
        arguments: [
            (#""abc""#, RequestID.string("abc")),
            (#""""#, .string("")),
            (#""1""#, .string("1")),
            (#""é😀\n""#, .string("é😀\n")),
            ("0", .integer(0)),
            ("1", .integer(1)),
            ("-5", .integer(-5)),
            ("9223372036854775807", .integer(Int64.max)),
            ("-9223372036854775808", .integer(Int64.min)),
            ("null", .null),
        ] as [(String, RequestID)])
    func validIds(idText: String, expected: RequestID) {
        let line = #"{"jsonrpc":"2.0","method":"m","id":"# + idText + "}"
        let message = decodeLine(line)
        #expect(message == .single(.request(Request(id: expected, method: "m"))))
        if case .single(.request(let request)) = message {
            #expect(!request.isNotification)
        }
    }

    @Test("an absent id makes a notification")
    func notification() throws {
        let message = decodeLine(#"{"jsonrpc":"2.0","method":"note"}"#)
        #expect(message == .single(.request(Request(id: nil, method: "note"))))
        guard case .single(.request(let request)) = message else {
            Issue.record("not a request: \(message)")
            return
        }
        #expect(request.isNotification)
        #expect(request.id == nil)
    }

    @Test("an id of null is a request, not a notification")
    func nullIdIsNotNotification() {
        guard case .single(.request(let request)) = decodeLine(#"{"jsonrpc":"2.0","method":"m","id":null}"#) else {
            Issue.record("not a request")
            return
        }
        #expect(request.id == .null)
        #expect(!request.isNotification)
    }

    @Test(
        "a fractional, boolean, array or object id is invalid, answered with id null",
        arguments: ["1.5", "-0.5", "true", "false", "[]", "[1]", "{}", #"{"id":1}"#, "9223372036854775808"])
    func invalidIds(idText: String) {
        let line = #"{"jsonrpc":"2.0","method":"m","id":"# + idText + "}"
        #expect(decodeLine(line) == .single(.invalid(.null, .invalidRequest(reason: "invalidId"))))
    }

    // MARK: jsonrpc member

    @Test(
        "a missing or wrong jsonrpc member is an invalid request, under the recovered id",
        arguments: [
            #"{"method":"m","id":7}"#,
            #"{"jsonrpc":"1.0","method":"m","id":7}"#,
            #"{"jsonrpc":2.0,"method":"m","id":7}"#,
            #"{"jsonrpc":2,"method":"m","id":7}"#,
            #"{"jsonrpc":"2","method":"m","id":7}"#,
            #"{"jsonrpc":"2.0 ","method":"m","id":7}"#,
            #"{"jsonrpc":" 2.0","method":"m","id":7}"#,
            #"{"jsonrpc":"2.00","method":"m","id":7}"#,
            #"{"jsonrpc":null,"method":"m","id":7}"#,
            #"{"jsonrpc":["2.0"],"method":"m","id":7}"#,
            #"{"JSONRPC":"2.0","method":"m","id":7}"#,
        ])
    func wrongVersionWithIntegerId(line: String) {
        let message = decodeLine(line)
        #expect(message == .single(.invalid(.integer(7), .invalidRequest(reason: "invalidVersion"))))
    }

    @Test("the recovered id may be a string or null too")
    func wrongVersionOtherIds() {
        #expect(decodeLine(#"{"jsonrpc":"1.0","method":"m","id":"abc"}"#)
            == .single(.invalid(.string("abc"), .invalidRequest(reason: "invalidVersion"))))
        #expect(decodeLine(#"{"jsonrpc":"1.0","method":"m","id":null}"#)
            == .single(.invalid(.null, .invalidRequest(reason: "invalidVersion"))))
        #expect(decodeLine(#"{"jsonrpc":"1.0","method":"m"}"#)
            == .single(.invalid(.null, .invalidRequest(reason: "invalidVersion"))))
    }

    // MARK: method

    @Test(
        "a method that is not a string is an invalid request under the recovered id",
        arguments: ["1", "null", "true", "[]", #"["m"]"#, #"{"m":1}"#, "1.5"])
    func methodNotString(methodText: String) {
        let line = #"{"jsonrpc":"2.0","method":"# + methodText + #","id":"x"}"#
        #expect(decodeLine(line) == .single(.invalid(.string("x"), .invalidRequest(reason: "invalidMethod"))))
    }

    @Test("a missing method (and no result/error) is an invalid request")
    func missingMethod() {
        #expect(decodeLine(#"{"jsonrpc":"2.0","id":3}"#)
            == .single(.invalid(.integer(3), .invalidRequest(reason: "missingMethod"))))
        #expect(decodeLine(#"{"jsonrpc":"2.0","params":[]}"#)
            == .single(.invalid(.null, .invalidRequest(reason: "missingMethod"))))
        // result/error without an id is not a usable response either.
        #expect(decodeLine(#"{"jsonrpc":"2.0","result":1}"#)
            == .single(.invalid(.null, .invalidRequest(reason: "missingMethod"))))
    }

    @Test("any string is accepted as a method name (routing is the server's business)")
    func methodNames() {
        for method in ["", "rpc.discover", "a.b.c", "Привет", "with space", "x\ny"] {
            let line = JSONWriter.string(.object(JSONObject([
                ("jsonrpc", .string("2.0")), ("method", .string(method)), ("id", .integer(1)),
            ])))
            #expect(decodeLine(line) == .single(.request(Request(id: .integer(1), method: method))))
        }
    }

    // MARK: params

    @Test("params absent, an object, or an array")
    func params() {
        #expect(decodeLine(#"{"jsonrpc":"2.0","method":"m","id":1}"#)
            == .single(.request(Request(id: .integer(1), method: "m", params: .none))))
        #expect(decodeLine(#"{"jsonrpc":"2.0","method":"m","params":{},"id":1}"#)
            == .single(.request(Request(id: .integer(1), method: "m", params: .byName(JSONObject())))))
        #expect(decodeLine(#"{"jsonrpc":"2.0","method":"m","params":[],"id":1}"#)
            == .single(.request(Request(id: .integer(1), method: "m", params: .byPosition([])))))
        #expect(decodeLine(#"{"jsonrpc":"2.0","method":"m","params":{"b":2,"a":[1]},"id":1}"#)
            == .single(.request(Request(
                id: .integer(1), method: "m",
                params: .byName(JSONObject([("b", .integer(2)), ("a", .array([.integer(1)]))]))))))
        #expect(decodeLine(#"{"jsonrpc":"2.0","method":"m","params":[1,"two",null],"id":1}"#)
            == .single(.request(Request(
                id: .integer(1), method: "m", params: .byPosition([.integer(1), .string("two"), .null])))))
    }

    @Test("named params keep their order")
    func namedParamsOrder() {
        guard case .single(.request(let request)) = decodeLine(#"{"jsonrpc":"2.0","method":"m","params":{"z":1,"a":2,"m":3}}"#),
            case .byName(let named) = request.params
        else {
            Issue.record("not a request with named params")
            return
        }
        #expect(named.orderedKeys == ["z", "a", "m"])
    }

    @Test(
        "params that are neither object nor array are an invalid request",
        arguments: [#""bar""#, "1", "1.5", "true", "false", "null"])
    func invalidParams(paramsText: String) {
        #expect(decodeLine(#"{"jsonrpc":"2.0","method":"m","params":"# + paramsText + #","id":4}"#)
            == .single(.invalid(.integer(4), .invalidRequest(reason: "invalidParams"))))
        // Without an id: still invalid (the specification answers invalid Request objects with id null).
        #expect(decodeLine(#"{"jsonrpc":"2.0","method":"m","params":"# + paramsText + "}")
            == .single(.invalid(.null, .invalidRequest(reason: "invalidParams"))))
    }

    @Test("unknown extra members are ignored")
    func extraMembers() {
        #expect(decodeLine(#"{"jsonrpc":"2.0","method":"m","id":1,"extra":{"x":[1]}}"#)
            == .single(.request(Request(id: .integer(1), method: "m"))))
    }

    @Test("member order does not matter")
    func memberOrder() {
        #expect(decodeLine(#"{"id":1,"params":[2],"method":"m","jsonrpc":"2.0"}"#)
            == .single(.request(Request(id: .integer(1), method: "m", params: .byPosition([.integer(2)])))))
    }

    @Test("a repeated member keeps its last value")
    func repeatedMember() {
        #expect(decodeLine(#"{"jsonrpc":"2.0","method":"a","method":"b","id":1,"id":2}"#)
            == .single(.request(Request(id: .integer(2), method: "b"))))
    }

    // MARK: Non-objects

    @Test(
        "a single value that is not an object is an invalid request with id null",
        arguments: ["1", #""x""#, "null", "true", "1.5"])
    func notAnObject(line: String) {
        #expect(decodeLine(line) == .single(.invalid(.null, .invalidRequest(reason: "notAnObject"))))
    }

    // MARK: Responses

    @Test("response objects (result or error, no method, with an id) are recognised")
    func responses() {
        #expect(decodeLine(#"{"jsonrpc":"2.0","result":19,"id":1}"#) == .single(.response(.integer(1), result: 19)))
        #expect(decodeLine(#"{"jsonrpc":"2.0","result":null,"id":"a"}"#) == .single(.response(.string("a"), result: .null)))
        #expect(decodeLine(#"{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"},"id":"1"}"#)
            == .single(.response(.string("1"), result: nil)))
        #expect(decodeLine(#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}"#)
            == .single(.response(.null, result: nil)))
        #expect(decodeLine(#"[{"jsonrpc":"2.0","result":7,"id":"1"},{"jsonrpc":"2.0","result":19,"id":"2"}]"#)
            == .batch([.response(.string("1"), result: 7), .response(.string("2"), result: 19)]))
    }

    // MARK: Batches

    @Test("a batch decodes each entry on its own")
    func batch() {
        let line = #"[{"jsonrpc":"2.0","method":"a","id":1},{"jsonrpc":"2.0","method":"b"},5,{"jsonrpc":"1.0","id":"x"},{"jsonrpc":"2.0","result":0,"id":9}]"#
        #expect(decodeLine(line) == .batch([
            .request(Request(id: .integer(1), method: "a")),
            .request(Request(id: nil, method: "b")),
            .invalid(.null, .invalidRequest(reason: "notAnObject")),
            .invalid(.string("x"), .invalidRequest(reason: "invalidVersion")),
            .response(.integer(9), result: 0),
        ]))
    }

    @Test("a nested batch entry is not an object")
    func nestedBatch() {
        #expect(decodeLine(#"[[{"jsonrpc":"2.0","method":"a","id":1}]]"#)
            == .batch([.invalid(.null, .invalidRequest(reason: "notAnObject"))]))
    }

    @Test("an empty batch is rejected as a whole")
    func emptyBatch() {
        let message = decodeLine("[]")
        #expect(message == .rejected(.invalidRequest(reason: "emptyBatch")))
        #expect(message.rejection?.code == .invalidRequest)
        #expect(decodeLine(" [ ] ").rejection?.code == .invalidRequest)
    }

    @Test("a batch of 1000 entries is accepted; 1001 is rejected")
    func batchLimit() throws {
        let entry = #"{"jsonrpc":"2.0","method":"m","id":1}"#
        let thousand = "[" + Array(repeating: entry, count: 1000).joined(separator: ",") + "]"
        let calls = try #require(decodeLine(thousand).batchCalls)
        #expect(calls.count == 1000)
        #expect(calls.allSatisfy { $0 == .request(Request(id: .integer(1), method: "m")) })

        let thousandAndOne = "[" + Array(repeating: entry, count: 1001).joined(separator: ",") + "]"
        let rejected = decodeLine(thousandAndOne)
        #expect(rejected == .rejected(.invalidRequest(reason: "batchTooLarge")))
        #expect(rejected.rejection?.code.rawValue == -32600)

        // Entries that are not even objects count the same way.
        #expect(decodeLine("[" + Array(repeating: "1", count: 1001).joined(separator: ",") + "]").rejection?.reason
            == "batchTooLarge")
        #expect(decodeLine("[" + Array(repeating: "1", count: 1000).joined(separator: ",") + "]").batchCalls?.count
            == 1000)
    }

    @Test("the batch limit can be configured")
    func customBatchLimit() {
        let decoder = MessageDecoder(maximumBatchEntries: 2)
        #expect(decoder.maximumBatchEntries == 2)
        #expect(decodeLine("[1,2]", decoder: decoder).batchCalls?.count == 2)
        #expect(decodeLine("[1,2,3]", decoder: decoder) == .rejected(.invalidRequest(reason: "batchTooLarge")))
        #expect(MessageDecoder().maximumBatchEntries == 1000)
    }

    // MARK: Whole-line rejections

    @Test("nesting deeper than 64 is rejected with -32600, reason tooDeep")
    func tooDeep() {
        let deepParams = #"{"jsonrpc":"2.0","method":"m","id":1,"params":"# + nestedArrays(64) + "}"
        let message = decodeLine(deepParams)
        #expect(message == .rejected(.invalidRequest(reason: "tooDeep")))
        #expect(message.rejection?.code == .invalidRequest)
        #expect(message.rejection?.reason == "tooDeep")

        // 64 in all (the request object is level 1) is fine.
        let deepestAllowed = #"{"jsonrpc":"2.0","method":"m","id":1,"params":"# + nestedArrays(63) + "}"
        guard case .single(.request(let request)) = decodeLine(deepestAllowed) else {
            Issue.record("depth 64 was not accepted")
            return
        }
        #expect(request.id == .integer(1))

        #expect(decodeLine(nestedArrays(65)).rejection?.reason == "tooDeep")
        #expect(decodeLine(String(repeating: "[", count: 10_000)).rejection?.reason == "tooDeep")
    }

    @Test(
        "invalid UTF-8 is rejected with -32700, reason invalidUTF8",
        arguments: [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80]] as [[UInt8]])
    func invalidUTF8(sequence: [UInt8]) throws {
        let line = utf8(#"{"jsonrpc":"2.0","method":""#) + sequence + utf8(#"","id":1}"#)
        let error = try #require(decodeLine(line).rejection)
        #expect(error.code == .parseError)
        #expect(error.code.rawValue == -32700)
        #expect(error.reason == "invalidUTF8")
        #expect(error.message == "Parse error")
        #expect(decodeLine(sequence).rejection?.reason == "invalidUTF8")
    }

    @Test(
        "invalid JSON is rejected with -32700, reason invalidJSON",
        arguments: [
            "", "{", #"{"jsonrpc":"2.0","method":"m","id":1"#, #"{"jsonrpc":"2.0","method":"m","id":1,}"#, "[1,]",
            "hello", #"{'jsonrpc':'2.0'}"#, #"{"jsonrpc":"2.0","method":"m","id":01}"#, #"{"a":"\ud800"}"#, "{} {}",
        ])
    func invalidJSON(line: String) throws {
        let error = try #require(decodeLine(line).rejection)
        #expect(error.code == .parseError)
        #expect(error.reason == "invalidJSON")
        #expect(error.message == "Parse error")
        #expect(error.data?["detail"]?.stringValue?.isEmpty == false)
    }

    // MARK: decode(JSONValue)

    @Test("decode(JSONValue) agrees with decoding the bytes")
    func decodeValue() throws {
        let lines = [
            #"{"jsonrpc":"2.0","method":"m","params":[1],"id":1}"#, "[1,2]", "[]", "5",
            #"{"jsonrpc":"2.0","result":1,"id":2}"#,
        ]
        let decoder = MessageDecoder()
        for line in lines {
            #expect(decoder.decode(try JSONParser.parse(line)) == decodeLine(line), "\(line)")
        }
    }

    @Test("MessageDecoder.call validates one object")
    func callDirectly() {
        #expect(MessageDecoder.call(["jsonrpc": "2.0", "method": "x", "id": 3])
            == .request(Request(id: .integer(3), method: "x")))
        #expect(MessageDecoder.call(.array([])) == .invalid(.null, .invalidRequest(reason: "notAnObject")))
    }
}

@Suite("RequestID, ErrorCode and ResponseError")
struct ProtocolTypesTests {
    @Test("RequestID accepts strings, integers and null only")
    func requestID() {
        #expect(RequestID(.string("a")) == .string("a"))
        #expect(RequestID(.integer(-1)) == .integer(-1))
        #expect(RequestID(.null) == .null)
        #expect(RequestID(.number(1.5)) == nil)
        #expect(RequestID(.number(1.0)) == nil)
        #expect(RequestID(.bool(true)) == nil)
        #expect(RequestID(.array([])) == nil)
        #expect(RequestID(.object(JSONObject())) == nil)
        #expect(RequestID.string("a\"b").json == .string("a\"b"))
        #expect(RequestID.integer(5).json == .integer(5))
        #expect(RequestID.null.json == .null)
        #expect(RequestID.string("a\"b").description == #""a\"b""#)
        #expect(RequestID.integer(-5).description == "-5")
        #expect(RequestID.null.description == "null")
    }

    @Test("the standard error codes have the JSON-RPC values")
    func errorCodes() {
        #expect(ErrorCode.parseError.rawValue == -32700)
        #expect(ErrorCode.invalidRequest.rawValue == -32600)
        #expect(ErrorCode.methodNotFound.rawValue == -32601)
        #expect(ErrorCode.invalidParams.rawValue == -32602)
        #expect(ErrorCode.internalError.rawValue == -32603)
        #expect(ErrorCode(rawValue: -32001).description == "-32001")
        #expect(ErrorCode(rawValue: -32600) == .invalidRequest)
    }

    @Test("ResponseError factories fill code, message and data")
    func responseErrors() {
        #expect(ResponseError.parseError(reason: "invalidJSON").json
            == ["code": -32700, "message": "Parse error", "data": ["reason": "invalidJSON"]])
        #expect(ResponseError.parseError(reason: "invalidUTF8", detail: "at 3").json
            == ["code": -32700, "message": "Parse error", "data": ["reason": "invalidUTF8", "detail": "at 3"]])
        #expect(ResponseError.invalidRequest().json == ["code": -32600, "message": "Invalid Request"])
        #expect(ResponseError.invalidRequest().data == nil)
        #expect(ResponseError.invalidRequest(reason: "emptyBatch").json
            == ["code": -32600, "message": "Invalid Request", "data": ["reason": "emptyBatch"]])
        #expect(ResponseError.methodNotFound("foo").json
            == ["code": -32601, "message": "Method not found", "data": ["method": "foo"]])
        #expect(ResponseError.invalidParams(field: "title", expected: "string").json
            == ["code": -32602, "message": "Invalid params", "data": ["field": "title", "expected": "string"]])
        #expect(ResponseError.internalError().json == ["code": -32603, "message": "Internal error"])
        #expect(ResponseError(code: ErrorCode(rawValue: -32001), message: "Not found", data: ["reason": "notFound"]).json
            == ["code": -32001, "message": "Not found", "data": ["reason": "notFound"]])
    }
}
