import Testing

@testable import Protocol

private func written(_ body: (inout JSONWriter) -> Void) -> String {
    var writer = JSONWriter()
    body(&writer)
    return String(decoding: writer.bytes, as: UTF8.self)
}

@Suite("MessageEncoder")
struct MessageEncoderTests {
    @Test(
        "writeResponse(id:result:) writes the exact envelope",
        arguments: [
            (RequestID.integer(1), JSONValue.object(JSONObject()), #"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            (.integer(1), .integer(19), #"{"jsonrpc":"2.0","id":1,"result":19}"#),
            (.integer(-7), .null, #"{"jsonrpc":"2.0","id":-7,"result":null}"#),
            (.string("abc"), .bool(true), #"{"jsonrpc":"2.0","id":"abc","result":true}"#),
            (.string(""), .string("x"), #"{"jsonrpc":"2.0","id":"","result":"x"}"#),
            (.string("a\"b\n"), .array([]), #"{"jsonrpc":"2.0","id":"a\"b\n","result":[]}"#),
            (.null, .array([.string("hello"), .integer(5)]), #"{"jsonrpc":"2.0","id":null,"result":["hello",5]}"#),
            (.integer(Int64.min), .number(2.5), #"{"jsonrpc":"2.0","id":-9223372036854775808,"result":2.5}"#),
            (.integer(Int64.max), .number(.nan), #"{"jsonrpc":"2.0","id":9223372036854775807,"result":null}"#),
            (.integer(2), .object(JSONObject([("b", .integer(1)), ("a", .object(JSONObject([("c", .array([.null]))])))])),
             #"{"jsonrpc":"2.0","id":2,"result":{"b":1,"a":{"c":[null]}}}"#),
        ] as [(RequestID, JSONValue, String)])
    func result(id: RequestID, result: JSONValue, expected: String) throws {
        #expect(written { $0.writeResponse(id: id, result: result) } == expected)
        // And a client reading it back sees a response to that id, with the result as written.
        let readBack = try JSONParser.parse(written { $0.write(result) })
        #expect(decodeLine(expected) == .single(.response(id, result: readBack)))
    }

    @Test(
        "writeResponse(id:error:) writes the exact envelope",
        arguments: [
            (RequestID.null, ResponseError.invalidRequest(),
             #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}"#),
            (.null, .invalidRequest(reason: "tooDeep"),
             #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request","data":{"reason":"tooDeep"}}}"#),
            (.null, .parseError(reason: "invalidJSON", detail: "unexpected character at byte 3"),
             #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error","data":{"reason":"invalidJSON","detail":"unexpected character at byte 3"}}}"#),
            (.string("1"), .methodNotFound("foobar"),
             #"{"jsonrpc":"2.0","id":"1","error":{"code":-32601,"message":"Method not found","data":{"method":"foobar"}}}"#),
            (.integer(3), .invalidParams(field: "note.title", expected: "string"),
             #"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params","data":{"field":"note.title","expected":"string"}}}"#),
            (.integer(4), .internalError(),
             #"{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"Internal error"}}"#),
            (.integer(5), ResponseError(code: ErrorCode(rawValue: -32006), message: "Конфликт \"ревизий\"",
                                        data: ["reason": "revisionConflict", "current": 12]),
             #"{"jsonrpc":"2.0","id":5,"error":{"code":-32006,"message":"Конфликт \"ревизий\"","data":{"reason":"revisionConflict","current":12}}}"#),
            (.integer(6), ResponseError(code: .invalidRequest, message: "x", data: .null),
             #"{"jsonrpc":"2.0","id":6,"error":{"code":-32600,"message":"x","data":null}}"#),
        ] as [(RequestID, ResponseError, String)])
    func error(id: RequestID, error: ResponseError, expected: String) {
        #expect(written { $0.writeResponse(id: id, error: error) } == expected)
        #expect(decodeLine(expected) == .single(.response(id, result: nil)))
    }

    @Test("writeRequest writes the exact envelope of the server's own request")
    func serverRequest() {
        #expect(written { $0.writeRequest(id: .string("satchel-roots-1"), method: "roots/list") }
            == #"{"jsonrpc":"2.0","id":"satchel-roots-1","method":"roots/list"}"#)
        #expect(written { $0.writeRequest(id: .integer(2), method: "x", params: ["a": 1]) }
            == #"{"jsonrpc":"2.0","id":2,"method":"x","params":{"a":1}}"#)
    }

    @Test("writeNotification writes the exact envelope, with and without params")
    func notification() {
        #expect(written { $0.writeNotification(method: "ping", params: nil) } == #"{"jsonrpc":"2.0","method":"ping"}"#)
        #expect(written { $0.writeNotification(method: "log", params: ["a": 1]) }
            == #"{"jsonrpc":"2.0","method":"log","params":{"a":1}}"#)
        #expect(written { $0.writeNotification(method: "progress", params: [1, "two", nil]) }
            == #"{"jsonrpc":"2.0","method":"progress","params":[1,"two",null]}"#)
        #expect(written { $0.writeNotification(method: "a\"b\\c\n", params: .object(JSONObject())) }
            == #"{"jsonrpc":"2.0","method":"a\"b\\c\n","params":{}}"#)
        #expect(written { $0.writeNotification(method: "é/😀", params: nil) } == #"{"jsonrpc":"2.0","method":"é/😀"}"#)
    }

    @Test("a notification the server writes decodes as a notification")
    func notificationRoundTrip() {
        let text = written { $0.writeNotification(method: "changed", params: ["ids": [1, 2]]) }
        #expect(decodeLine(text) == .single(.request(Request(
            id: nil, method: "changed", params: .byName(JSONObject([("ids", .array([.integer(1), .integer(2)]))]))))))
    }

    @Test("several messages in one writer are framed by the caller's newlines, and never contain one")
    func severalMessages() {
        var writer = JSONWriter()
        writer.writeResponse(id: .integer(1), result: .string("multi\nline\r\ntext"))
        writer.writeByte(0x0A)
        writer.writeNotification(method: "n", params: ["text": "a\nb"])
        writer.writeByte(0x0A)
        writer.writeResponse(id: .string("x"), error: .invalidRequest(reason: "why\n"))
        writer.writeByte(0x0A)
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text == """
            {"jsonrpc":"2.0","id":1,"result":"multi\\nline\\r\\ntext"}
            {"jsonrpc":"2.0","method":"n","params":{"text":"a\\nb"}}
            {"jsonrpc":"2.0","id":"x","error":{"code":-32600,"message":"Invalid Request","data":{"reason":"why\\n"}}}

            """)
        let lines = runFramer([writer.bytes], limit: 1000)
        #expect(lines.count == 3)

        writer.removeAll()
        writer.writeResponse(id: .integer(2), result: .null)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"jsonrpc":"2.0","id":2,"result":null}"#)
    }
}
