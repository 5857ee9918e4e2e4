import Testing

@testable import Domain

@Suite struct SHA256Tests {
    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
    }

    /// Bytes `(i * 31 + 7) % 256` for `i` in `0..<count`: not all alike, so misplaced bytes change the digest.
    private static func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(($0 * 31 + 7) % 256) }
    }

    // FIPS 180-4 / NIST example vectors.
    @Test func standardVectors() {
        #expect(SHA256.hexDigest([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hexDigest(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hexDigest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hexDigest(
                Array(
                    ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                        + "mnopqrstnopqrstu").utf8))
                == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test func oneMillionA() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        #expect(SHA256.hexDigest(message) == expected)
        // The same in 1000 updates of 1000 bytes.
        var hasher = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hasher.update(chunk) }
        #expect(Self.hex(hasher.finalize()) == expected)
    }

    // References computed once with Python's hashlib.sha256(bytes((i * 31 + 7) % 256 for i in range(n))).
    @Test(arguments: [
        (55, "8aa994584139d128848eeebc4e815639ba5ab6e6e39574195a63ac4f14f7c43b"),
        (56, "ad574708f75c044c9b85de64cb568ee7711ff4f36448c6242f053ba8f6cc2b63"),
        (63, "280ed3e8ff1df845b2e7dfe6ac6cee817bef20e783cc65abc41b818b4d2fe076"),
        (64, "c6ab9724ade5b6a7a1edfffb12f3aa9181351355af8fd08c919952ad211339dd"),
        (65, "788367c73c7ddf4c53f65e68cc0d943e6227ab55b0e78ba63ace822b1c6301c0"),
        (119, "3d610547d68216dedf7435a4fb6260353911f6b3fd3f18805ddb8be285d726fe"),
        (120, "1f80156a804cb7862ad113e8200e9d74499723e7c7854d5f48776d3148e09656"),
        (127, "192409cd280e14b743642ad1343fbd3e82d9305de72c078117745a679210cc3d"),
        (128, "cc548ca2dec1f6fe4f58b2e27aa9c7521607df1130d140b55a4dad0665302356"),
        (129, "81e89a7b2911aaa7795f9e3d4910cb47d6cd2b00d83b8399481527261a1a7519"),
    ])
    func paddingBoundaries(length: Int, expected: String) {
        let message = Self.pattern(length)
        #expect(SHA256.hexDigest(message) == expected)
        // Byte by byte, so the padding starts from a partly filled block.
        var hasher = SHA256()
        for byte in message { hasher.update([byte]) }
        #expect(Self.hex(hasher.finalize()) == expected)
    }

    // hashlib.sha256(bytes((i * 31 + 7) % 256 for i in range(1000))).hexdigest()
    private static let thousandBytesDigest = "5097e7d587352f5097062ae679f37bda5802d9f875aba14c8cb4d1a188ada179"

    @Test(arguments: [[1], [3], [7], [13], [63], [65], [127], [1, 2, 3, 5, 8, 13, 21, 34, 55, 89], [64, 1, 63, 0, 129]])
    func incrementalUpdatesInOddChunksEqualOneShot(chunkSizes: [Int]) {
        let message = Self.pattern(1000)
        #expect(SHA256.hexDigest(message) == Self.thousandBytesDigest)
        var hasher = SHA256()
        var offset = 0
        var turn = 0
        while offset < message.count {
            let size = min(chunkSizes[turn % chunkSizes.count], message.count - offset)
            hasher.update(Array(message[offset..<offset + size]))
            offset += size
            turn += 1
        }
        hasher.update([])
        #expect(Self.hex(hasher.finalize()) == Self.thousandBytesDigest)
    }

    @Test func digestShape() {
        var hasher = SHA256()
        hasher.update(Array("abc".utf8))
        let digest = hasher.finalize()
        #expect(digest.count == 32)
        #expect(Self.hex(digest) == SHA256.hexDigest(Array("abc".utf8)))
        let text = SHA256.hexDigest(Self.pattern(77))
        #expect(text.count == 64)
        #expect(text.allSatisfy { "0123456789abcdef".contains($0) })
    }
}
