import Foundation
import Protocol
import Testing

/// Random requests that name files, against the real binary, confined to a temporary folder by
/// `--files-root` (with `HOME` there too): whatever the mix of methods, paths (existing files, new names,
/// `..`, links pointing out, paths outside) and `overwrite` flags, a file changes only when an export that
/// said `overwrite: true` named it, and nothing outside the folder changes at all.
@Suite struct RandomPathTests {
    /// Every regular file below `folder` (links not followed) with its bytes.
    static func snapshot(_ folder: String) -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let name = enumerator?.nextObject() as? String {
            let path = folder + "/" + name
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            files[path] = FileManager.default.contents(atPath: path)
        }
        return files
    }

    @Test func randomFileRequestsReplaceOnlyWhatTheyWereToldToAndStayInsideTheRoot() throws {
        try ExchangeFileTests.withFolder { folder in
            let base = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
            let root = base + "/root"
            let outside = base + "/outside"
            for place in [root, root + "/sub", outside] {
                try FileManager.default.createDirectory(atPath: place, withIntermediateDirectories: false)
            }
            try "my thesis".write(toFile: root + "/thesis.txt", atomically: false, encoding: .utf8)
            try "alias ll='ls -l'".write(toFile: root + "/.bashrc", atomically: false, encoding: .utf8)
            try "secret".write(toFile: outside + "/secret.txt", atomically: false, encoding: .utf8)
            try FileManager.default.copyItem(atPath: DiaryEndToEndTests.pngPath, toPath: root + "/photo.png")
            try FileManager.default.createSymbolicLink(atPath: root + "/out", withDestinationPath: outside)
            try FileManager.default.createSymbolicLink(atPath: root + "/to-secret", withDestinationPath: outside + "/secret.txt")
            let server = try SatchelProcess(["--memory", "--demo", "--files-root", root], environment: ["HOME": root])
            #expect(server.call(request(0, "export", ["path": .string(root + "/export.json")]))?["result"] != nil)

            let names = [
                "thesis.txt", ".bashrc", "photo.png", "export.json", "new.json", "sub/new.json", "sub", "out/secret.txt",
                "out/new.json", "to-secret", "../outside/secret.txt", "../outside/new.json", "sub/../thesis.txt",
                "missing/x.json", "", ".",
            ]
            let absolute = ["/etc/passwd", "/etc/hostname", outside + "/secret.txt", "relative.json", "~/.bashrc"]
            var state: UInt64 = 0x5EED_1234
            func next(_ bound: Int) -> Int {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int((state >> 33) % UInt64(bound))
            }
            let watched = [root, outside]
            let system = ["/etc/passwd", "/etc/hostname"].map { FileManager.default.contents(atPath: $0) }
            for id in 1...300 {
                let path = next(4) == 0 ? absolute[next(absolute.count)] : root + "/" + names[next(names.count)]
                let before = watched.map(Self.snapshot)
                var params: JSONObject = [:]
                let method: String
                switch next(5) {
                case 0, 1:
                    method = "export"
                    params["path"] = .string(path)
                    switch next(3) {
                    case 0: params["overwrite"] = true
                    case 1: params["overwrite"] = false
                    default: break
                    }
                case 2:
                    method = "import"
                    params = ["path": .string(path), "mode": next(2) == 0 ? "merge" : "replace"]
                case 3:
                    method = "photos.add"
                    params["image"] = ["path": .string(path)]
                default:
                    method = "diary.create"
                    params["images"] = [["path": .string(path)]]
                }
                let answer = try #require(server.call(request(id, method, .object(params))), "\(method) \(params)")
                let after = watched.map(Self.snapshot)
                let replaced = method == "export" && params["overwrite"] == true && answer["result"] != nil
                for (old, new) in zip(before, after) {
                    for (file, bytes) in old where new[file] != bytes {
                        let named = URL(fileURLWithPath: path).standardizedFileURL.path
                        #expect(replaced && file == named, "\(file) changed by \(method) \(params)")
                    }
                }
                #expect(after[1] == before[1], "nothing outside the root changes")
            }
            #expect(["/etc/passwd", "/etc/hostname"].map { FileManager.default.contents(atPath: $0) } == system)
            #expect(try String(contentsOfFile: outside + "/secret.txt", encoding: .utf8) == "secret")
        }
    }
}
