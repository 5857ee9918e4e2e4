import Foundation
import Testing

@testable import RPCServer

/// SPEC §12: the command line, both parsed in-process and through the real binary.
@Suite struct CommandLineTests {
    @Test func badFlagsPrintOneLineAndExitTwo() throws {
        for arguments in [
            ["--bogus"], ["--locale", "fr"], ["--time-zone", "Nowhere/Land"], ["--max-message-bytes", "x"],
            ["--log-level", "loud"], ["--db"], ["--db", "a.sqlite", "--memory"], ["stray"],
        ] {
            let server = try SatchelProcess(arguments)
            #expect(server.waitForExit() == 2, "\(arguments)")
            let errorText = server.standardError()
            #expect(errorText.split(separator: "\n").count == 1, "\(arguments): \(errorText)")
            #expect(server.readLine(timeout: 1) == nil, "\(arguments) wrote to stdout")
        }
    }

    @Test func versionAndHelpExitZero() throws {
        let version = try SatchelProcess(["--version"])
        #expect(version.readLine()?.hasPrefix("satchel ") == true)
        #expect(version.waitForExit() == 0)
        let help = try SatchelProcess(["--help"])
        #expect(help.readAllLines(timeout: 5).contains { $0.contains("--max-message-bytes") })
        #expect(help.waitForExit() == 0)
    }

    @Test func flagsAcceptSeparateAndInlineValues() throws {
        let separate = try CommandLineOptions.parse(["--locale", "ja", "--max-message-bytes", "4096"], environment: [:])
        let inline = try CommandLineOptions.parse(["--locale=ja", "--max-message-bytes=4096"], environment: [:])
        for request in [separate, inline] {
            guard case .serve(let configuration) = request else {
                Issue.record("expected to serve")
                continue
            }
            #expect(configuration.language == .japanese)
            #expect(configuration.maximumMessageBytes == 4096)
        }
    }

    @Test func defaultDatabasePathFollowsTheEnvironment() throws {
        #expect(DatabaseLocation.defaultPath(environment: ["SATCHEL_DB": "/x/y.sqlite", "HOME": "/h"]) == "/x/y.sqlite")
        #expect(
            DatabaseLocation.defaultPath(environment: ["XDG_DATA_HOME": "/data", "HOME": "/h"])
                == "/data/satchel/satchel.sqlite")
        #expect(DatabaseLocation.defaultPath(environment: ["HOME": "/h"]) == "/h/.local/share/satchel/satchel.sqlite")
        guard case .serve(let configuration) = try CommandLineOptions.parse([], environment: ["SATCHEL_DB": "/x/y.sqlite"])
        else {
            Issue.record("expected to serve")
            return
        }
        #expect(configuration.database == .file("/x/y.sqlite"))
    }

    @Test func memoryFlagSelectsAnInMemoryDatabase() throws {
        guard case .serve(let configuration) = try CommandLineOptions.parse(["--memory"], environment: [:]) else {
            Issue.record("expected to serve")
            return
        }
        #expect(configuration.database == .memory)
    }

    /// The binary reads the variables SPEC §12 names (and TZ) from its own environment, not only `parse`.
    @Test func theProcessTakesItsDatabaseAndZoneFromItsEnvironment() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("env-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let explicit = folder + "/explicit.sqlite"
        let named = try SatchelProcess([], environment: ["SATCHEL_DB": explicit, "TZ": "Asia/Kolkata"])
        #expect(named.call(request(1, "initialize", [:]))?["result"]?["timeZone"] == "Asia/Kolkata")
        #expect(FileManager.default.fileExists(atPath: explicit))
        let byDataHome = try SatchelProcess(
            [], environment: ["SATCHEL_DB": "", "XDG_DATA_HOME": folder + "/data", "TZ": "America/St_Johns"])
        #expect(byDataHome.call(request(1, "initialize", [:]))?["result"]?["timeZone"] == "America/St_Johns")
        #expect(FileManager.default.fileExists(atPath: folder + "/data/satchel/satchel.sqlite"))
        let byHome = try SatchelProcess([], environment: ["SATCHEL_DB": "", "XDG_DATA_HOME": "", "HOME": folder + "/home"])
        #expect(byHome.call(request(1, "ping"))?["result"] == [:])
        #expect(FileManager.default.fileExists(atPath: folder + "/home/.local/share/satchel/satchel.sqlite"))
    }
}
