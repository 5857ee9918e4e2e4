import Imaging

/// The image types Satchel accepts, recognised by their magic bytes (never by a claimed type or name).
public enum ImageFormat: String, Sendable, CaseIterable {
    case png, jpeg, gif, webp, heic, heif

    public var mimeType: String {
        switch self {
        case .png: return "image/png"
        case .jpeg: return "image/jpeg"
        case .gif: return "image/gif"
        case .webp: return "image/webp"
        case .heic: return "image/heic"
        case .heif: return "image/heif"
        }
    }

    /// How the image libraries know it.
    var sourceKind: SourceKind {
        switch self {
        case .png: return .png
        case .jpeg: return .jpeg
        case .gif: return .gif
        case .webp: return .webp
        case .heic, .heif: return .heif
        }
    }

    /// What the bytes are, with the pixel size read from the header; `nil` when they are not an image of
    /// an accepted type or the header is cut short.
    public static func inspect(_ bytes: [UInt8]) -> (format: ImageFormat, width: Int, height: Int)? {
        let reader = ByteReader(bytes)
        if let size = reader.pngSize() { return (.png, size.width, size.height) }
        if let size = reader.jpegSize() { return (.jpeg, size.width, size.height) }
        if let size = reader.gifSize() { return (.gif, size.width, size.height) }
        if let size = reader.webpSize() { return (.webp, size.width, size.height) }
        if let (format, size) = reader.heifSize() { return (format, size.width, size.height) }
        return nil
    }
}

/// Bounds-checked big- and little-endian reads over a byte array.
private struct ByteReader {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func has(_ offset: Int, _ count: Int) -> Bool { offset >= 0 && count >= 0 && offset + count <= bytes.count }

    func matches(_ offset: Int, _ expected: [UInt8]) -> Bool {
        has(offset, expected.count) && Array(bytes[offset..<offset + expected.count]) == expected
    }

    func matches(_ offset: Int, _ text: String) -> Bool { matches(offset, Array(text.utf8)) }

    func u16be(_ offset: Int) -> Int? {
        guard has(offset, 2) else { return nil }
        return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }

    func u16le(_ offset: Int) -> Int? {
        guard has(offset, 2) else { return nil }
        return Int(bytes[offset + 1]) << 8 | Int(bytes[offset])
    }

    func u24le(_ offset: Int) -> Int? {
        guard has(offset, 3) else { return nil }
        return Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset])
    }

    func u32be(_ offset: Int) -> Int? {
        guard has(offset, 4) else { return nil }
        return Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
            | Int(bytes[offset + 3])
    }

    // PNG: signature, then the IHDR chunk with width and height.
    func pngSize() -> (width: Int, height: Int)? {
        guard matches(0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), matches(12, "IHDR"),
            let width = u32be(16), let height = u32be(20), width > 0, height > 0
        else { return nil }
        return (width, height)
    }

    // JPEG: walk the marker segments to the first start-of-frame.
    func jpegSize() -> (width: Int, height: Int)? {
        guard matches(0, [0xFF, 0xD8, 0xFF]) else { return nil }
        var offset = 2
        while has(offset, 4) {
            guard bytes[offset] == 0xFF else { return nil }
            var marker = bytes[offset + 1]
            // Fill bytes.
            while marker == 0xFF, has(offset + 1, 2) {
                offset += 1
                marker = bytes[offset + 1]
            }
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 {
                offset += 2
                continue
            }
            guard let segmentLength = u16be(offset + 2), segmentLength >= 2 else { return nil }
            let isStartOfFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isStartOfFrame {
                guard let height = u16be(offset + 5), let width = u16be(offset + 7), width > 0, height > 0 else {
                    return nil
                }
                return (width, height)
            }
            if marker == 0xD9 || marker == 0xDA { return nil }
            offset += 2 + segmentLength
        }
        return nil
    }

    // GIF: "GIF87a" or "GIF89a", then the logical screen's width and height.
    func gifSize() -> (width: Int, height: Int)? {
        // The header (6 bytes) and the logical screen descriptor (7) must both be there.
        guard has(0, 13), matches(0, "GIF87a") || matches(0, "GIF89a"), let width = u16le(6), let height = u16le(8),
            width > 0, height > 0
        else { return nil }
        return (width, height)
    }

    // WebP: a RIFF container whose first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended).
    func webpSize() -> (width: Int, height: Int)? {
        guard matches(0, "RIFF"), matches(8, "WEBP") else { return nil }
        if matches(12, "VP8 ") {
            // Frame tag (3 bytes), start code 9D 01 2A, then 14-bit width and height.
            guard matches(23, [0x9D, 0x01, 0x2A]), let width = u16le(26), let height = u16le(28) else { return nil }
            let size = (width & 0x3FFF, height & 0x3FFF)
            return size.0 > 0 && size.1 > 0 ? size : nil
        }
        if matches(12, "VP8L") {
            guard has(21, 4), bytes[20] == 0x2F else { return nil }
            let b0 = Int(bytes[21]), b1 = Int(bytes[22]), b2 = Int(bytes[23]), b3 = Int(bytes[24])
            let width = 1 + (b0 | (b1 & 0x3F) << 8)
            let height = 1 + ((b1 >> 6) | b2 << 2 | (b3 & 0x0F) << 10)
            return (width, height)
        }
        if matches(12, "VP8X") {
            guard let widthMinusOne = u24le(24), let heightMinusOne = u24le(27) else { return nil }
            return (widthMinusOne + 1, heightMinusOne + 1)
        }
        return nil
    }

    // HEIC/HEIF: an ISO BMFF `ftyp` box with a HEIF brand; the size is in the `ispe` property.
    func heifSize() -> (ImageFormat, (width: Int, height: Int))? {
        guard matches(4, "ftyp"), let boxSize = u32be(0), boxSize >= 16, has(0, boxSize) else { return nil }
        var brands: [String] = []
        var offset = 8
        while offset + 4 <= boxSize {
            if offset != 12 {  // bytes 12..<16 are the minor version, not a brand
                brands.append(String(decoding: bytes[offset..<offset + 4], as: UTF8.self))
            }
            offset += 4
        }
        let heicBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]
        let heifBrands: Set<String> = ["mif1", "msf1", "mif2"]
        let format: ImageFormat
        if brands.contains(where: heicBrands.contains) {
            format = .heic
        } else if brands.contains(where: heifBrands.contains) {
            format = .heif
        } else {
            return nil
        }
        guard let size = HEIFBoxes(bytes: bytes, from: boxSize).primaryImageSize() else { return nil }
        return (format, size)
    }
}
