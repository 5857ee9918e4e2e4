import Foundation
import Testing

@testable import Domain

/// Which files a request may use: paths are resolved as the system resolves them (links and `..` followed)
/// before they are checked against the folders, and an export never replaces what it was not told to.
@Suite struct FileAccessTests {
    /// A temporary folder (resolved: on some systems the temporary folder is itself reached by a link)
    /// holding `inside/`, `outside/secret.txt`, and `inside/out`, a link to `outside`.
    static func withFolders<T>(_ body: (_ inside: String, _ outside: String) throws -> T) throws -> T {
        try DomainTestSupport.withTemporaryDirectory { folder in
            let base = FileAccess.resolved(folder)
            let inside = base + "/inside"
            let outside = base + "/outside"
            try FileManager.default.createDirectory(atPath: inside, withIntermediateDirectories: false)
            try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: false)
            try "secret".write(toFile: outside + "/secret.txt", atomically: false, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: inside + "/out", withDestinationPath: outside)
            return try body(inside, outside)
        }
    }

    @Test func unrestrictedAccessHandsEveryPathBackAsItIs() throws {
        for path in ["/etc/passwd", "relative.json", "/a/../b", "/tmp/x/"] {
            #expect(try FileAccess.anywhere.readable(path, field: "path") == path)
            #expect(try FileAccess.anywhere.writable(path, field: "path") == path)
        }
    }

    @Test func pathsAreResolvedThroughLinksAndDotDotBeforeTheCheck() throws {
        try Self.withFolders { (inside: String, outside: String) throws in
            let access = FileAccess.anywhere.restricted(to: [inside], scope: .clientRoots)
            #expect(try access.readable(inside + "/./a/../b.json", field: "path") == inside + "/b.json")
            #expect(try access.writable(inside + "/new.json", field: "path") == inside + "/new.json")
            #expect(try access.readable(inside, field: "path") == inside)
            let escapes = [
                outside + "/secret.txt", inside + "/../outside/secret.txt", inside + "/out/secret.txt",
                inside + "/out/missing/../secret.txt", inside + "/missing/../../outside/secret.txt",
                inside + "x/secret.txt", "/etc",
            ]
            for path in escapes {
                #expect(throws: DomainError.validation(reason: .outsideClientRoots, field: "image.path"), "\(path)") {
                    try access.readable(path, field: "image.path")
                }
                #expect(throws: DomainError.validation(reason: .outsideClientRoots, field: "path"), "\(path)") {
                    try access.writable(path, field: "path")
                }
            }
            #expect(throws: DomainError.validation(reason: .outsideClientRoots, field: "path")) {
                try access.readable("/", field: "path")
            }
            #expect(throws: DomainError.validation(reason: .invalidPath, field: "path")) {
                try access.writable(inside + "/", field: "path")
            }
            // The name itself is never resolved for a write: a link there stays a link (the export refuses it).
            #expect(try access.writable(inside + "/out", field: "path") == inside + "/out")
            #expect(throws: DomainError.validation(reason: .invalidPath, field: "path")) {
                try access.writable(inside + "/out/..", field: "path")
            }
        }
    }

    @Test func everySetOfFoldersMustHoldThePathAndEachRefusalSaysWhose() throws {
        try Self.withFolders { (inside: String, outside: String) throws in
            let server = FileAccess.anywhere.restricted(to: [inside, outside], scope: .serverRoots)
            #expect(try server.readable(outside + "/secret.txt", field: "path") == outside + "/secret.txt")
            #expect(throws: DomainError.validation(reason: .outsideFilesRoot, field: "path")) {
                try server.readable("/etc/hostname", field: "path")
            }
            let tool = server.restricted(to: [inside], scope: .clientRoots)
            #expect(throws: DomainError.validation(reason: .outsideClientRoots, field: "path")) {
                try tool.readable(outside + "/secret.txt", field: "path")
            }
            let none = FileAccess.none(.clientRoots)
            #expect(throws: DomainError.validation(reason: .noFileAccess, field: "path")) {
                try none.writable(inside + "/a.json", field: "path")
            }
            // A root given through a link is the folder it names.
            let viaLink = FileAccess.anywhere.restricted(to: [inside + "/out"], scope: .clientRoots)
            #expect(try viaLink.readable(outside + "/secret.txt", field: "path") == outside + "/secret.txt")
        }
    }

    @Test func anExportWithoutOverwriteNeverReplacesAFileThatAppearedMeanwhile() throws {
        try DomainTestSupport.withTemporaryDirectory { folder in
            let path = folder + "/export.json"
            let output = try ExchangeFileOutput(path: path)
            try Array("{}".utf8).withUnsafeBytes { try output.write($0) }
            try "made meanwhile".write(toFile: path, atomically: false, encoding: .utf8)
            #expect(throws: DomainError.validation(reason: .fileExists, field: "path")) { try output.finish() }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "made meanwhile")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["export.json"], "no temporary file")

            #expect(throws: DomainError.validation(reason: .fileExists, field: "path")) {
                try ExchangeFileOutput(path: path)
            }
            let replacing = try ExchangeFileOutput(path: path, overwrite: true)
            try Array("{}".utf8).withUnsafeBytes { try replacing.write($0) }
            try replacing.finish()
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "{}")
        }
    }
}
