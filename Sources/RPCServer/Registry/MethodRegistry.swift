/// Every method the server answers, by name, in the order they were declared.
struct MethodRegistry {
    private(set) var methods: [RPCMethod] = []
    private var indexByName: [String: Int] = [:]

    /// Adds `method`; declaring a name twice is a programming error.
    mutating func register(_ method: RPCMethod) {
        precondition(indexByName[method.name] == nil, "method \(method.name) declared twice")
        indexByName[method.name] = methods.count
        methods.append(method)
    }

    mutating func register(_ group: [RPCMethod]) {
        for method in group { register(method) }
    }

    subscript(name: String) -> RPCMethod? {
        indexByName[name].map { methods[$0] }
    }
}
