import CHEIF

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libheif's functions that decoding uses, from the library loaded the first time a HEIF photo is decoded.
/// Linking it instead made every start of satchel load it and the decoders it brings (libde265's start-up
/// alone builds tables for ~24 M instructions), HEIF photo or not.
private struct LibHEIF: @unchecked Sendable {
    typealias Context = OpaquePointer
    typealias Handle = OpaquePointer
    typealias Image = OpaquePointer

    let contextAlloc: @convention(c) () -> Context?
    let contextFree: @convention(c) (Context?) -> Void
    let setMaximumImageSizeLimit: @convention(c) (Context?, Int32) -> Void
    let setMaxDecodingThreads: @convention(c) (Context?, Int32) -> Void
    let readFromMemoryWithoutCopy: @convention(c) (Context?, UnsafeRawPointer?, Int, OpaquePointer?) -> heif_error
    let getPrimaryImageHandle: @convention(c) (Context?, UnsafeMutablePointer<Handle?>?) -> heif_error
    let handleRelease: @convention(c) (Handle?) -> Void
    let handleWidth: @convention(c) (Handle?) -> Int32
    let handleHeight: @convention(c) (Handle?) -> Int32
    let handleHasAlpha: @convention(c) (Handle?) -> Int32
    let decodeImage:
        @convention(c) (Handle?, UnsafeMutablePointer<Image?>?, heif_colorspace, heif_chroma, UnsafePointer<heif_decoding_options>?)
            -> heif_error
    let imageRelease: @convention(c) (Image?) -> Void
    let imageWidth: @convention(c) (Image?, heif_channel) -> Int32
    let imageHeight: @convention(c) (Image?, heif_channel) -> Int32
    let planeReadonly: @convention(c) (Image?, heif_channel, UnsafeMutablePointer<Int32>?) -> UnsafePointer<UInt8>?

    /// The library, loaded once (Swift makes a global's first use thread-safe); `nil` when it is not there.
    static let loaded: LibHEIF? = load()

    private static func load() -> LibHEIF? {
        guard let library = dlopen("libheif.so.1", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func function<T>(_ name: String) -> T? { dlsym(library, name).map { unsafeBitCast($0, to: T.self) } }
        guard let contextAlloc: @convention(c) () -> Context? = function("heif_context_alloc"),
            let contextFree: @convention(c) (Context?) -> Void = function("heif_context_free"),
            let setMaximumImageSizeLimit: @convention(c) (Context?, Int32) -> Void =
                function("heif_context_set_maximum_image_size_limit"),
            let setMaxDecodingThreads: @convention(c) (Context?, Int32) -> Void =
                function("heif_context_set_max_decoding_threads"),
            let readFromMemoryWithoutCopy: @convention(c) (Context?, UnsafeRawPointer?, Int, OpaquePointer?) -> heif_error =
                function("heif_context_read_from_memory_without_copy"),
            let getPrimaryImageHandle: @convention(c) (Context?, UnsafeMutablePointer<Handle?>?) -> heif_error =
                function("heif_context_get_primary_image_handle"),
            let handleRelease: @convention(c) (Handle?) -> Void = function("heif_image_handle_release"),
            let handleWidth: @convention(c) (Handle?) -> Int32 = function("heif_image_handle_get_width"),
            let handleHeight: @convention(c) (Handle?) -> Int32 = function("heif_image_handle_get_height"),
            let handleHasAlpha: @convention(c) (Handle?) -> Int32 = function("heif_image_handle_has_alpha_channel"),
            let decodeImage:
                @convention(c) (
                    Handle?, UnsafeMutablePointer<Image?>?, heif_colorspace, heif_chroma, UnsafePointer<heif_decoding_options>?
                ) -> heif_error = function("heif_decode_image"),
            let imageRelease: @convention(c) (Image?) -> Void = function("heif_image_release"),
            let imageWidth: @convention(c) (Image?, heif_channel) -> Int32 = function("heif_image_get_width"),
            let imageHeight: @convention(c) (Image?, heif_channel) -> Int32 = function("heif_image_get_height"),
            let planeReadonly: @convention(c) (Image?, heif_channel, UnsafeMutablePointer<Int32>?) -> UnsafePointer<UInt8>? =
                function("heif_image_get_plane_readonly")
        else { return nil }
        return LibHEIF(
            contextAlloc: contextAlloc, contextFree: contextFree, setMaximumImageSizeLimit: setMaximumImageSizeLimit,
            setMaxDecodingThreads: setMaxDecodingThreads, readFromMemoryWithoutCopy: readFromMemoryWithoutCopy,
            getPrimaryImageHandle: getPrimaryImageHandle, handleRelease: handleRelease, handleWidth: handleWidth,
            handleHeight: handleHeight, handleHasAlpha: handleHasAlpha, decodeImage: decodeImage,
            imageRelease: imageRelease, imageWidth: imageWidth, imageHeight: imageHeight, planeReadonly: planeReadonly)
    }
}

/// HEIC/HEIF (the iPhone's photos) through libheif: the primary image, with the file's own rotation and
/// mirroring applied (as a viewer shows it).
public enum HEIF {
    public static func decode(_ bytes: [UInt8], limits: DecodeLimits) throws(ImagingError) -> Bitmap {
        guard let heif = LibHEIF.loaded else { throw .corrupt(detail: "libheif (libheif1) is not installed") }
        guard let context = heif.contextAlloc() else { throw .corrupt(detail: "the HEIF decoder could not start") }
        defer { heif.contextFree(context) }
        heif.setMaximumImageSizeLimit(context, 1 << 15)
        // A phone's HEIC is a grid of tiles, which libheif decodes side by side on this many threads.
        heif.setMaxDecodingThreads(context, Int32(min(4, max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))))
        return try bytes.withUnsafeBufferPointer { buffer throws(ImagingError) -> Bitmap in
            try check(heif.readFromMemoryWithoutCopy(context, buffer.baseAddress, buffer.count, nil))
            var handle: OpaquePointer? = nil
            try check(heif.getPrimaryImageHandle(context, &handle))
            guard let handle else { throw .corrupt(detail: "no primary image") }
            defer { heif.handleRelease(handle) }
            try limits.check(
                width: Int(heif.handleWidth(handle)), height: Int(heif.handleHeight(handle)),
                maximum: limits.maximumPixels)
            let alpha = heif.handleHasAlpha(handle) != 0
            var image: OpaquePointer? = nil
            try check(
                heif.decodeImage(
                    handle, &image, heif_colorspace_RGB, alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB,
                    nil))
            guard let image else { throw .corrupt(detail: "the image did not decode") }
            defer { heif.imageRelease(image) }
            let width = Int(heif.imageWidth(image, heif_channel_interleaved))
            let height = Int(heif.imageHeight(image, heif_channel_interleaved))
            try limits.check(width: width, height: height, maximum: limits.maximumPixels)
            var stride: Int32 = 0
            guard let plane = heif.planeReadonly(image, heif_channel_interleaved, &stride) else {
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
