import Testing

@testable import Protocol

@Suite("JSONValue and JSONObject")
struct JSONValueTests {
    @Test("literals build the expected cases")
    func literals() {
        let null: JSONValue = nil
        let flag: JSONValue = true
        let integer: JSONValue = 5
        let number: JSONValue = 2.5
        let string: JSONValue = "s"
        let array: JSONValue = [1, "a", nil]
        let object: JSONValue = ["k": 1, "j": [true]]
        #expect(null == .null)
        #expect(flag == .bool(true))
        #expect(integer == .integer(5))
        #expect(number == .number(2.5))
        #expect(string == .string("s"))
        #expect(array == .array([.integer(1), .string("a"), .null]))
        #expect(object == .object(JSONObject([("k", .integer(1)), ("j", .array([.bool(true)]))])))
        #expect(object.objectValue?.orderedKeys == ["k", "j"])
    }

    @Test("accessors return the payload for their own kind only")
    func accessors() {
        #expect(JSONValue.string("x").stringValue == "x")
        #expect(JSONValue.integer(1).stringValue == nil)
        #expect(JSONValue.bool(false).boolValue == false)
        #expect(JSONValue.integer(0).boolValue == nil)
        #expect(JSONValue.array([.null]).arrayValue == [.null])
        #expect(JSONValue.object(JSONObject()).arrayValue == nil)
        #expect(JSONValue.object(JSONObject()).objectValue == JSONObject())
        #expect(JSONValue.array([]).objectValue == nil)
        #expect(JSONValue.null.isNull)
        #expect(!JSONValue.integer(0).isNull)
        #expect(!JSONValue.string("null").isNull)
        #expect(JSONValue.integer(3).doubleValue == 3)
        #expect(JSONValue.number(2.5).doubleValue == 2.5)
        #expect(JSONValue.string("1").doubleValue == nil)
        let object: JSONValue = ["a": 1]
        #expect(object["a"] == .integer(1))
        #expect(object["b"] == nil)
        #expect(JSONValue.array([1])["a"] == nil)
    }

    @Test(
        "integerValue: integers, and integral doubles within Int64",
        arguments: [
            (.integer(Int64.max), Int64.max), (.integer(Int64.min), Int64.min), (.number(3.0), 3), (.number(-0.0), 0),
            (.number(1e18), 1_000_000_000_000_000_000), (.number(-9_223_372_036_854_775_808.0), Int64.min),
        ] as [(JSONValue, Int64)])
    func integerValue(value: JSONValue, expected: Int64) {
        #expect(value.integerValue == expected)
    }

    @Test(
        "integerValue is nil for fractions, out-of-range, non-finite and non-numbers",
        arguments: [
            .number(1.5), .number(-0.1), .number(9_223_372_036_854_775_808.0), .number(1e300), .number(.infinity),
            .number(.nan), .string("1"), .bool(true), .null, .array([.integer(1)]),
        ] as [JSONValue])
    func integerValueNil(value: JSONValue) {
        #expect(value.integerValue == nil)
    }

    @Test("type names")
    func typeNames() {
        #expect(JSONValue.null.typeName == "null")
        #expect(JSONValue.bool(true).typeName == "boolean")
        #expect(JSONValue.integer(1).typeName == "integer")
        #expect(JSONValue.number(1.5).typeName == "number")
        #expect(JSONValue.string("").typeName == "string")
        #expect(JSONValue.array([]).typeName == "array")
        #expect(JSONValue.object(JSONObject()).typeName == "object")
    }

    @Test("description is the compact JSON text")
    func description() {
        let value: JSONValue = ["a": [1, 2.5, "x\n", nil, false]]
        #expect(value.description == #"{"a":[1,2.5,"x\n",null,false]}"#)
        #expect("\(value)" == #"{"a":[1,2.5,"x\n",null,false]}"#)
    }

    @Test("JSONObject: set, replace in place, remove, contains")
    func objectMutation() {
        var object = JSONObject()
        #expect(object.isEmpty)
        object["a"] = .integer(1)
        object["b"] = .null
        object["c"] = .integer(3)
        object["a"] = .integer(10)
        #expect(object.orderedKeys == ["a", "b", "c"])
        #expect(object["a"] == .integer(10))
        #expect(object.contains("b"))
        #expect(object["b"] == .null)
        #expect(!object.contains("z"))
        object["b"] = nil
        #expect(object.orderedKeys == ["a", "c"])
        #expect(!object.contains("b"))
        #expect(object.count == 2)
        object["zz"] = nil  // removing an absent key is harmless
        #expect(object.count == 2)
        let members = Array(object).map { "\($0.key)=\($0.value)" }
        #expect(members == ["a=10", "c=3"])
    }

    @Test("JSONObject: a repeated key in init keeps the last value in the first place")
    func objectInitDuplicates() {
        let object = JSONObject([("x", .integer(1)), ("y", .integer(2)), ("x", .integer(3))])
        #expect(object.orderedKeys == ["x", "y"])
        #expect(object["x"] == .integer(3))
    }

    @Test("JSONObject equality and hashing ignore member order")
    func objectEquality() {
        let ab = JSONObject([("a", .integer(1)), ("b", .integer(2))])
        let ba = JSONObject([("b", .integer(2)), ("a", .integer(1))])
        #expect(ab == ba)
        #expect(ab.hashValue == ba.hashValue)
        #expect(Set([JSONValue.object(ab), .object(ba)]).count == 1)
        #expect(ab != JSONObject([("a", .integer(1))]))
        #expect(ab != JSONObject([("a", .integer(1)), ("b", .integer(3))]))
        #expect(ab != JSONObject([("a", .integer(1)), ("c", .integer(2))]))
        #expect(JSONObject([("a", .null)]) != JSONObject([("b", .null)]))
    }

    @Test("integer and number are different kinds, even with the same value")
    func integerVersusNumber() {
        #expect(JSONValue.integer(1) != .number(1.0))
    }
}
