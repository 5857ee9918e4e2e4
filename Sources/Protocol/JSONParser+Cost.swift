extension JSONParser {
    /// What the parts of a tree take in memory on a 64-bit system, as the parser charges them: an estimate,
    /// close to what the allocator hands out for them.
    public enum Cost {
        /// An array element: a value's stride.
        public static let element = MemoryLayout<JSONValue>.stride
        /// An object member: a key and a value.
        public static let member = MemoryLayout<JSONObject.Member>.stride
        /// The storage of a non-empty array or object: a 32-byte header and the allocator's own 16.
        public static let storage = 48
        /// A member of an object of more than 16, in the set of names that finds repeated keys (a hash table
        /// at most 3/4 full, and twice that while it grows).
        public static let memberName = 64

        /// Storage of `capacity` elements of `stride` bytes that is full and about to double: the new block
        /// holds twice as many (while the old one is copied into it, both are alive: together no more).
        @inline(__always) static func growth(capacity: Int, stride: Int) -> Int {
            capacity == 0 ? storage + stride : capacity * stride
        }

        /// A string of `count` UTF-8 bytes: up to 15 are kept inside the value, longer ones take a heap
        /// block of a 32-byte header, the bytes and a terminating zero, rounded up to 16.
        @inline(__always) public static func string(_ count: Int) -> Int {
            count <= 15 ? 0 : (count + 56) & ~15
        }
    }
}
