/// The first frame of a GIF, drawn on its logical screen (transparent where the frame does not cover it
/// or its transparent colour shows). No library for GIF is among the system's image libraries, so its LZW
/// is decoded here; every read is bounds-checked and a frame cut short is refused.
public enum GIF {
    public static func decode(_ bytes: [UInt8], limits: DecodeLimits) throws(ImagingError) -> Bitmap {
        var reader = Reader(bytes: bytes)
        guard bytes.count >= 13, bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8))
        else { throw .corrupt(detail: "not a GIF") }
        reader.offset = 6
        let width = try reader.u16()
        let height = try reader.u16()
        try limits.check(width: width, height: height, maximum: limits.maximumPixels)
        let flags = try reader.byte()
        reader.offset += 2  // background colour, aspect ratio
        var palette = flags & 0x80 != 0 ? try reader.bytes(3 << (Int(flags & 7) + 1)) : []
        var transparent: Int? = nil
        while true {
            switch try reader.byte() {
            case 0x21:  // an extension: the graphic control one says which colour is transparent
                let label = try reader.byte()
                let blocks = try reader.subBlocks()
                if label == 0xF9, blocks.count >= 4, blocks[0] & 1 != 0 { transparent = Int(blocks[3]) }
            case 0x2C:
                let left = try reader.u16()
                let top = try reader.u16()
                let frameWidth = try reader.u16()
                let frameHeight = try reader.u16()
                let frameFlags = try reader.byte()
                if frameFlags & 0x80 != 0 { palette = try reader.bytes(3 << (Int(frameFlags & 7) + 1)) }
                try limits.check(width: frameWidth, height: frameHeight, maximum: limits.maximumPixels)
                let minimumCodeSize = Int(try reader.byte())
                let indexes = try lzw(try reader.subBlocks(), minimumCodeSize: minimumCodeSize, count: frameWidth * frameHeight)
                let rows = frameFlags & 0x40 != 0 ? interlacedRows(frameHeight) : Array(0..<frameHeight)
                var pixels = [UInt8](repeating: 0, count: width * height * 4)
                for (sourceRow, row) in rows.enumerated() {
                    let y = top + row
                    guard y < height else { continue }
                    for column in 0..<frameWidth where left + column < width {
                        let index = Int(indexes[sourceRow * frameWidth + column])
                        guard index != transparent, index * 3 + 2 < palette.count else { continue }
                        let at = (y * width + left + column) * 4
                        pixels[at] = palette[index * 3]
                        pixels[at + 1] = palette[index * 3 + 1]
                        pixels[at + 2] = palette[index * 3 + 2]
                        pixels[at + 3] = 255
                    }
                }
                return Bitmap(width: width, height: height, channels: 4, pixels: pixels)
            default:  // the trailer, or anything else, before any frame
                throw .corrupt(detail: "a GIF without a frame")
            }
        }
    }

    /// The order in which an interlaced frame's rows are stored: every 8th from 0, every 8th from 4, every
    /// 4th from 2, every 2nd from 1.
    static func interlacedRows(_ height: Int) -> [Int] {
        [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in Array(stride(from: start, to: height, by: step)) }
    }

    /// The colour indexes of `count` pixels from GIF's variable-length LZW codes (least significant bit first).
    static func lzw(_ data: [UInt8], minimumCodeSize: Int, count: Int) throws(ImagingError) -> [UInt8] {
        guard (2...8).contains(minimumCodeSize) else { throw .corrupt(detail: "a GIF with a bad code size") }
        let clear = 1 << minimumCodeSize
        let end = clear + 1
        var prefix = [Int16](repeating: -1, count: 4096)
        var suffix = [UInt8](repeating: 0, count: 4096)
        var first = [UInt8](repeating: 0, count: 4096)
        for code in 0..<clear {
            suffix[code] = UInt8(truncatingIfNeeded: code)
            first[code] = UInt8(truncatingIfNeeded: code)
        }
        var output: [UInt8] = []
        output.reserveCapacity(count)
        var stack: [UInt8] = []
        var codeSize = minimumCodeSize + 1
        var next = clear + 2
        var previous = -1
        var bitBuffer = 0
        var bitCount = 0
        var position = 0
        decoding: while output.count < count {
            while bitCount < codeSize {
                guard position < data.count else { break decoding }
                bitBuffer |= Int(data[position]) << bitCount
                position += 1
                bitCount += 8
            }
            let code = bitBuffer & ((1 << codeSize) - 1)
            bitBuffer >>= codeSize
            bitCount -= codeSize
            if code == clear {
                codeSize = minimumCodeSize + 1
                next = clear + 2
                previous = -1
                continue
            }
            if code == end { break }
            guard previous >= 0 else {
                guard code < clear else { throw .corrupt(detail: "a damaged GIF") }
                output.append(UInt8(code))
                previous = code
                continue
            }
            guard code <= next, code < 4096 else { throw .corrupt(detail: "a damaged GIF") }
            let known = code < next
            var walk = known ? code : previous
            stack.removeAll(keepingCapacity: true)
            if !known { stack.append(first[previous]) }
            while walk >= 0 {
                stack.append(suffix[walk])
                walk = Int(prefix[walk])
            }
            output.append(contentsOf: stack.reversed())
            if next < 4096 {
                prefix[next] = Int16(previous)
                suffix[next] = known ? first[code] : first[previous]
                first[next] = first[previous]
                next += 1
                if next == 1 << codeSize, codeSize < 12 { codeSize += 1 }
            }
            previous = code
        }
        guard output.count >= count else { throw .corrupt(detail: "a GIF cut short") }
        return Array(output.prefix(count))
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func byte() throws(ImagingError) -> UInt8 {
            guard offset < bytes.count else { throw .corrupt(detail: "a GIF cut short") }
            offset += 1
            return bytes[offset - 1]
        }

        mutating func u16() throws(ImagingError) -> Int {
            let low = Int(try byte())
            return Int(try byte()) << 8 | low
        }

        mutating func bytes(_ count: Int) throws(ImagingError) -> [UInt8] {
            guard offset + count <= bytes.count else { throw .corrupt(detail: "a GIF cut short") }
            offset += count
            return Array(bytes[offset - count..<offset])
        }

        /// Data sub-blocks (a length byte, then that many bytes) up to the empty one, joined.
        mutating func subBlocks() throws(ImagingError) -> [UInt8] {
            var joined: [UInt8] = []
            while true {
                let length = Int(try byte())
                if length == 0 { return joined }
                joined += try bytes(length)
            }
        }
    }
}
