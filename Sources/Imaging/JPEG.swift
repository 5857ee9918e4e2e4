import CTurboJPEG

/// JPEG through libjpeg-turbo's TurboJPEG API.
public enum JPEG {
    /// The image decoded to RGB at the smallest of libjpeg-turbo's scales (1/8, 1/4, 3/8, 1/2 … 1) whose
    /// longest side is still at least `longestSide`: the decoder skips the detail it would throw away, so
    /// a 12-megapixel photo becomes a thumbnail in a fraction of a full decode's time and memory. With the
    /// image's full size (as stored, before any EXIF orientation).
    public static func decode(_ bytes: [UInt8], atLeast longestSide: Int, limits: DecodeLimits) throws(ImagingError)
        -> (bitmap: Bitmap, width: Int, height: Int)
    {
        guard let handle = tjInitDecompress() else { throw .corrupt(detail: "the JPEG decoder could not start") }
        defer { tjDestroy(handle) }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let header = bytes.withUnsafeBufferPointer { buffer in
            tjDecompressHeader3(
                handle, buffer.baseAddress, UInt(buffer.count), &width, &height, &subsampling, &colorspace)
        }
        guard header == 0 else { throw .corrupt(detail: message(handle)) }
        try limits.check(width: Int(width), height: Int(height), maximum: limits.maximumJPEGPixels)
        guard colorspace != Int32(TJCS_CMYK.rawValue), colorspace != Int32(TJCS_YCCK.rawValue) else {
            throw .corrupt(detail: "a CMYK JPEG (a print file, not a photo)")
        }
        let (scaledWidth, scaledHeight) = scaledSize(width: Int(width), height: Int(height), atLeast: longestSide)
        try limits.check(width: scaledWidth, height: scaledHeight, maximum: limits.maximumPixels)
        var pixels = [UInt8](repeating: 0, count: scaledWidth * scaledHeight * 3)
        let status = bytes.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                // STOPONWARNING: a file cut short is only a warning to libjpeg (it fills the rest with grey).
                tjDecompress2(
                    handle, source.baseAddress, UInt(source.count), target.baseAddress, Int32(scaledWidth), 0,
                    Int32(scaledHeight), Int32(TJPF_RGB.rawValue), TJFLAG_STOPONWARNING)
            }
        }
        guard status == 0 else { throw .corrupt(detail: message(handle)) }
        return (Bitmap(width: scaledWidth, height: scaledHeight, channels: 3, pixels: pixels), Int(width), Int(height))
    }

    /// The size libjpeg-turbo decodes `width`×`height` at: its smallest scale that keeps the longest side at
    /// least `longestSide` (or the full size).
    public static func scaledSize(width: Int, height: Int, atLeast longestSide: Int) -> (Int, Int) {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return (width, height) }
        var best = (width, height)
        for index in 0..<Int(count) {
            let factor = factors[index]
            let num = Int(factor.num)
            let denom = Int(factor.denom)
            guard num <= denom else { continue }  // never enlarge
            let candidate = ((width * num + denom - 1) / denom, (height * num + denom - 1) / denom)
            if max(candidate.0, candidate.1) >= min(longestSide, max(width, height)),
                candidate.0 * candidate.1 < best.0 * best.1
            {
                best = candidate
            }
        }
        return best
    }

    /// `bitmap` (RGB) as a baseline JPEG of `quality` (1–100), chroma halved both ways as cameras do.
    public static func encode(_ bitmap: Bitmap, quality: Int) throws(ImagingError) -> [UInt8] {
        precondition(bitmap.channels == 3, "JPEG has no alpha: flatten first")
        guard let handle = tjInitCompress() else { throw .corrupt(detail: "the JPEG encoder could not start") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let status = bitmap.pixels.withUnsafeBufferPointer { source in
            tjCompress2(
                handle, source.baseAddress, Int32(bitmap.width), 0, Int32(bitmap.height), Int32(TJPF_RGB.rawValue),
                &output, &size, Int32(TJSAMP_420.rawValue), Int32(quality), 0)
        }
        defer { tjFree(output) }
        guard status == 0, let output else { throw .corrupt(detail: message(handle)) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    private static func message(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "not a JPEG" }
        return String(cString: text)
    }
}
