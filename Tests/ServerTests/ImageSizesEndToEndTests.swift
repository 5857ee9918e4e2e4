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

/// SPEC §6: an image larger than one message, uploaded in chunks and then used as `{uploadId}`.
@Suite struct ImageUploadEndToEndTests {
    private func append(_ server: SatchelProcess, _ id: JSONValue, _ offset: Int, _ bytes: ArraySlice<UInt8>) -> JSONValue? {
        server.call(
            request(
                7, "images.appendUpload",
                ["uploadId": id, "offset": .integer(Int64(offset)), "data": .string(Data(bytes).base64EncodedString())]))
    }

    @Test func aPhotoLargerThanOneMessageArrivesInChunksAndIsStoredWhole() throws {
        let server = try SatchelProcess(["--memory", "--max-message-bytes", "131072"])
        let photo = try ImageSizesEndToEndTests.portraitPhoto()
        #expect(photo.count > 131_072, "the photo does not fit in one message")
        let inline = server.call(
            request(1, "photos.add", ["image": ["data": .string(Data(photo).base64EncodedString())]]))
        #expect(inline?["error"] != nil)
        let begun = try #require(server.call(request(2, "images.beginUpload", ["byteSize": .integer(Int64(photo.count))]))?["result"])
        let id = try #require(begun["uploadId"])
        let chunk = Int(try #require(begun["chunkBytes"]?.integerValue))
        #expect(chunk <= 131_072 / 4)
        var offset = 0
        var answers: [JSONValue] = []
        while offset < photo.count {
            let end = min(photo.count, offset + chunk)
            answers.append(try #require(append(server, id, offset, photo[offset..<end])?["result"]))
            if offset == 0 {  // the first chunk again, as after a lost answer: accepted, nothing doubled
                #expect(append(server, id, 0, photo[0..<end])?["result"]?["received"]?.integerValue == Int64(end))
            }
            offset = end
        }
        #expect(answers.map { $0["received"]?.integerValue ?? 0 } == stride(from: chunk, through: photo.count + chunk - 1, by: chunk).map { Int64(min($0, photo.count)) })
        let finished = try #require(server.call(request(3, "images.finishUpload", ["uploadId": id]))?["result"])
        #expect(finished["finished"] == true && finished["mimeType"] == "image/jpeg")
        let added = try #require(server.call(request(4, "photos.add", ["image": ["uploadId": id]]))?["result"])
        #expect(added["image"]?["byteSize"]?.integerValue == Int64(photo.count))
        #expect(added["image"]?["width"] == 3024 && added["image"]?["height"] == 4032)
        let original = server.call(request(5, "images.get", ["id": try #require(added["image"]?["id"])]))?["result"]
        #expect(original?["data"] == .string(Data(photo).base64EncodedString()))
        // Used: the upload is let go (the image is reused by its id from now on).
        #expect(server.call(request(6, "images.finishUpload", ["uploadId": id]))?["error"]?["code"] == -32001)
    }

    @Test func aBadChunkSequenceAnAbandonedUploadAndANonImageGetClearErrorsAndLeaveNothing() throws {
        let server = try SatchelProcess(["--memory", "--max-message-bytes", "65536"])
        let bytes = [UInt8](repeating: 7, count: 40_000)
        let id = try #require(server.call(request(1, "images.beginUpload", ["byteSize": 40_000]))?["result"]?["uploadId"])
        #expect(append(server, id, 0, bytes[0..<10_000])?["result"]?["received"] == 10_000)
        let gap = append(server, id, 20_000, bytes[20_000..<30_000])?["error"]
        #expect(gap?["code"] == -32002 && gap?["data"]?["reason"] == "uploadOffset" && gap?["data"]?["limit"] == 10_000)
        let different = append(server, id, 0, ArraySlice([UInt8](repeating: 9, count: 10_000)))?["error"]
        #expect(different?["data"]?["reason"] == "uploadOffset", "a resent chunk must match what arrived")
        let tooLong = append(server, id, 10_000, ArraySlice([UInt8](repeating: 7, count: 20_000)))?["error"]
        #expect(tooLong?["data"]?["reason"] == "chunkTooLarge")
        let early = server.call(request(2, "images.finishUpload", ["uploadId": id]))?["error"]
        #expect(early?["data"]?["reason"] == "uploadIncomplete" && early?["data"]?["limit"] == 10_000)
        let unfinished = server.call(request(3, "photos.add", ["image": ["uploadId": id]]))?["error"]
        #expect(unfinished?["data"]?["reason"] == "uploadIncomplete" && unfinished?["data"]?["field"] == "image.uploadId")
        _ = append(server, id, 10_000, bytes[10_000..<15_000])
        _ = append(server, id, 15_000, bytes[15_000..<30_000].prefix(15_000))
        _ = append(server, id, 30_000, bytes[30_000..<40_000])
        let notAnImage = server.call(request(4, "images.finishUpload", ["uploadId": id]))?["error"]
        #expect(notAnImage?["data"]?["reason"] == "unsupportedImage")
        #expect(server.call(request(5, "images.discardUpload", ["uploadId": id]))?["error"]?["code"] == -32001, "dropped")
        let other = try #require(server.call(request(6, "images.beginUpload", ["byteSize": 10]))?["result"]?["uploadId"])
        #expect(server.call(request(7, "images.discardUpload", ["uploadId": other]))?["result"]?["discarded"] == true)
        #expect(append(server, other, 0, bytes[0..<10])?["error"]?["code"] == -32001)
        for number in 0..<8 { _ = server.call(request(10 + number, "images.beginUpload", ["byteSize": 10])) }
        let ninth = server.call(request(20, "images.beginUpload", ["byteSize": 10]))?["error"]
        #expect(ninth?["data"]?["reason"] == "tooManyUploads")
        let huge = server.call(request(21, "images.beginUpload", ["byteSize": .integer(21 << 20)]))?["error"]
        #expect(huge?["data"]?["reason"] == "imageTooLarge")
        #expect(server.call(request(22, "server.info"))?["result"]?["counts"]?["images"] == 0)
    }
}
