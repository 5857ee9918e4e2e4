/// Eight-bit pixels, row after row without padding: RGB (3 channels) or RGBA (4).
public struct Bitmap: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var channels: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, channels: Int, pixels: [UInt8]) {
        precondition(channels == 3 || channels == 4, "RGB or RGBA")
        precondition(pixels.count == width * height * channels, "one value per channel of every pixel")
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// Whether some pixel is not fully opaque.
    public var hasTransparency: Bool {
        guard channels == 4 else { return false }
        var index = 3
        while index < pixels.count {
            if pixels[index] != 255 { return true }
            index += 4
        }
        return false
    }
}

/// The kinds of image a rendition can be made from (the caller has recognised them by their magic bytes).
public enum SourceKind: Sendable {
    case jpeg, png, gif, webp, heif
}

/// Why an image could not be decoded. None of them trusts a header: sizes are checked before any memory
/// is taken for pixels.
public enum ImagingError: Error, Equatable, Sendable {
    /// More pixels than `DecodeLimits` allow (an image bomb, or a photo larger than any camera makes).
    case tooManyPixels(width: Int, height: Int)
    /// The bytes are not a whole image of their kind: cut short, or damaged. `detail` is the decoder's word.
    case corrupt(detail: String)
}

/// What a decoder may take on: the pixels of the image as decoded (after any scaling done while decoding).
public struct DecodeLimits: Sendable {
    /// The most pixels an image may declare when it is decoded whole (PNG, WebP, HEIF, GIF).
    public var maximumPixels: Int
    /// The most pixels a JPEG may declare: it is decoded at a fraction of its size, so it may be larger.
    public var maximumJPEGPixels: Int

    public init(maximumPixels: Int = 64 << 20, maximumJPEGPixels: Int = 256 << 20) {
        self.maximumPixels = maximumPixels
        self.maximumJPEGPixels = maximumJPEGPixels
    }

    func check(width: Int, height: Int, maximum: Int) throws(ImagingError) {
        guard width > 0, height > 0, width <= 1 << 20, height <= 1 << 20, width * height <= maximum else {
            throw .tooManyPixels(width: width, height: height)
        }
    }
}
