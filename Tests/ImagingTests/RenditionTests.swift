import Imaging
import Testing

/// Reds are red and blues blue, within what JPEG's compression moves a colour.
private func isRed(_ colour: (Int, Int, Int)) -> Bool { colour.0 > 150 && colour.2 < 90 }
private func isBlue(_ colour: (Int, Int, Int)) -> Bool { colour.2 > 150 && colour.0 < 90 }
private func isGreen(_ colour: (Int, Int, Int)) -> Bool { colour.1 > 130 && colour.0 < 90 && colour.2 < 90 }

private func decodeJPEG(_ rendition: Rendition) throws -> Bitmap {
    try JPEG.decode(rendition.bytes, atLeast: .max, limits: DecodeLimits()).bitmap
}

@Suite("Renditions")
struct RenditionTests {
    @Test("a 12-megapixel JPEG gives a 320 px thumbnail and a 1600 px display size, as JPEG, same picture")
    func phoneJPEG() throws {
        let made = try Rendition.make(from: try Samples.jpeg(), kind: .jpeg)
        #expect(made.width == 4032 && made.height == 3024)
        let thumbnail = try #require(made.renditions.first { $0.size == .thumbnail })
        let display = try #require(made.renditions.first { $0.size == .display })
        #expect((thumbnail.width, thumbnail.height) == (320, 240))
        #expect((display.width, display.height) == (1600, 1200))
        #expect(thumbnail.mimeType == "image/jpeg" && display.mimeType == "image/jpeg")
        let pixels = try decodeJPEG(thumbnail)
        #expect((pixels.width, pixels.height) == (320, 240))
        #expect(isGreen(Samples.colour(pixels, x: 10, y: 10)))
        #expect(isRed(Samples.colour(pixels, x: 100, y: 200)))
        #expect(isBlue(Samples.colour(pixels, x: 300, y: 200)))
        #expect(display.bytes.count < 1_000_000 && thumbnail.bytes.count < 60_000)
    }

    @Test("a portrait photo (EXIF orientation 6) is turned upright, and its size is given as seen")
    func portrait() throws {
        let made = try Rendition.make(from: try Samples.jpeg(orientation: 6), kind: .jpeg)
        #expect(made.width == 3024 && made.height == 4032)
        let thumbnail = try #require(made.renditions.first { $0.size == .thumbnail })
        #expect((thumbnail.width, thumbnail.height) == (240, 320))
        let pixels = try decodeJPEG(thumbnail)
        // Turned a quarter clockwise: the left (red) half is on top, the green corner top right.
        #expect(isGreen(Samples.colour(pixels, x: 230, y: 10)))
        #expect(isRed(Samples.colour(pixels, x: 60, y: 100)))
        #expect(isBlue(Samples.colour(pixels, x: 60, y: 260)))
    }

    @Test("no metadata survives: a rendition holds no EXIF block", arguments: [1, 6, 8])
    func noMetadata(orientation: Int) throws {
        let made = try Rendition.make(from: try Samples.jpeg(width: 800, height: 600, orientation: orientation), kind: .jpeg)
        for rendition in made.renditions {
            #expect(Orientation.ofJPEG(rendition.bytes) == .up)
            #expect(!rendition.bytes.indices.dropLast(4).contains { Array(rendition.bytes[$0..<$0 + 4]) == Array("Exif".utf8) })
        }
    }

    @Test("every orientation turns pixels the way EXIF defines it")
    func orientations() {
        // 3×2, pixels numbered 1…6 row by row; what a viewer shows for each orientation, row by row.
        let source = Bitmap(width: 3, height: 2, channels: 3, pixels: (1...6).flatMap { [UInt8($0), 0, 0] })
        let expected: [Orientation: [[UInt8]]] = [
            .up: [[1, 2, 3], [4, 5, 6]], .mirrored: [[3, 2, 1], [6, 5, 4]], .down: [[6, 5, 4], [3, 2, 1]],
            .downMirrored: [[4, 5, 6], [1, 2, 3]], .leftMirrored: [[1, 4], [2, 5], [3, 6]],
            .right: [[4, 1], [5, 2], [6, 3]], .rightMirrored: [[6, 3], [5, 2], [4, 1]], .left: [[3, 6], [2, 5], [1, 4]],
        ]
        for (orientation, rows) in expected {
            let turned = orientation.apply(to: source)
            let seen = (0..<turned.height).map { y in (0..<turned.width).map { x in turned.pixels[(y * turned.width + x) * 3] } }
            #expect(seen == rows, "\(orientation)")
        }
    }

    @Test("a PNG with transparency keeps it: its renditions are PNG with alpha")
    func transparentPNG() throws {
        let made = try Rendition.make(from: try Samples.png(width: 2000, height: 1000, alpha: true), kind: .png)
        let thumbnail = try #require(made.renditions.first { $0.size == .thumbnail })
        #expect(thumbnail.mimeType == "image/png" && (thumbnail.width, thumbnail.height) == (320, 160))
        let pixels = try PNG.decode(thumbnail.bytes, limits: DecodeLimits())
        #expect(pixels.channels == 4)
        #expect(pixels.pixels[(80 * 320 + 40) * 4 + 3] == 255 && pixels.pixels[(80 * 320 + 300) * 4 + 3] == 0)
    }

    @Test("an opaque PNG, a WebP and a HEIC become JPEG renditions of the same picture")
    func otherFormats() throws {
        let sources: [(SourceKind, [UInt8])] = [
            (.png, try Samples.png(width: 1200, height: 900)), (.webp, Samples.webp(width: 1200, height: 900)),
            (.heif, try Samples.heic(width: 1280, height: 960)),
        ]
        for (kind, bytes) in sources {
            let made = try Rendition.make(from: bytes, kind: kind)
            let thumbnail = try #require(made.renditions.first { $0.size == .thumbnail })
            #expect(thumbnail.mimeType == "image/jpeg" && (thumbnail.width, thumbnail.height) == (320, 240), "\(kind)")
            let pixels = try decodeJPEG(thumbnail)
            #expect(isRed(Samples.colour(pixels, x: 100, y: 200)) && isBlue(Samples.colour(pixels, x: 300, y: 200)), "\(kind)")
            let display = try #require(made.renditions.first { $0.size == .display })
            #expect(max(display.width, display.height) == max(made.width, made.height), "not enlarged: \(kind)")
        }
    }

    @Test("a GIF's first frame, interlaced or not, transparent colour kept")
    func gif() throws {
        for interlaced in [false, true] {
            let bytes = Samples.gif(Samples.halves(width: 400, height: 300, alpha: true), interlaced: interlaced)
            let frame = try GIF.decode(bytes, limits: DecodeLimits())
            #expect(frame == Samples.halves(width: 400, height: 300, alpha: true).withTransparentBlack())
            let made = try Rendition.make(from: bytes, kind: .gif)
            #expect(made.renditions.allSatisfy { $0.mimeType == "image/png" })
        }
    }

    @Test("an image bomb, a truncated JPEG, a damaged HEIC and a GIF cut short are refused, not drawn")
    func hostile() throws {
        #expect(throws: ImagingError.tooManyPixels(width: 60000, height: 60000)) {
            try Rendition.make(from: Samples.pngBomb(width: 60000, height: 60000), kind: .png)
        }
        let jpeg = try Samples.jpeg(width: 1600, height: 1200)
        #expect(throws: ImagingError.self) { try Rendition.make(from: Array(jpeg.prefix(jpeg.count / 2)), kind: .jpeg) }
        let heic = try Samples.heic(width: 640, height: 480)
        var damaged = heic
        for index in stride(from: 40, to: 400, by: 3) { damaged[index] ^= 0x5A }  // its boxes, after `ftyp`
        #expect(throws: ImagingError.self) { try Rendition.make(from: damaged, kind: .heif) }
        for cut in [200, heic.count * 2 / 3] {
            #expect(throws: ImagingError.self) { try Rendition.make(from: Array(heic.prefix(cut)), kind: .heif) }
        }
        let gif = Samples.gif(Samples.halves(width: 200, height: 100))
        #expect(throws: ImagingError.self) { try Rendition.make(from: Array(gif.prefix(gif.count / 2)), kind: .gif) }
        #expect(throws: ImagingError.self) { try Rendition.make(from: Array("not an image".utf8), kind: .webp) }
    }

    @Test("a JPEG is decoded at the smallest scale that still serves the size asked for")
    func dctScaling() {
        #expect(JPEG.scaledSize(width: 4032, height: 3024, atLeast: 1600) == (2016, 1512))
        #expect(JPEG.scaledSize(width: 4032, height: 3024, atLeast: 320) == (504, 378))
        #expect(JPEG.scaledSize(width: 800, height: 600, atLeast: 1600) == (800, 600))
    }
}

extension Bitmap {
    /// Fully transparent pixels as GIF gives them back: black, alpha 0; others opaque.
    fileprivate func withTransparentBlack() -> Bitmap {
        var copy = self
        for pixel in 0..<(width * height) where copy.pixels[pixel * 4 + 3] == 0 {
            copy.pixels.replaceSubrange(pixel * 4..<pixel * 4 + 3, with: [0, 0, 0])
        }
        return copy
    }
}
