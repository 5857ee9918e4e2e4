/// How a camera says its pixels are to be turned to be seen upright (EXIF tag 0x0112, values 1–8).
public enum Orientation: Int, Sendable {
    case up = 1, mirrored, down, downMirrored, leftMirrored, right, rightMirrored, left

    /// Whether width and height trade places when it is applied.
    public var swapsSides: Bool { rawValue >= 5 }

    /// The orientation a JPEG's EXIF block gives (`.up` when it gives none, or the block is unreadable).
    /// Only the segments before the image data are read.
    public static func ofJPEG(_ bytes: [UInt8]) -> Orientation {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return .up }
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                offset += 2
                continue
            }
            if marker == 0xDA || marker == 0xD9 { break }  // the image data begins (or the file ends)
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let payload = offset + 4
            guard length >= 2, payload + length - 2 <= bytes.count else { break }
            if marker == 0xE1, length >= 8, Array(bytes[payload..<payload + 6]) == Array("Exif\0\0".utf8) {
                return TIFF(bytes: bytes, start: payload + 6, end: payload + length - 2)?.orientation() ?? .up
            }
            offset = payload + length - 2
        }
        return .up
    }

    /// `bitmap` turned as this orientation says.
    public func apply(to bitmap: Bitmap) -> Bitmap {
        guard self != .up else { return bitmap }
        let (width, height, channels) = (bitmap.width, bitmap.height, bitmap.channels)
        let (outWidth, outHeight) = swapsSides ? (height, width) : (width, height)
        var output = [UInt8](repeating: 0, count: bitmap.pixels.count)
        bitmap.pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                var out = 0
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        let (sx, sy) = sourcePoint(x: x, y: y, width: width, height: height)
                        let from = (sy * width + sx) * channels
                        for channel in 0..<channels { target[out + channel] = source[from + channel] }
                        out += channels
                    }
                }
            }
        }
        return Bitmap(width: outWidth, height: outHeight, channels: channels, pixels: output)
    }

    /// The source pixel shown at (`x`, `y`) once turned, for a source of `width`×`height`.
    private func sourcePoint(x: Int, y: Int, width: Int, height: Int) -> (Int, Int) {
        switch self {
        case .up: return (x, y)
        case .mirrored: return (width - 1 - x, y)
        case .down: return (width - 1 - x, height - 1 - y)
        case .downMirrored: return (x, height - 1 - y)
        case .leftMirrored: return (y, x)
        case .right: return (y, height - 1 - x)
        case .rightMirrored: return (width - 1 - y, height - 1 - x)
        case .left: return (width - 1 - y, x)
        }
    }
}

/// The first directory of a TIFF structure (as EXIF embeds one), read with bounds checks.
private struct TIFF {
    let bytes: [UInt8]
    let start: Int
    let end: Int
    let littleEndian: Bool

    init?(bytes: [UInt8], start: Int, end: Int) {
        guard start + 8 <= end, end <= bytes.count else { return nil }
        self.bytes = bytes
        self.start = start
        self.end = end
        switch (bytes[start], bytes[start + 1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
    }

    private func u16(_ at: Int) -> Int? {
        let offset = start + at
        guard at >= 0, offset + 2 <= end else { return nil }
        let (a, b) = (Int(bytes[offset]), Int(bytes[offset + 1]))
        return littleEndian ? b << 8 | a : a << 8 | b
    }

    private func u32(_ at: Int) -> Int? {
        guard let low = u16(littleEndian ? at : at + 2), let high = u16(littleEndian ? at + 2 : at) else { return nil }
        return high << 16 | low
    }

    func orientation() -> Orientation? {
        guard u16(2) == 42, let directory = u32(4), let count = u16(directory) else { return nil }
        for entry in 0..<count {
            let at = directory + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            if tag == 0x0112, u16(at + 2) == 3, let value = u16(at + 8) {
                return Orientation(rawValue: value)
            }
        }
        return nil
    }
}
