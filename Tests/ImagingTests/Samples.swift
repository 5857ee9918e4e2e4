import CHEIF
import CWebP
import Foundation
import Imaging

/// Images made by the tests, at the sizes phones take them: nothing binary is committed.
enum Samples {
    /// A picture whose left half is red and right half blue, with a green square in the top-left corner: its
    /// colours say which way up it is after scaling and turning.
    static func halves(width: Int, height: Int, alpha: Bool = false) -> Bitmap {
        let channels = alpha ? 4 : 3
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        for y in 0..<height {
            for x in 0..<width {
                let at = (y * width + x) * channels
                let corner = x < width / 8 && y < height / 8
                pixels[at] = corner ? 0 : (x < width / 2 ? 220 : 20)
                pixels[at + 1] = corner ? 200 : 30
                pixels[at + 2] = corner ? 0 : (x < width / 2 ? 20 : 220)
                if alpha { pixels[at + 3] = x < width / 2 ? 255 : 0 }  // the right half transparent
            }
        }
        return Bitmap(width: width, height: height, channels: channels, pixels: pixels)
    }

    /// A phone's JPEG: 4032×3024 unless told otherwise, with an EXIF orientation when given one.
    static func jpeg(width: Int = 4032, height: Int = 3024, orientation: Int? = nil, quality: Int = 92) throws -> [UInt8] {
        let plain = try JPEG.encode(halves(width: width, height: height), quality: quality)
        guard let orientation else { return plain }
        return [0xFF, 0xD8] + exifSegment(orientation: orientation) + plain.dropFirst(2)
    }

    /// An APP1 segment holding a big-endian TIFF directory with one entry: the orientation.
    static func exifSegment(orientation: Int) -> [UInt8] {
        var tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8]  // byte order, magic, first directory at 8
        tiff += [0, 1]  // one entry
        tiff += [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(orientation), 0, 0]  // tag, SHORT, count 1, value
        tiff += [0, 0, 0, 0]  // no next directory
        let payload = Array("Exif\0\0".utf8) + tiff
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    static func png(width: Int, height: Int, alpha: Bool = false) throws -> [UInt8] {
        try PNG.encode(halves(width: width, height: height, alpha: alpha))
    }

    static func webp(width: Int, height: Int) -> [UInt8] {
        let bitmap = halves(width: width, height: height)
        var output: UnsafeMutablePointer<UInt8>? = nil
        let size = bitmap.pixels.withUnsafeBufferPointer {
            WebPEncodeRGB($0.baseAddress, Int32(width), Int32(height), Int32(width * 3), 85, &output)
        }
        defer { WebPFree(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    /// A HEIC made by libheif's HEVC encoder (x265).
    static func heic(width: Int, height: Int) throws -> [UInt8] {
        let bitmap = halves(width: width, height: height)
        let context = heif_context_alloc()
        defer { heif_context_free(context) }
        var image: OpaquePointer? = nil
        try check(heif_image_create(Int32(width), Int32(height), heif_colorspace_RGB, heif_chroma_interleaved_RGB, &image))
        defer { heif_image_release(image) }
        try check(heif_image_add_plane(image, heif_channel_interleaved, Int32(width), Int32(height), 8))
        var stride: Int32 = 0
        let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride)!
        for row in 0..<height {
            bitmap.pixels.withUnsafeBufferPointer { source in
                (plane + row * Int(stride)).update(from: source.baseAddress! + row * width * 3, count: width * 3)
            }
        }
        var encoder: OpaquePointer? = nil
        try check(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder))
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, 80))
        try check(heif_context_encode_image(context, image, encoder, nil, nil))
        let path = NSTemporaryDirectory() + "satchel-sample-\(UUID().uuidString).heic"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try check(heif_context_write_to_file(context, path))
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    private static func check(_ error: heif_error) throws {
        struct Failed: Error { let message: String }
        guard error.code != heif_error_Ok else { return }
        throw Failed(message: error.message.map { String(cString: $0) } ?? "libheif failed")
    }

    /// A GIF whose first frame is `bitmap`'s pixels in a palette of its colours (at most 256), transparent
    /// where the alpha is 0. Each pixel is one 9-bit code, with a clear code before the table fills (valid
    /// GIF, if not a small one).
    static func gif(_ bitmap: Bitmap, interlaced: Bool = false) -> [UInt8] {
        var palette: [[UInt8]] = [[0, 0, 0]]  // index 0: transparent
        var indexes: [Int] = []
        for pixel in 0..<(bitmap.width * bitmap.height) {
            let at = pixel * bitmap.channels
            if bitmap.channels == 4, bitmap.pixels[at + 3] == 0 {
                indexes.append(0)
                continue
            }
            let colour = Array(bitmap.pixels[at..<at + 3])
            if let index = palette.firstIndex(of: colour) {
                indexes.append(index)
            } else {
                palette.append(colour)
                indexes.append(palette.count - 1)
            }
        }
        if interlaced {
            let rows = [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in
                Array(stride(from: start, to: bitmap.height, by: step))
            }
            indexes = rows.flatMap { row in indexes[row * bitmap.width..<(row + 1) * bitmap.width] }
        }
        while palette.count < 256 { palette.append([0, 0, 0]) }
        func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        var bytes = Array("GIF89a".utf8) + u16(bitmap.width) + u16(bitmap.height) + [0xF7, 0, 0]
        bytes += palette.flatMap { $0 }
        bytes += [0x21, 0xF9, 4, 1, 0, 0, 0, 0]  // graphic control: colour 0 transparent
        bytes += [0x2C] + u16(0) + u16(0) + u16(bitmap.width) + u16(bitmap.height) + [interlaced ? 0x40 : 0]
        bytes += [8]  // minimum code size
        var codes: [Int] = []
        for (number, index) in indexes.enumerated() {
            if number % 250 == 0 { codes.append(256) }  // clear: the code size stays 9 bits
            codes.append(index)
        }
        codes.append(257)
        var data: [UInt8] = []
        var buffer = 0
        var bits = 0
        for code in codes {
            buffer |= code << bits
            bits += 9
            while bits >= 8 {
                data.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                bits -= 8
            }
        }
        if bits > 0 { data.append(UInt8(buffer & 0xFF)) }
        var offset = 0
        while offset < data.count {
            let chunk = min(255, data.count - offset)
            bytes += [UInt8(chunk)] + data[offset..<offset + chunk]
            offset += chunk
        }
        return bytes + [0, 0x3B]
    }

    /// A PNG that declares `width`×`height` in a few dozen bytes (its pixel data is a stub).
    static func pngBomb(width: Int, height: Int) -> [UInt8] {
        func u32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return u32(data.count) + body + u32(Int(crc32(body)))
        }
        let header = u32(width) + u32(height) + [8, 6, 0, 0, 0]  // 8-bit RGBA
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00]) + chunk("IEND", [])
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// The colour at (`x`, `y`) of a decoded rendition, as RGB.
    static func colour(_ bitmap: Bitmap, x: Int, y: Int) -> (Int, Int, Int) {
        let at = (y * bitmap.width + x) * bitmap.channels
        return (Int(bitmap.pixels[at]), Int(bitmap.pixels[at + 1]), Int(bitmap.pixels[at + 2]))
    }
}
