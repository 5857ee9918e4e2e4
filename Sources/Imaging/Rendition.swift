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
    /// The sizes one decode of a `kind` image makes at little more than the cost of the smallest: all of
    /// them, except for JPEG, whose decoder skips the detail a thumbnail does not need (1/8 of a 12 MP
    /// photo's pixels for a thumbnail, 1/2 for the display size).
    public static func sizesMadeTogether(_ kind: SourceKind) -> [Size] {
        kind == .jpeg ? [.thumbnail] : Size.allCases
    }

    /// Decodes `bytes` once (a JPEG at the smallest scale that still serves the largest of `sizes`), turns
    /// the pixels upright, and makes each of `sizes` from them. The whole image is read either way, so
    /// anything that is not a whole image within `limits` throws.
    public static func make(
        from bytes: [UInt8], kind: SourceKind, sizes: [Size] = Size.allCases, limits: DecodeLimits = DecodeLimits()
    ) throws(ImagingError) -> RenditionSet {
        let largest = sizes.map(\.longestSide).max() ?? Size.thumbnail.longestSide
        var orientation = Orientation.up
        let decoded: Bitmap
        var originalSize: (Int, Int)
        switch kind {
        case .jpeg:
            let (bitmap, width, height) = try JPEG.decode(bytes, atLeast: largest, limits: limits)
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
        // Each size is scaled from the next larger one: the display bitmap (if asked for) makes the thumbnail.
        var bitmap = orientation.apply(to: decoded.scaled(toFit: largest))
        let transparent = bitmap.hasTransparency
        var renditions: [Rendition] = []
        for size in Size.allCases.reversed() where sizes.contains(size) {
            bitmap = bitmap.scaled(toFit: size.longestSide)
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
