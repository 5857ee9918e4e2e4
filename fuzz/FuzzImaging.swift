// The libFuzzer entry over the rendition path, compiled together with Sources/Imaging by scripts/fuzz.
//
// The input's first byte chooses the kind of image the rest is taken for (JPEG, PNG, GIF, WebP, HEIF), as
// the server does from the magic bytes; the rest goes through `Rendition.make` under small decode limits,
// as hostile bytes would. Besides crashes and sanitizer reports, a finding is any broken promise: an image
// of more pixels than the limits let through, or a rendition larger than its size, empty, or not the
// format it claims.

import Imaging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let kinds: [SourceKind] = [.jpeg, .png, .gif, .webp, .heif]
let limits = DecodeLimits(maximumPixels: 4 << 20, maximumJPEGPixels: 16 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImaging(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 1 else { return 0 }
    let kind = kinds[Int(data[0]) % kinds.count]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    guard let made = try? Rendition.make(from: bytes, kind: kind, limits: limits) else { return 0 }
    check(made.width > 0 && made.height > 0, "an image of no pixels was accepted")
    let maximum = kind == .jpeg ? limits.maximumJPEGPixels : limits.maximumPixels
    check(made.width * made.height <= maximum, "more pixels than the limits: \(made.width)x\(made.height)")
    for rendition in made.renditions {
        let longest = max(rendition.width, rendition.height)
        check(longest >= 1 && longest <= rendition.size.longestSide, "a \(rendition.size) of \(longest) px")
        check(longest <= max(made.width, made.height), "a rendition larger than its image")
        let magic: [UInt8] = rendition.mimeType == "image/png" ? [0x89, 0x50] : [0xFF, 0xD8]
        check(rendition.bytes.starts(with: magic), "a \(rendition.mimeType) that is not one")
    }
    return 0
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
