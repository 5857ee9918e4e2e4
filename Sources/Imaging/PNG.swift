import CPNG

/// PNG through libpng's simplified API (`png_image`): 8-bit RGB or RGBA whatever the file's own format.
public enum PNG {
    public static func decode(_ bytes: [UInt8], limits: DecodeLimits) throws(ImagingError) -> Bitmap {
        var image = png_image()
        image.version = satchel_png_image_version
        let opened = bytes.withUnsafeBufferPointer { buffer in
            png_image_begin_read_from_memory(&image, buffer.baseAddress, buffer.count)
        }
        defer { png_image_free(&image) }
        guard opened != 0 else { throw .corrupt(detail: message(image)) }
        let width = Int(image.width)
        let height = Int(image.height)
        try limits.check(width: width, height: height, maximum: limits.maximumPixels)
        let alpha = image.format & satchel_png_format_flag_alpha != 0
        let channels = alpha ? 4 : 3
        image.format = alpha ? satchel_png_format_rgba : satchel_png_format_rgb
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        let finished = bytes.withUnsafeBufferPointer { _ in
            pixels.withUnsafeMutableBytes { target in
                png_image_finish_read(&image, nil, target.baseAddress, 0, nil)
            }
        }
        guard finished != 0 else { throw .corrupt(detail: message(image)) }
        return Bitmap(width: width, height: height, channels: channels, pixels: pixels)
    }

    public static func encode(_ bitmap: Bitmap) throws(ImagingError) -> [UInt8] {
        var image = png_image()
        image.version = satchel_png_image_version
        image.width = UInt32(bitmap.width)
        image.height = UInt32(bitmap.height)
        image.format = bitmap.channels == 4 ? satchel_png_format_rgba : satchel_png_format_rgb
        var size = 0
        let measured = bitmap.pixels.withUnsafeBytes { source in
            png_image_write_to_memory(&image, nil, &size, 0, source.baseAddress, 0, nil)
        }
        guard measured != 0 else { throw .corrupt(detail: message(image)) }
        var output = [UInt8](repeating: 0, count: size)
        let written = bitmap.pixels.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { target in
                png_image_write_to_memory(&image, target.baseAddress, &size, 0, source.baseAddress, 0, nil)
            }
        }
        guard written != 0 else { throw .corrupt(detail: message(image)) }
        return Array(output.prefix(size))
    }

    private static func message(_ image: png_image) -> String {
        var text = image.message
        return withUnsafeBytes(of: &text) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
