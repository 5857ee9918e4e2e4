#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who a process is, in a way that survives pid reuse: its pid plus its start time (Linux `/proc`).
struct ProcessIdentity: Equatable {
    var pid: Int32
    /// The start time in clock ticks since boot, as `/proc/PID/stat` gives it; empty where there is no /proc.
    var start: String

    static let current = ProcessIdentity(pid: getpid(), start: startTime(of: getpid()) ?? "")

    /// Whether the process that this identity names is still running (a zombie counts as gone).
    var isAlive: Bool {
        if let fields = Self.statFields(of: pid) {
            // Field 3 is the state; 22 the start time (1-based, counting from the pid).
            let state = fields.count > 0 ? fields[0] : ""
            if state == "Z" || state == "X" { return false }
            return start.isEmpty || (fields.count > 19 && fields[19] == start)
        }
        if FileManager.default.fileExists(atPath: "/proc/self/stat") { return false }
        // Without /proc, ask the kernel whether the pid exists at all.
        return kill(pid, 0) == 0 || errno == EPERM
    }

    private static func startTime(of pid: Int32) -> String? {
        guard let fields = statFields(of: pid), fields.count > 19 else { return nil }
        return fields[19]
    }

    /// The fields of `/proc/PID/stat` after the command name (which may itself hold spaces and parentheses).
    private static func statFields(of pid: Int32) -> [String]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        return text[text.index(after: close)...].split(separator: " ").map(String.init)
    }
}
