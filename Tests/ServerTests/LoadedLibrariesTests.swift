import Foundation
import Protocol
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Satchel starts with only what answering needs: the libraries behind time zones (ICU), HTTP feeds
/// (libcurl and its TLS), sync (libpq, libsodium) and HEIC photos (libheif) are loaded when first used, not at start.
@Suite struct LoadedLibrariesTests {
    /// The file names of the shared libraries mapped into a process.
    static func libraries(of pid: pid_t) throws -> Set<String> {
        // /proc files say they are empty: read until the end rather than by their size.
        let descriptor = open("/proc/\(pid)/maps", O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while case let count = read(descriptor, &chunk, chunk.count), count > 0 { bytes += chunk[..<count] }
        let maps = String(decoding: bytes, as: UTF8.self)
        return Set(maps.split(separator: "\n").compactMap { line in
            guard let path = line.split(separator: " ", omittingEmptySubsequences: true).last, path.contains(".so") else { return nil }
            return String(path.split(separator: "/").last!)
        })
    }

    static let loadedOnDemand = [
        "libpq.", "libsodium.", "libcurl.", "libheif.", "libssl.", "libgnutls.", "libkrb5.", "libldap", "libicu", "lib_FoundationICU.",
        "libFoundation.", "libFoundationInternationalization.", "libFoundationNetworking.",
    ]

    static func present(_ prefixes: [String], in libraries: Set<String>) -> [String] {
        prefixes.filter { prefix in libraries.contains { $0.hasPrefix(prefix) } }
    }

    @Test func answeringAPingLoadsNoneOfThem() throws {
        let server = try SatchelProcess(["--memory", "--time-zone", "America/St_Johns"])
        #expect(server.call(request(1, "ping"))?["result"] == [:])
        #expect(server.call(request(2, "initialize", ["timeZone": "Asia/Kolkata"]))?["result"]?["timeZone"] == "Asia/Kolkata")
        #expect(Self.present(Self.loadedOnDemand, in: try Self.libraries(of: server.pid)) == [])
    }

    @Test func theFirstFeedRequestLoadsLibcurl() throws {
        let feed = try MessagesFeedTests.FeedServer(["3"])
        let server = try SatchelProcess(["--memory", "--messages-feed", feed.url])
        #expect(server.call(request(1, "ping"))?["result"] == [:])
        #expect(Self.present(["libcurl."], in: try Self.libraries(of: server.pid)) == [])
        #expect(MessagesFeedTests.loadMore(server, 2)?["result"]?["items"]?.arrayValue?.count == 3)
        #expect(Self.present(["libcurl."], in: try Self.libraries(of: server.pid)) == ["libcurl."])
        #expect(Self.present(["libpq.", "libheif."], in: try Self.libraries(of: server.pid)) == [])
    }

    /// libheif (a C++ library) is loaded beside the C++ runtime a release satchel carries in itself.
    @Test func theFirstHEICPhotoLoadsLibheifAndIsDrawn() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../DomainTests/Fixtures/sample.heic")
        let heic = try Data(contentsOf: fixture)
        let server = try SatchelProcess(["--memory"])
        #expect(server.call(request(1, "ping"))?["result"] == [:])
        #expect(Self.present(["libheif."], in: try Self.libraries(of: server.pid)) == [])
        let created = server.call(request(2, "diary.create", ["images": [["data": .string(heic.base64EncodedString())]]]))
        let image = try #require(created?["result"]?["images"]?.arrayValue?.first)
        #expect(image["mimeType"] == "image/heic" && image["width"] == 200 && image["height"] == 66)
        let thumbnail = server.call(request(3, "images.get", ["id": try #require(image["id"]), "size": "thumbnail"]))
        #expect(thumbnail?["result"]?["rendition"]?["mimeType"] == "image/jpeg")
        #expect(thumbnail?["result"]?["rendition"]?["width"] == 200)
        #expect(Self.present(["libheif."], in: try Self.libraries(of: server.pid)) == ["libheif."])
    }

    @Test func syncLoadsLibpq() throws {
        // Nobody listens on port 9: the sync round fails, but satchel serves on and says why.
        let server = try SatchelProcess(["--memory", "--sync", "postgresql://alice@127.0.0.1:9/satchel"])
        #expect(server.call(request(1, "ping"))?["result"] == [:])
        #expect(Self.present(["libpq."], in: try Self.libraries(of: server.pid)) == ["libpq."])
    }
}
