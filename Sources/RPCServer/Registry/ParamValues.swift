import Protocol

/// A method's parameters after validation against its ``ParamSpec``s, always by name.
///
/// Accessors trust the validation that built this value: a required string param is a string.
struct ParamValues {
    /// The members given (positional params are already named).
    let members: JSONObject

    init(_ members: JSONObject = JSONObject()) {
        self.members = members
    }

    /// Whether `name` was given at all (even as `null`).
    func contains(_ name: String) -> Bool { members.contains(name) }

    /// The raw value of `name`, if given.
    subscript(name: String) -> JSONValue? { members[name] }

    /// A required param's value: validation has made sure it is there and of its schema's type, so it
    /// reads (a failure here is a declaration whose schema and type disagree, a bug).
    subscript<Value>(_ param: Required<Value>) -> Value {
        guard let value = members[param.spec.name].flatMap(param.read) else {
            preconditionFailure("\(param.spec.name) passed validation but does not read as \(Value.self)")
        }
        return value
    }

    func string(_ name: String) -> String? { members[name]?.stringValue }
    func integer(_ name: String) -> Int64? { members[name]?.integerValue }
    func double(_ name: String) -> Double? { members[name]?.doubleValue }
    func bool(_ name: String) -> Bool? { members[name]?.boolValue }
    func object(_ name: String) -> JSONObject? { members[name]?.objectValue }
    func array(_ name: String) -> [JSONValue]? { members[name]?.arrayValue }
}
