import Foundation
import Protocol
import Testing

/// SPEC §7 end to end: posts with real photos from a path and from base64, previews, dates.
@Suite struct DiaryEndToEndTests {
    /// A real PNG made by a real encoder (the DomainTests fixture, 261×3).
    static var pngPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("DomainTests/Fixtures/sample.png").path
    }

    static var gifPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("DomainTests/Fixtures/sample.gif").path
    }

    @Test func aPostWithARealPNGFromAPathAndFromBase64() throws {
        let server = try SatchelProcess()
        let base64 = try Data(contentsOf: URL(fileURLWithPath: Self.pngPath)).base64EncodedString()
        let post = try #require(server.call(request(1, "diary.create", [
            "text": "Sunset", "images": [["path": .string(Self.pngPath)], ["data": .string(base64)], ["path": .string(Self.gifPath)]],
        ]))?["result"])
        let images = try #require(post["images"]?.arrayValue)
        #expect(images.count == 3)
        #expect(images[0]["mimeType"] == "image/png")
        #expect(images[0]["width"] == 261)
        #expect(images[0]["height"] == 3)
        // The same bytes by path and by base64 are one stored image.
        #expect(images[0]["id"] == images[1]["id"])
        #expect(images[2]["mimeType"] == "image/gif")
        #expect(post["layout"] == [[0, 1], [2]])
        let fetched = server.call(request(2, "images.get", ["id": images[0]["id"]!]))?["result"]
        #expect(fetched?["data"] == .string(base64))
    }

    @Test func previewsCarryNoImageDataAndAtMostTwoThumbnails() throws {
        let server = try SatchelProcess()
        let base64 = try Data(contentsOf: URL(fileURLWithPath: Self.pngPath)).base64EncodedString()
        let text = (1...8).map { "line \($0)" }.joined(separator: "\n")
        _ = server.call(request(1, "diary.create", [
            "text": .string(text), "images": .array(Array(repeating: ["data": .string(base64)], count: 4)),
        ]))
        let line = try #require({ server.send(line: request(2, "diary.list")); return server.readLine() }())
        #expect(!line.contains(base64))
        let item = try #require((try JSONParser.parse(line))["result"]?["items"]?.arrayValue?.first)
        #expect(item["thumbnails"]?.arrayValue?.count == 2)
        #expect(item["imageCount"] == 4)
        #expect(item["truncated"] == true)
        #expect(item["excerpt"] == .string((1...5).map { "line \($0)" }.joined(separator: "\n") + "…"))
    }

    @Test func displayDatesFollowTheSessionTimeZone() throws {
        let server = try SatchelProcess(["--memory", "--time-zone", "Asia/Kolkata"])
        let post = try #require(server.call(request(1, "diary.create", ["text": "hi"]))?["result"])
        let created = try #require(post["createdAt"]?.stringValue)
        let instant = try #require(ISO8601DateFormatter.withFractions.date(from: created))
        #expect(post["displayDate"] == .string(Self.display(instant, "Asia/Kolkata")))
        _ = server.call(request(2, "initialize", ["timeZone": "America/St_Johns"]))
        let again = server.call(request(3, "diary.get", ["id": post["id"]!]))?["result"]
        #expect(again?["displayDate"] == .string(Self.display(instant, "America/St_Johns")))
    }

    @Test func validationErrorsOnTheWire() throws {
        let server = try SatchelProcess()
        let empty = server.call(request(1, "diary.create", [:]))
        #expect(empty?["error"]?["data"] == ["reason": "emptyPost", "field": "text"])
        let base64 = try Data(contentsOf: URL(fileURLWithPath: Self.pngPath)).base64EncodedString()
        let five = server.call(request(2, "diary.create", ["images": .array(Array(repeating: ["data": .string(base64)], count: 5))]))
        #expect(five?["error"]?["code"] == -32002)
        #expect(five?["error"]?["data"] == ["reason": "tooManyImages", "field": "images", "limit": 4])
        #expect(server.call(request(3, "server.info"))?["result"]?["counts"]?["images"] == 0)
    }

    static func display(_ date: Date, _ zone: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "dd/MM/yyyy HH:mm"
        return formatter.string(from: date)
    }
}

extension ISO8601DateFormatter {
    static var withFractions: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
