#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How much the server says on stderr.
enum LogLevel: Int, Comparable, CaseIterable, Sendable {
    case error, warn, info, debug

    init?(name: String) {
        guard let level = Self.allCases.first(where: { "\($0)" == name }) else { return nil }
        self = level
    }

    static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Writes one line per message to stderr; never to stdout, which carries only protocol messages.
struct Logger: Sendable {
    let level: LogLevel

    func error(_ message: @autoclosure () -> String) { log(.error, message) }
    func warn(_ message: @autoclosure () -> String) { log(.warn, message) }
    func info(_ message: @autoclosure () -> String) { log(.info, message) }
    func debug(_ message: @autoclosure () -> String) { log(.debug, message) }

    @inline(__always) func isEnabled(_ level: LogLevel) -> Bool { level <= self.level }

    private func log(_ level: LogLevel, _ message: () -> String) {
        guard isEnabled(level) else { return }
        Self.writeLine("satchel: \(level): \(message())")
    }

    /// Writes a whole line to stderr with one `write`, so lines from several threads never interleave.
    static func writeLine(_ text: String) {
        var line = text
        line.append("\n")
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
