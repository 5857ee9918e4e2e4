import CHEIF

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// HEIC/HEIF (the iPhone's photos) through libheif: the primary image, with the file's own rotation and
/// mirroring applied (as a viewer shows it).
public enum HEIF {
    public static func decode(_ bytes: [UInt8], limits: DecodeLimits) throws(ImagingError) -> Bitmap {
        guard let context = heif_context_alloc() else { throw .corrupt(detail: "the HEIF decoder could not start") }
        defer { heif_context_free(context) }
        heif_context_set_maximum_image_size_limit(context, 1 << 15)
        // A phone's HEIC is a grid of tiles, which libheif decodes side by side on this many threads.
        heif_context_set_max_decoding_threads(context, Int32(min(4, max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))))
        return try bytes.withUnsafeBufferPointer { buffer throws(ImagingError) -> Bitmap in
            try check(heif_context_read_from_memory_without_copy(context, buffer.baseAddress, buffer.count, nil))
            var handle: OpaquePointer? = nil
            try check(heif_context_get_primary_image_handle(context, &handle))
            guard let handle else { throw .corrupt(detail: "no primary image") }
            defer { heif_image_handle_release(handle) }
            try limits.check(
                width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)),
                maximum: limits.maximumPixels)
            let alpha = heif_image_handle_has_alpha_channel(handle) != 0
            var image: OpaquePointer? = nil
            try check(
                heif_decode_image(
                    handle, &image, heif_colorspace_RGB, alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB,
                    nil))
            guard let image else { throw .corrupt(detail: "the image did not decode") }
            defer { heif_image_release(image) }
            let width = Int(heif_image_get_width(image, heif_channel_interleaved))
            let height = Int(heif_image_get_height(image, heif_channel_interleaved))
            try limits.check(width: width, height: height, maximum: limits.maximumPixels)
            var stride: Int32 = 0
            guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
                throw .corrupt(detail: "the image has no pixels")
            }
            let channels = alpha ? 4 : 3
            let rowBytes = width * channels
            var pixels = [UInt8](repeating: 0, count: rowBytes * height)
            pixels.withUnsafeMutableBufferPointer { target in
                for row in 0..<height {
                    (target.baseAddress! + row * rowBytes).update(from: plane + row * Int(stride), count: rowBytes)
                }
            }
            return Bitmap(width: width, height: height, channels: channels, pixels: pixels)
        }
    }

    private static func check(_ error: heif_error) throws(ImagingError) {
        guard error.code != heif_error_Ok else { return }
        let detail = error.message.map { String(cString: $0) } ?? "a damaged HEIF file"
        throw .corrupt(detail: detail)
    }
}
