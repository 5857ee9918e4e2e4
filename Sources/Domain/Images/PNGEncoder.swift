/// Writes small, real PNG files (8-bit RGB, uncompressed deflate blocks): enough for sample data.
public enum PNGEncoder {
    /// A `width`×`height` image filled by `pixel(x, y)` → (red, green, blue).
    public static func image(width: Int, height: Int, pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) -> [UInt8] {
        precondition(width > 0 && height > 0 && width <= 4096 && height <= 4096)
        var raw: [UInt8] = []
        raw.reserveCapacity(height * (1 + width * 3))
        for y in 0..<height {
            raw.append(0)  // filter: none
            for x in 0..<width {
                let (red, green, blue) = pixel(x, y)
                raw.append(contentsOf: [red, green, blue])
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.append(contentsOf: bigEndian(UInt32(width)))
        header.append(contentsOf: bigEndian(UInt32(height)))
        header.append(contentsOf: [8, 2, 0, 0, 0])  // 8-bit, truecolour, deflate, no filter, no interlace
        png.append(contentsOf: chunk("IHDR", header))
        png.append(contentsOf: chunk("IDAT", zlibStored(raw)))
        png.append(contentsOf: chunk("IEND", []))
        return png
    }

    /// A solid-colour image.
    public static func solid(width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8) -> [UInt8] {
        image(width: width, height: height) { _, _ in (red, green, blue) }
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        var result = bigEndian(UInt32(data.count))
        result.append(contentsOf: typeBytes)
        result.append(contentsOf: data)
        result.append(contentsOf: bigEndian(crc32(typeBytes + data)))
        return result
    }

    /// A zlib stream of "stored" (uncompressed) deflate blocks.
    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var result: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            let final: UInt8 = offset + length >= data.count ? 1 : 0
            result.append(final)
            result.append(UInt8(length & 0xFF))
            result.append(UInt8(length >> 8))
            result.append(UInt8(~length & 0xFF))
            result.append(UInt8((~length >> 8) & 0xFF))
            result.append(contentsOf: data[offset..<offset + length])
            offset += length
        } while offset < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        result.append(contentsOf: bigEndian(b << 16 | a))
        return result
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
