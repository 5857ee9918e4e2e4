/// A smaller copy of a stored image for showing it: upright, without metadata, in a format every browser
/// shows (JPEG; PNG when the image has transparency).
public struct Rendition: Sendable, Equatable {
    public enum Size: String, Sendable, CaseIterable {
        /// For lists and grids: at most 320 pixels on its longest side.
        case thumbnail
        /// For looking at one photo: at most 1600 pixels on its longest side.
        case display

        public var longestSide: Int {
            switch self {
            case .thumbnail: return 320
            case .display: return 1600
            }
        }

        var jpegQuality: Int {
            switch self {
            case .thumbnail: return 80
            case .display: return 85
            }
        }
    }

    public var size: Size
    public var mimeType: String
    public var width: Int
    public var height: Int
    public var bytes: [UInt8]
}

/// What decoding an image for its renditions found out.
public struct RenditionSet: Sendable, Equatable {
    /// The original's size as a person sees it (after its orientation is applied).
    public var width: Int
    public var height: Int
    public var renditions: [Rendition]
}

extension Rendition {
    /// Decodes `bytes` once (a JPEG at the smallest scale that still serves the display size), turns the
    /// pixels upright, and makes every size from them. Throws for anything that is not a whole image within
    /// `limits`.
    public static func make(from bytes: [UInt8], kind: SourceKind, limits: DecodeLimits = DecodeLimits())
        throws(ImagingError) -> RenditionSet
    {
        var orientation = Orientation.up
        let decoded: Bitmap
        var originalSize: (Int, Int)
        switch kind {
        case .jpeg:
            let (bitmap, width, height) = try JPEG.decode(bytes, atLeast: Size.display.longestSide, limits: limits)
            decoded = bitmap
            originalSize = (width, height)
            orientation = Orientation.ofJPEG(bytes)
        case .png:
            decoded = try PNG.decode(bytes, limits: limits)
            originalSize = (decoded.width, decoded.height)
        case .webp:
            decoded = try WebP.decode(bytes, limits: limits)
            originalSize = (decoded.width, decoded.height)
        case .heif:
            decoded = try HEIF.decode(bytes, limits: limits)  // libheif applies the file's rotation itself
            originalSize = (decoded.width, decoded.height)
        case .gif:
            decoded = try GIF.decode(bytes, limits: limits)
            originalSize = (decoded.width, decoded.height)
        }
        if orientation.swapsSides { originalSize = (originalSize.1, originalSize.0) }
        let display = orientation.apply(to: decoded.scaled(toFit: Size.display.longestSide))
        let thumbnail = display.scaled(toFit: Size.thumbnail.longestSide)
        let transparent = display.hasTransparency
        var renditions: [Rendition] = []
        for (size, bitmap) in [(Size.thumbnail, thumbnail), (Size.display, display)] {
            let encoded =
                transparent
                ? try PNG.encode(bitmap) : try JPEG.encode(bitmap.flattened(), quality: size.jpegQuality)
            renditions.append(
                Rendition(
                    size: size, mimeType: transparent ? "image/png" : "image/jpeg", width: bitmap.width,
                    height: bitmap.height, bytes: encoded))
        }
        return RenditionSet(width: originalSize.0, height: originalSize.1, renditions: renditions)
    }
}
