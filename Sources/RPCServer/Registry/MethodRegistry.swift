/// Every method the server answers, by name, in the order they were declared.
///
/// Found by name in an open-addressed table hashed with FNV-1a over the name's bytes: every request looks
/// its method up, and a `[String: Int]`'s SipHash was about 300 of a pipelined `ping`'s instructions.
struct MethodRegistry {
    private(set) var methods: [RPCMethod] = []
    /// Slots of a power-of-two table, each `index + 1` into `methods` or 0 when empty; never more than half
    /// full, so a search always meets an empty slot.
    private var slots: [Int32] = Array(repeating: 0, count: 64)

    /// Adds `method`; declaring a name twice is a programming error.
    mutating func register(_ method: RPCMethod) {
        precondition(self[method.name] == nil, "method \(method.name) declared twice")
        methods.append(method)
        if methods.count * 2 > slots.count {
            slots = Array(repeating: 0, count: slots.count * 2)
            for index in methods.indices { insert(index) }
        } else {
            insert(methods.count - 1)
        }
    }

    mutating func register(_ group: [RPCMethod]) {
        for method in group { register(method) }
    }

    subscript(name: String) -> RPCMethod? {
        let mask = slots.count - 1
        var slot = Self.hash(name) & mask
        while slots[slot] != 0 {
            let method = methods[Int(slots[slot]) - 1]
            if method.name == name { return method }
            slot = (slot + 1) & mask
        }
        return nil
    }

    private mutating func insert(_ index: Int) {
        let mask = slots.count - 1
        var slot = Self.hash(methods[index].name) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(index + 1)
    }

    private static func hash(_ name: String) -> Int {
        var name = name
        return name.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return Int(truncatingIfNeeded: hash ^ (hash >> 32))
        }
    }
}
