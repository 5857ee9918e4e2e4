#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a server's protocol messages go: stdout (``ProtocolOutput``), or an app's own hands in process.
protocol ProtocolSink {
    /// Writes all of `raw`; `false` when the reader has gone.
    func write(_ raw: UnsafeRawBufferPointer) -> Bool
}

/// Where requests come from: a descriptor that polls readable when there is something to read (or the
/// end), and how to read it (`read(2)`'s answer: a count, 0 at the end, -1 with `errno`).
struct ServerInput: Sendable {
    let descriptor: Int32
    let read: @Sendable (UnsafeMutableRawBufferPointer) -> Int

    static let standardInput = ServerInput(descriptor: 0) { buffer in
        #if canImport(Glibc)
        Glibc.read(0, buffer.baseAddress, buffer.count)
        #else
        Darwin.read(0, buffer.baseAddress, buffer.count)
        #endif
    }
}

/// The only way to the real stdout.
///
/// At start-up the original stdout is duplicated for protocol messages and file descriptor 1 is pointed
/// at stderr, so a stray write to stdout by any code in the process lands in the log, never in the stream.
struct ProtocolOutput: ProtocolSink {
    let descriptor: Int32

    /// Takes over stdout. Call once, before anything could write to it.
    static func takeOverStandardOutput() -> ProtocolOutput? {
        let duplicate = dup(1)
        guard duplicate >= 0 else { return nil }
        _ = fcntl(duplicate, F_SETFD, FD_CLOEXEC)
        guard dup2(2, 1) >= 0 else { return nil }
        return ProtocolOutput(descriptor: duplicate)
    }

    /// Writes all of `bytes`; `false` when the reader has gone (EPIPE) or another error stops it.
    func write(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { write($0) }
    }

    /// Writes all of `raw`; `false` when the reader has gone (EPIPE) or another error stops it.
    func write(_ raw: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < raw.count {
            #if canImport(Glibc)
            let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            #else
            let written = Darwin.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
            #endif
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return false
            }
            offset += written
        }
        return true
    }
}

/// Writes to file descriptor 1 the way careless code would; used only by the stdout-protection test hook.
enum StrayOutput {
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        #if canImport(Glibc)
        _ = Glibc.write(1, &bytes, bytes.count)
        #else
        _ = Darwin.write(1, &bytes, bytes.count)
        #endif
    }
}
