import Foundation
import Imaging
import Protocol
import Testing

/// SPEC §6 end to end: a phone's photo stored once and served at three sizes, upright; damaged images and
/// image bombs refused with their reason while the server goes on serving.
@Suite struct ImageSizesEndToEndTests {
    /// A 12-megapixel JPEG, its left half red, taken in portrait (EXIF orientation 6).
    static func portraitPhoto() throws -> [UInt8] {
        let (width, height) = (4032, 3024)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let at = (y * width + x) * 3
                (pixels[at], pixels[at + 2]) = x < width / 2 ? (220, 20) : (20, 220)
            }
        }
        let plain = try JPEG.encode(Bitmap(width: width, height: height, channels: 3, pixels: pixels), quality: 90)
        let tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0]
        let payload = Array("Exif\0\0".utf8) + tiff
        return [0xFF, 0xD8, 0xFF, 0xE1, 0, UInt8(payload.count + 2)] + payload + plain.dropFirst(2)
    }

    @Test func aPhotoIsServedUprightAsThumbnailDisplayAndTheUntouchedOriginal() throws {
        let server = try SatchelProcess()
        let photo = try Self.portraitPhoto()
        let created = server.call(
            request(1, "diary.create", ["images": [["data": .string(Data(photo).base64EncodedString())]]]))
        let image = try #require(created?["result"]?["images"]?.arrayValue?.first)
        #expect(image["width"] == 3024 && image["height"] == 4032)
        #expect(image["sizes"] == ["thumbnail", "display", "original"])
        let id = try #require(image["id"])
        for (size, width, height) in [("thumbnail", 240, 320), ("display", 1200, 1600)] {
            let answer = try #require(server.call(request(2, "images.get", ["id": id, "size": .string(size)]))?["result"])
            #expect(answer["rendition"]?["mimeType"] == "image/jpeg", "\(size)")
            #expect(answer["rendition"]?["width"]?.integerValue == Int64(width), "\(size)")
            #expect(answer["rendition"]?["height"]?.integerValue == Int64(height), "\(size)")
            let bytes = [UInt8](try #require(Data(base64Encoded: answer["data"]?.stringValue ?? "")))
            #expect(answer["rendition"]?["byteSize"]?.integerValue == Int64(bytes.count))
            let decoded = try JPEG.decode(bytes, atLeast: .max, limits: DecodeLimits()).bitmap
            #expect((decoded.width, decoded.height) == (width, height), "\(size)")
            // Turned upright: the red (left) half of the sensor is now on top.
            let top = decoded.pixels[(height / 4 * width + width / 2) * 3]
            let bottom = decoded.pixels[(height * 3 / 4 * width + width / 2) * 3]
            #expect(top > 150 && bottom < 90, "\(size)")
            #expect(Orientation.ofJPEG(bytes) == .up && bytes.count < photo.count / 4, "no EXIF kept: \(size)")
        }
        let original = server.call(request(3, "images.get", ["id": id]))?["result"]
        #expect(original?["data"] == .string(Data(photo).base64EncodedString()))
        #expect(original?["rendition"]?["size"] == "original" && original?["rendition"]?["mimeType"] == "image/jpeg")
        let unknown = server.call(request(4, "images.get", ["id": id, "size": "huge"]))
        #expect(unknown?["error"]?["code"] == -32602)
    }

    @Test func damagedImagesAndImageBombsAreRefusedAndNothingIsStored() throws {
        let server = try SatchelProcess()
        let photo = try Self.portraitPhoto()
        var bomb: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let header: [UInt8] = Array("IHDR".utf8) + [0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60, 8, 6, 0, 0, 0]  // 60000×60000
        bomb += [0, 0, 0, 13] + header + crc(header)
        let data: [UInt8] = Array("IDAT".utf8) + [0x78, 0x9C, 0x03, 0x00]  // a stub: the header alone is refused
        bomb += [0, 0, 0, 4] + data + crc(data)
        bomb += [0, 0, 0, 0] + Array("IEND".utf8) + crc(Array("IEND".utf8))
        let cases: [([UInt8], String)] = [
            (Array(photo.prefix(photo.count / 2)), "damagedImage"), (bomb, "imageTooManyPixels"),
        ]
        for (number, (bytes, reason)) in cases.enumerated() {
            let answer = server.call(
                request(number + 1, "photos.add", ["image": ["data": .string(Data(bytes).base64EncodedString())]]))
            #expect(answer?["error"]?["code"] == -32002, "\(reason)")
            #expect(answer?["error"]?["data"]?["reason"] == .string(reason))
            #expect(answer?["error"]?["data"]?["field"] == "image")
        }
        #expect(server.call(request(9, "server.info"))?["result"]?["counts"]?["images"] == 0)
        #expect(server.call(request(10, "ping"))?["result"] == [:])
    }

    private func crc(_ bytes: [UInt8]) -> [UInt8] {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return [24, 16, 8, 0].map { UInt8((~crc >> $0) & 0xFF) }
    }
}
