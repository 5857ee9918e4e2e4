import Foundation
import Imaging

/// Renditions of phone-size photos: a 12-megapixel JPEG to a thumbnail (libjpeg-turbo decoding at 1/8),
/// both renditions of a JPEG and of a HEIC, and `diary.create` with four such photos against one without.
enum PhotoBenchmark {
    /// A 4032×3024 picture with detail everywhere (a gradient under a fine pattern), as a camera's would be.
    static func photo(width: Int = 4032, height: Int = 3024) -> Bitmap {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let at = (y * width + x) * 3
                pixels[at] = UInt8(truncatingIfNeeded: x * 255 / width ^ (y & 7) << 3)
                pixels[at + 1] = UInt8(truncatingIfNeeded: y * 255 / height ^ (x & 15) << 2)
                pixels[at + 2] = UInt8(truncatingIfNeeded: (x + y) & 0xFF)
            }
        }
        return Bitmap(width: width, height: height, channels: 3, pixels: pixels)
    }

    /// Milliseconds of `body`, the median of `runs`.
    static func milliseconds(runs: Int = 7, _ body: () throws -> Void) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return times.sorted()[runs / 2]
    }

    static func run(binary: URL, compare: [URL], heic: [UInt8]?) throws {
        report("## Photos: renditions of 12-megapixel images")
        report("")
        let jpeg = try JPEG.encode(photo(), quality: 92)
        let limits = DecodeLimits()
        let thumbnail = try milliseconds {
            let (bitmap, _, _) = try JPEG.decode(jpeg, atLeast: 320, limits: limits)
            _ = try JPEG.encode(bitmap.scaled(toFit: 320), quality: 80)
        }
        let full = try milliseconds { _ = try JPEG.decode(jpeg, atLeast: .max, limits: limits) }
        let both = try milliseconds { _ = try Rendition.make(from: jpeg, kind: .jpeg) }
        report("| work (4032×3024) | median of 7 |")
        report("| --- | --- |")
        report("| JPEG (\(formatted(Double(jpeg.count) / 1e6)) MB) to a 320 px thumbnail: decode at 1/8, scale, encode | \(formatted(thumbnail)) ms |")
        report("| JPEG: a full decode, for comparison | \(formatted(full)) ms |")
        report("| JPEG: both renditions (one decode at 1/2; display 1600 px and thumbnail) | \(formatted(both)) ms |")
        if let heic {
            let heicBoth = try milliseconds(runs: 3) { _ = try Rendition.make(from: heic, kind: .heif) }
            report("| HEIC (\(formatted(Double(heic.count) / 1e6)) MB): both renditions (a full decode) | \(formatted(heicBoth)) ms (median of 3) |")
        }
        report("")
        try diaryCreate(binary: binary, compare: compare, jpeg: jpeg)
    }

    /// `diary.create` with four 12 MP photos (each a different image) and a `ping` sent right behind it,
    /// against a text-only post, one at a time; round by round against each of `compare` (other builds).
    static func diaryCreate(binary: URL, compare: [URL], jpeg: [UInt8]) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("satchel-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let builds = [("this build", binary)] + compare.map { ("--compare \($0.path)", $0) }
        let servers = try builds.enumerated().map { index, build in
            try PipeBenchmark.Server(
                binary: build.1, arguments: ["--db", folder.appendingPathComponent("p\(index).sqlite").path])
        }
        var photoTimes = Array(repeating: [Double](), count: builds.count)
        var behindTimes = photoTimes
        var textTimes = photoTimes
        for round in 0..<6 {
            // A comment segment after the start makes each copy a distinct image without changing its pixels.
            let images = (0..<4).map { slot -> String in
                let marker = Array("photo \(round)-\(slot)".utf8)
                let bytes = [0xFF, 0xD8, 0xFF, 0xFE, 0, UInt8(marker.count + 2)] + marker + jpeg.dropFirst(2)
                return #"{"data":"\#(Data(bytes).base64EncodedString())"}"#
            }
            let withPhotos = #"{"jsonrpc":"2.0","id":1,"method":"diary.create","params":{"text":"x","images":[\#(images.joined(separator: ","))]}}"#
            // Builds take turns going first, so neither always runs on a machine the other just warmed or loaded.
            for index in round % 2 == 0 ? Array(servers.indices) : Array(servers.indices.reversed()) {
                let server = servers[index]
                let start = DispatchTime.now().uptimeNanoseconds
                server.send(withPhotos + "\n" + #"{"jsonrpc":"2.0","id":2,"method":"ping"}"# + "\n")
                let answer = server.readLine()
                let created = DispatchTime.now().uptimeNanoseconds
                _ = server.readLine()
                let pinged = DispatchTime.now().uptimeNanoseconds
                guard answer.starts(with: Array(#"{"jsonrpc":"2.0","id":1,"result""#.utf8)) else {
                    fatalError("diary.create failed: \(String(decoding: answer.prefix(300), as: UTF8.self))")
                }
                photoTimes[index].append(Double(created - start) / 1e6)
                behindTimes[index].append(Double(pinged - start) / 1e6)
                textTimes[index].append(
                    server.roundTrip(#"{"jsonrpc":"2.0","id":3,"method":"diary.create","params":{"text":"a walk"}}"#)
                        .microseconds / 1000)
            }
        }
        servers.forEach { $0.finish() }
        let megabytes = formatted(Double(jpeg.count * 4) / 1e6)
        report("`diary.create` one at a time, median of 6 (\(megabytes) MB of JPEG, in base64's 4/3):")
        report("")
        report("| build | four 12 MP JPEGs | a `ping` sent right behind it | text only |")
        report("| --- | --- | --- | --- |")
        for (index, build) in builds.enumerated() {
            let median = { (times: [Double]) in formatted(times.sorted()[times.count / 2]) + " ms" }
            report("| \(build.0) | \(median(photoTimes[index])) | \(median(behindTimes[index])) | \(median(textTimes[index])) |")
        }
        report("")
    }
}
