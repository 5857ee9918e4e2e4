import CWebP

/// WebP through libwebp: a still image, or an animation's first frame drawn on its canvas.
public enum WebP {
    public static func decode(_ bytes: [UInt8], limits: DecodeLimits) throws(ImagingError) -> Bitmap {
        var features = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer { buffer in
            satchel_webp_features(buffer.baseAddress, buffer.count, &features)
        }
        guard status == VP8_STATUS_OK else { throw .corrupt(detail: "not a whole WebP image") }
        guard features.has_animation == 0 else { return try firstFrame(bytes, limits: limits) }
        let width = Int(features.width)
        let height = Int(features.height)
        try limits.check(width: width, height: height, maximum: limits.maximumPixels)
        let channels = features.has_alpha != 0 ? 4 : 3
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        let stride = Int32(width * channels)
        let decoded = bytes.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                channels == 4
                    ? WebPDecodeRGBAInto(source.baseAddress, source.count, target.baseAddress, target.count, stride)
                    : WebPDecodeRGBInto(source.baseAddress, source.count, target.baseAddress, target.count, stride)
            }
        }
        guard decoded != nil else { throw .corrupt(detail: "a damaged WebP image") }
        return Bitmap(width: width, height: height, channels: channels, pixels: pixels)
    }

    /// An animation's first frame, on a transparent canvas of the animation's size.
    private static func firstFrame(_ bytes: [UInt8], limits: DecodeLimits) throws(ImagingError) -> Bitmap {
        try bytes.withUnsafeBufferPointer { buffer throws(ImagingError) -> Bitmap in
            guard let demuxer = satchel_webp_demux(buffer.baseAddress, buffer.count) else {
                throw .corrupt(detail: "a damaged animated WebP")
            }
            defer { WebPDemuxDelete(demuxer) }
            let width = Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH))
            let height = Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT))
            try limits.check(width: width, height: height, maximum: limits.maximumPixels)
            var frame = WebPIterator()
            guard WebPDemuxGetFrame(demuxer, 1, &frame) != 0 else { throw .corrupt(detail: "an animated WebP without a frame") }
            defer { WebPDemuxReleaseIterator(&frame) }
            let (left, top, frameWidth, frameHeight) = (Int(frame.x_offset), Int(frame.y_offset), Int(frame.width), Int(frame.height))
            guard frame.complete != 0, frameWidth > 0, frameHeight > 0, left + frameWidth <= width, top + frameHeight <= height
            else { throw .corrupt(detail: "an animated WebP cut short") }
            var pixels = [UInt8](repeating: 0, count: frameWidth * frameHeight * 4)
            let decoded = pixels.withUnsafeMutableBufferPointer { target in
                WebPDecodeRGBAInto(
                    frame.fragment.bytes, frame.fragment.size, target.baseAddress, target.count, Int32(frameWidth * 4))
            }
            guard decoded != nil else { throw .corrupt(detail: "a damaged animated WebP") }
            var canvas = [UInt8](repeating: 0, count: width * height * 4)
            for row in 0..<frameHeight {
                let from = row * frameWidth * 4
                let to = ((top + row) * width + left) * 4
                canvas.replaceSubrange(to..<to + frameWidth * 4, with: pixels[from..<from + frameWidth * 4])
            }
            return Bitmap(width: width, height: height, channels: 4, pixels: canvas)
        }
    }
}
