import Foundation
import Testing

@testable import Domain

/// A sample image in `Fixtures/` (see `Fixtures/README.md` for how each one was made) and what it really is.
struct ImageFixture: Sendable, CustomTestStringConvertible {
    let name: String
    let format: ImageFormat
    let mimeType: String
    let width: Int
    let height: Int

    var testDescription: String { name }

    /// The folder of the fixtures, found next to this source file (no bundle resources).
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    static func bytes(_ name: String) throws -> [UInt8] {
        let data = try #require(FileManager.default.contents(atPath: path(name)), "missing fixture \(name)")
        return [UInt8](data)
    }

    var path: String { Self.path(name) }

    func bytes() throws -> [UInt8] { try Self.bytes(name) }

    /// Every real image whose size the header states directly. The sizes are those the encoder was asked
    /// for and Pillow reads back; none is square, and each has one side over 255 so byte-order slips show.
    static let images: [ImageFixture] = [
        ImageFixture(name: "sample.png", format: .png, mimeType: "image/png", width: 261, height: 3),
        ImageFixture(name: "sample-baseline.jpg", format: .jpeg, mimeType: "image/jpeg", width: 5, height: 270),
        ImageFixture(name: "sample-progressive.jpg", format: .jpeg, mimeType: "image/jpeg", width: 283, height: 7),
        ImageFixture(name: "sample.gif", format: .gif, mimeType: "image/gif", width: 9, height: 290),
        ImageFixture(name: "sample-lossy.webp", format: .webp, mimeType: "image/webp", width: 301, height: 11),
        ImageFixture(name: "sample-lossless.webp", format: .webp, mimeType: "image/webp", width: 1030, height: 1100),
        ImageFixture(name: "sample-alpha.webp", format: .webp, mimeType: "image/webp", width: 23, height: 300),
        ImageFixture(name: "sample-animated.webp", format: .webp, mimeType: "image/webp", width: 270, height: 17),
        ImageFixture(name: "sample.heic", format: .heic, mimeType: "image/heic", width: 200, height: 66),
    ]

    /// A real 300x20 HEIC whose coded image the encoder padded to 300x64 (`ispe`), cropped back by `clap`.
    static let croppedHEIC = ImageFixture(
        name: "sample-cropped.heic", format: .heic, mimeType: "image/heic", width: 300, height: 20)

    static let notAnImage = "not-an-image.png"
}

@Suite struct ImageFormatTests {
    @Test(arguments: ImageFixture.images)
    func inspectReadsFormatAndSize(_ fixture: ImageFixture) throws {
        let result = try #require(ImageFormat.inspect(try fixture.bytes()))
        #expect(result.format == fixture.format)
        #expect(result.format.mimeType == fixture.mimeType)
        #expect(result.width == fixture.width)
        #expect(result.height == fixture.height)
    }

    @Test func fixturesAreDistinctNonSquareAndSmall() throws {
        var sizes: Set<[Int]> = []
        for fixture in ImageFixture.images + [ImageFixture.croppedHEIC] {
            #expect(fixture.width != fixture.height, "\(fixture.name)")
            #expect(sizes.insert([fixture.width, fixture.height]).inserted, "\(fixture.name)")
            #expect(try fixture.bytes().count < 4096, "\(fixture.name)")
        }
        // The WebP fixtures cover all three layouts.
        let chunks = try ["sample-lossy.webp", "sample-lossless.webp", "sample-alpha.webp", "sample-animated.webp"]
            .map { String(decoding: try ImageFixture.bytes($0)[12..<16], as: UTF8.self) }
        #expect(chunks == ["VP8 ", "VP8L", "VP8X", "VP8X"])
    }

    @Test func heicSizeHonoursCleanApertureCrop() throws {
        let fixture = ImageFixture.croppedHEIC
        let result = try #require(ImageFormat.inspect(try fixture.bytes()))
        #expect(result.format == .heic)
        #expect(result.width == fixture.width)
        #expect(result.height == fixture.height)
    }

    @Test func heifWithoutHEICBrandIsHEIF() throws {
        // The same real file, with its brands (major `heic`; compatible `mif1`, `heic`, `miaf`) rewritten
        // to the generic HEIF brand `mif1`.
        var bytes = try ImageFixture.bytes("sample.heic")
        #expect(Array(bytes[4..<12]) == Array("ftypheic".utf8))
        let boxSize = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        #expect(boxSize >= 20)
        for offset in stride(from: 8, to: boxSize, by: 4) where offset != 12 {
            bytes.replaceSubrange(offset..<offset + 4, with: Array("mif1".utf8))
        }
        let result = try #require(ImageFormat.inspect(bytes))
        #expect(result.format == .heif)
        #expect(result.format.mimeType == "image/heif")
        #expect(result.width == 200)
        #expect(result.height == 66)
    }

    @Test func renamedTextFileIsNotAnImage() throws {
        let bytes = try ImageFixture.bytes(ImageFixture.notAnImage)
        #expect(!bytes.isEmpty)
        #expect(ImageFormat.inspect(bytes) == nil)
    }

    @Test func emptyAndTinyInputsAreNotImages() {
        #expect(ImageFormat.inspect([]) == nil)
        #expect(ImageFormat.inspect([0x89]) == nil)
        #expect(ImageFormat.inspect([0xFF, 0xD8, 0xFF]) == nil)
        #expect(ImageFormat.inspect(Array("GIF89a".utf8)) == nil)
        #expect(ImageFormat.inspect(Array("RIFF\0\0\0\0WEBP".utf8)) == nil)
    }

    @Test(arguments: ImageFixture.images + [ImageFixture.croppedHEIC])
    func truncatedToTenBytesIsNotAnImage(_ fixture: ImageFixture) throws {
        let bytes = try fixture.bytes()
        #expect(ImageFormat.inspect(Array(bytes.prefix(10))) == nil)
    }

    @Test(arguments: ImageFixture.images + [ImageFixture.croppedHEIC])
    func everyPrefixIsNilOrTheWholeAnswer(_ fixture: ImageFixture) throws {
        let bytes = try fixture.bytes()
        let whole = try #require(ImageFormat.inspect(bytes))
        for length in 0..<bytes.count {
            if let partial = ImageFormat.inspect(Array(bytes.prefix(length))) {
                #expect(
                    partial.format == whole.format && partial.width == whole.width && partial.height == whole.height,
                    "\(fixture.name) cut to \(length) bytes")
            }
        }
    }

    @Test func magicBytesWinOverTheClaimedType() throws {
        let store = try DataStore(path: nil, settings: DomainSettings(), clock: ManualClock(), ids: SequentialIDGenerator())
        let png = try ImageFixture.bytes("sample.png")
        let prepared = try store.images.prepare(
            .data(base64: Data(png).base64EncodedString(), claimedMimeType: "image/gif"), field: "image")
        guard case .new(let bytes, let format, let width, let height, _, _) = prepared else {
            Issue.record("expected a new image, got \(prepared)")
            return
        }
        #expect(bytes == png)
        #expect(format == .png)
        #expect(format.mimeType == "image/png")
        #expect(width == 261)
        #expect(height == 3)
        let photo = try store.photos.add(
            image: .data(base64: Data(png).base64EncodedString(), claimedMimeType: "image/gif"), caption: nil)
        #expect(photo.image.mimeType == "image/png")
    }

    @Test func mimeTypes() {
        #expect(ImageFormat.png.mimeType == "image/png")
        #expect(ImageFormat.jpeg.mimeType == "image/jpeg")
        #expect(ImageFormat.gif.mimeType == "image/gif")
        #expect(ImageFormat.webp.mimeType == "image/webp")
        #expect(ImageFormat.heic.mimeType == "image/heic")
        #expect(ImageFormat.heif.mimeType == "image/heif")
    }
}
