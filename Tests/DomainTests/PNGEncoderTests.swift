import Foundation
import Testing

@testable import Domain

/// `PNGEncoder` writes real PNG files: checked by parsing them back here, chunk by chunk, and by inflating
/// the stored (uncompressed) deflate blocks by hand.
@Suite struct PNGEncoderTests {
    struct Size: Sendable, CustomTestStringConvertible {
        let width: Int
        let height: Int
        var testDescription: String { "\(width)x\(height)" }
        /// Filter byte plus three bytes a pixel, per row.
        var rawCount: Int { height * (1 + 3 * width) }
    }

    struct Chunk {
        let type: String
        let data: [UInt8]
        let crc: UInt32
    }

    struct Inflated {
        let raw: [UInt8]
        let blockLengths: [Int]
        let adler: UInt32
    }

    static let sizes = [
        Size(width: 1, height: 1), Size(width: 48, height: 32), Size(width: 32, height: 48),
        Size(width: 200, height: 200), Size(width: 4096, height: 1), Size(width: 1, height: 4096),
    ]

    // MARK: Parsing helpers

    private static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The chunks after the signature; fails the test on a truncated file.
    private static func chunks(_ png: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> [Chunk] {
        try #require(Array(png.prefix(8)) == signature, sourceLocation: sourceLocation)
        var result: [Chunk] = []
        var offset = 8
        while offset < png.count {
            try #require(offset + 12 <= png.count, "truncated chunk header", sourceLocation: sourceLocation)
            let length = Int(u32(png, offset))
            let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
            try #require(offset + 12 + length <= png.count, "truncated \(type)", sourceLocation: sourceLocation)
            let data = Array(png[offset + 8..<offset + 8 + length])
            result.append(Chunk(type: type, data: data, crc: u32(png, offset + 8 + length)))
            offset += 12 + length
        }
        return result
    }

    /// Inflates a zlib stream made only of stored blocks (what the encoder writes).
    private static func inflateStored(_ zlib: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws
        -> Inflated
    {
        try #require(zlib.count >= 2 + 5 + 4, sourceLocation: sourceLocation)
        let cmf = zlib[0]
        let flg = zlib[1]
        #expect(cmf & 0x0F == 8, "deflate", sourceLocation: sourceLocation)
        #expect(cmf >> 4 <= 7, "window size", sourceLocation: sourceLocation)
        #expect((Int(cmf) * 256 + Int(flg)) % 31 == 0, "FCHECK", sourceLocation: sourceLocation)
        #expect(flg & 0x20 == 0, "no preset dictionary", sourceLocation: sourceLocation)
        var offset = 2
        var raw: [UInt8] = []
        var lengths: [Int] = []
        while true {
            try #require(offset + 5 <= zlib.count, "truncated block header", sourceLocation: sourceLocation)
            let header = zlib[offset]
            try #require(header >> 1 & 0b11 == 0, "a stored block", sourceLocation: sourceLocation)
            let length = Int(zlib[offset + 1]) | Int(zlib[offset + 2]) << 8
            let complement = Int(zlib[offset + 3]) | Int(zlib[offset + 4]) << 8
            try #require(length ^ complement == 0xFFFF, "NLEN is the complement of LEN", sourceLocation: sourceLocation)
            offset += 5
            try #require(offset + length <= zlib.count, "truncated block", sourceLocation: sourceLocation)
            raw += zlib[offset..<offset + length]
            lengths.append(length)
            offset += length
            if header & 1 == 1 { break }
        }
        try #require(offset + 4 == zlib.count, "exactly the Adler-32 after the final block", sourceLocation: sourceLocation)
        return Inflated(raw: raw, blockLengths: lengths, adler: u32(zlib, offset))
    }

    /// The raw scanlines of `png`, after checking the chunk layout and every CRC.
    private static func decode(_ png: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> (
        width: Int, height: Int, inflated: Inflated
    ) {
        let chunks = try chunks(png, sourceLocation: sourceLocation)
        try #require(chunks.first?.type == "IHDR", sourceLocation: sourceLocation)
        try #require(chunks.last?.type == "IEND", sourceLocation: sourceLocation)
        let header = chunks[0].data
        try #require(header.count == 13, sourceLocation: sourceLocation)
        #expect(Array(header[8..<13]) == [8, 2, 0, 0, 0], "8-bit RGB, deflate, no filter, no interlace", sourceLocation: sourceLocation)
        let idat = chunks.filter { $0.type == "IDAT" }.flatMap(\.data)
        let inflated = try inflateStored(idat, sourceLocation: sourceLocation)
        return (Int(u32(header, 0)), Int(u32(header, 4)), inflated)
    }

    /// Bitwise CRC-32 (ISO-HDLC), independent of the encoder's table.
    private static func referenceCRC32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// Adler-32 as RFC 1950 defines it.
    private static func referenceAdler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    /// A pixel pattern where every byte of every pixel depends on its position.
    private static func pattern(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        (UInt8(x & 0xFF), UInt8(y & 0xFF), UInt8((x * 7 + y * 13) & 0xFF))
    }

    // MARK: Tests

    @Test(arguments: sizes)
    func outputIsAPNGOfTheRequestedSize(size: Size) throws {
        let png = PNGEncoder.solid(width: size.width, height: size.height, red: 1, green: 2, blue: 3)
        let inspected = try #require(ImageFormat.inspect(png))
        #expect(inspected.format == .png)
        #expect(inspected.width == size.width)
        #expect(inspected.height == size.height)
        let patterned = PNGEncoder.image(width: size.width, height: size.height, pixel: Self.pattern)
        let again = try #require(ImageFormat.inspect(patterned))
        #expect(again.format == .png)
        #expect(again.width == size.width && again.height == size.height)
    }

    @Test(arguments: sizes)
    func everyChunkHasTheRightCRC(size: Size) throws {
        let png = PNGEncoder.image(width: size.width, height: size.height, pixel: Self.pattern)
        let chunks = try Self.chunks(png)
        #expect(chunks.map(\.type) == ["IHDR", "IDAT", "IEND"])
        for chunk in chunks {
            let covered = Array(chunk.type.utf8) + chunk.data
            #expect(chunk.crc == PNGEncoder.crc32(covered), "\(chunk.type)")
            #expect(chunk.crc == Self.referenceCRC32(covered), "\(chunk.type)")
        }
        #expect(Array(png.suffix(12)) == [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
    }

    @Test func crc32IsTheStandardCRC32() {
        #expect(PNGEncoder.crc32(Array("IEND".utf8)) == 0xAE42_6082)
        #expect(PNGEncoder.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(PNGEncoder.crc32([]) == 0)
        // The IHDR of a 1x1 8-bit RGB image.
        #expect(PNGEncoder.crc32(Array("IHDR".utf8) + [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]) == 0x9077_53DE)
        #expect(Self.referenceCRC32(Array("IEND".utf8)) == 0xAE42_6082)
    }

    @Test(arguments: [
        (Size(width: 1, height: 1), [UInt8]([255, 0, 0])), (Size(width: 7, height: 3), [0, 0, 0]),
        (Size(width: 48, height: 32), [90, 150, 235]), (Size(width: 200, height: 200), [12, 34, 56]),
    ])
    func solidPixelsRoundTrip(size: Size, color: [UInt8]) throws {
        let png = PNGEncoder.solid(width: size.width, height: size.height, red: color[0], green: color[1], blue: color[2])
        let decoded = try Self.decode(png)
        #expect(decoded.width == size.width)
        #expect(decoded.height == size.height)
        let raw = decoded.inflated.raw
        try #require(raw.count == size.rawCount)
        var wrong = 0
        for y in 0..<size.height {
            let row = y * (1 + 3 * size.width)
            #expect(raw[row] == 0, "filter byte of row \(y)")
            for x in 0..<size.width where Array(raw[row + 1 + 3 * x..<row + 4 + 3 * x]) != color { wrong += 1 }
        }
        #expect(wrong == 0)
    }

    @Test(arguments: [
        Size(width: 200, height: 200), Size(width: 28, height: 771), Size(width: 5, height: 4096),
        Size(width: 4096, height: 64), Size(width: 22, height: 1),
    ])
    func imagesLargerThanOneStoredBlockStillDecode(size: Size) throws {
        let png = PNGEncoder.image(width: size.width, height: size.height, pixel: Self.pattern)
        let decoded = try Self.decode(png)
        let raw = decoded.inflated.raw
        try #require(raw.count == size.rawCount)
        let lengths = decoded.inflated.blockLengths
        // Full 65,535-byte blocks and then the rest: 28x771 is exactly one full block, 5x4096 one byte more.
        #expect(lengths.count == (size.rawCount + 65_534) / 65_535)
        #expect(lengths.dropLast().allSatisfy { $0 == 65_535 })
        #expect(lengths.reduce(0, +) == size.rawCount)
        var wrong = 0
        for y in 0..<size.height {
            let row = y * (1 + 3 * size.width)
            if raw[row] != 0 { wrong += 1 }
            for x in 0..<size.width {
                let (red, green, blue) = Self.pattern(x, y)
                let at = row + 1 + 3 * x
                if raw[at] != red || raw[at + 1] != green || raw[at + 2] != blue { wrong += 1 }
            }
        }
        #expect(wrong == 0)
    }

    @Test(arguments: sizes)
    func adler32TrailerIsCorrect(size: Size) throws {
        let png = PNGEncoder.image(width: size.width, height: size.height, pixel: Self.pattern)
        let decoded = try Self.decode(png)
        #expect(decoded.inflated.adler == Self.referenceAdler32(decoded.inflated.raw))
    }

    @Test func adler32OfASmallImageMatchesZlib() throws {
        let png = PNGEncoder.solid(width: 2, height: 2, red: 10, green: 200, blue: 30)
        #expect(try Self.decode(png).inflated.adler == 0x19FE_03C1)
        #expect(Self.referenceAdler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
    }

    @Test func aSmallImageIsByteForByteWhatPythonsZlibWrites() {
        // struct + zlib.compress(raw, 0) in Python for a 2x2 image of (10, 200, 30).
        let expected: [UInt8] = [
            0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
            0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x08, 0x02, 0x00, 0x00, 0x00, 0xFD, 0xD4, 0x9A, 0x73, 0x00, 0x00, 0x00,
            0x19, 0x49, 0x44, 0x41, 0x54, 0x78, 0x01, 0x01, 0x0E, 0x00, 0xF1, 0xFF, 0x00, 0x0A, 0xC8, 0x1E, 0x0A, 0xC8,
            0x1E, 0x00, 0x0A, 0xC8, 0x1E, 0x0A, 0xC8, 0x1E, 0x19, 0xFE, 0x03, 0xC1, 0xD9, 0x0F, 0x53, 0xB3, 0x00, 0x00,
            0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
        ]
        #expect(PNGEncoder.solid(width: 2, height: 2, red: 10, green: 200, blue: 30) == expected)
    }
}
