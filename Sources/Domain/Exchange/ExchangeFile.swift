#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's `write`, named apart from `ExchangeFile.write`.
private let systemWrite = write
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The rules for the `path` of `export` and `import`: absolute; an export goes into an existing folder and
/// replaces only a regular file; an import reads only a regular file (never a FIFO or a device, which could
/// block the server or never end).
enum ExchangePath {
    static func invalid() -> DomainError { .validation(reason: .invalidPath, field: "path") }

    static func exists() -> DomainError { .validation(reason: .fileExists, field: "path") }

    static func ioError(_ what: String, _ path: String) -> DomainError {
        .storage(reason: errno == ENOSPC ? .diskFull : .ioError, detail: "\(what) \(path): errno \(errno)")
    }
}

/// An export being written: into a new temporary file (mode 0600) in the target's folder, flushed to disk
/// and put in place only when complete, so the target is never half-written. A file already at the target
/// is refused (`fileExists`) unless `overwrite` is given, and a link there is never followed: only a regular
/// file is replaced. Without `overwrite`, the finished file is linked in under its name, which fails if
/// something got there meanwhile, so even a file made during the export is never replaced. Dropped without
/// ``finish()``, the temporary file is removed.
public final class ExchangeFileOutput {
    public let path: String
    private let temporary: String
    private let overwrite: Bool
    private var descriptor: Int32
    public private(set) var bytes = 0

    public init(path: String, overwrite: Bool = false) throws(DomainError) {
        guard path.hasPrefix("/"), !path.hasSuffix("/") else { throw ExchangePath.invalid() }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var status = stat()
        guard stat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { throw ExchangePath.invalid() }
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFREG else { throw ExchangePath.invalid() }
            guard overwrite else { throw ExchangePath.exists() }
        } else if errno != ENOENT {
            throw ExchangePath.invalid()
        }
        var template = Array((folder == "/" ? "" : folder).utf8CString.dropLast())
        template += Array("/.\(url.lastPathComponent).XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard made >= 0 else { throw ExchangePath.ioError("cannot create a file beside", path) }
        _ = fcntl(made, F_SETFD, FD_CLOEXEC)
        self.path = path
        self.overwrite = overwrite
        self.temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.descriptor = made
    }

    /// Appends `chunk` to the file.
    public func write(_ chunk: UnsafeRawBufferPointer) throws(DomainError) {
        var offset = 0
        while offset < chunk.count {
            let written = systemWrite(descriptor, chunk.baseAddress! + offset, chunk.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw ExchangePath.ioError("cannot write", temporary)
            }
            offset += written
        }
        bytes += chunk.count
    }

    /// Flushes the file to disk and puts it in place of `path`.
    public func finish() throws(DomainError) {
        guard fsync(descriptor) == 0 else { throw ExchangePath.ioError("cannot flush", temporary) }
        close(descriptor)
        descriptor = -1
        if overwrite {
            guard rename(temporary, path) == 0 else {
                defer { unlink(temporary) }
                throw ExchangePath.ioError("cannot rename into", path)
            }
        } else {
            defer { unlink(temporary) }
            if link(temporary, path) != 0 {
                if errno == EEXIST { throw ExchangePath.exists() }
                // A file system without hard links (FAT, some network mounts): look once more, then rename.
                guard errno == EPERM || errno == EOPNOTSUPP else { throw ExchangePath.ioError("cannot link into", path) }
                var status = stat()
                guard lstat(path, &status) != 0 else { throw ExchangePath.exists() }
                guard rename(temporary, path) == 0 else { throw ExchangePath.ioError("cannot rename into", path) }
            }
        }
        // The new name reaches the disk with the folder's entry.
        let folder = open(URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }

    deinit {
        if descriptor >= 0 {
            close(descriptor)
            unlink(temporary)
        }
    }
}

/// An exported document read from a file in pieces: one pass finds the top-level members (skipping their
/// values, counting the lists' elements), and each list is then read one element at a time, so memory
/// holds one element (at most one image), whatever the file's size.
final class ExchangeFileReader {
    private let descriptor: Int32
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    /// The file offset of `buffer[0]`.
    private var bufferOffset = 0
    /// Where each list's `[` is, and how many elements it holds.
    private(set) var lists: [ExchangeList: (offset: Int, count: Int)] = [:]
    private(set) var format: String?
    private(set) var version: Int?
    private let decoder = JSONDecoder()

    /// - Parameter bufferSize: how much of the file is read at a time (tests make it tiny, so every value
    ///   crosses the buffer's end somewhere).
    init(path: String, bufferSize: Int = 1 << 20) throws(DomainError) {
        guard path.hasPrefix("/") else { throw ExchangePath.invalid() }
        buffer = [UInt8](repeating: 0, count: max(1, bufferSize))
        var status = stat()
        // Looked at before opening: opening a FIFO to read waits for a writer.
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { throw ExchangePath.invalid() }
        let opened = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard opened >= 0 else { throw ExchangePath.ioError("cannot open", path) }
        // And again after: the path may have been replaced in between.
        guard fstat(opened, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(opened)
            throw ExchangePath.invalid()
        }
        descriptor = opened
    }

    deinit { close(descriptor) }

    private static func invalid(_ field: String = "") -> DomainError {
        .validation(reason: .invalidDocument, field: "document" + field)
    }

    // MARK: Reading bytes

    /// The next byte, without taking it; `nil` at the end of the file.
    private func peek() throws(DomainError) -> UInt8? {
        if start == end {
            bufferOffset += end
            start = 0
            end = 0
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            guard count >= 0 else { throw ExchangePath.ioError("cannot read", "the document") }
            end = count
            if count == 0 { return nil }
        }
        return buffer[start]
    }

    private func seek(to offset: Int) throws(DomainError) {
        guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else { throw ExchangePath.ioError("cannot seek in", "the document") }
        bufferOffset = offset
        start = 0
        end = 0
    }

    private var offset: Int { bufferOffset + start }

    private func skipWhitespace() throws(DomainError) {
        while let byte = try peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { start += 1 }
    }

    private func expect(_ byte: UInt8, _ field: String) throws(DomainError) {
        guard try peek() == byte else { throw Self.invalid(field) }
        start += 1
    }

    /// Steps over one JSON value, keeping its bytes in `kept` when asked. Only the structure is looked at
    /// (strings, nesting); the kept bytes are then decoded, which checks the rest.
    private func scanValue(keeping kept: inout [UInt8]?, _ field: String) throws(DomainError) {
        var depth = 0
        var inString = false
        var escaped = false
        var finished = false
        while !finished {
            guard try peek() != nil else { throw Self.invalid(field) }
            // Whole runs of bytes are looked at (and kept) at once: the common case is a long string body.
            var run = start
            scanning: while run < end {
                let current = buffer[run]
                run += 1
                if inString {
                    if escaped {
                        escaped = false
                    } else if current == UInt8(ascii: "\\") {
                        escaped = true
                    } else if current == UInt8(ascii: "\"") {
                        inString = false
                        if depth == 0 {
                            finished = true
                            break scanning
                        }
                    }
                    continue
                }
                switch current {
                case UInt8(ascii: "\""):
                    inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ","), UInt8(ascii: ":"), 0x20, 0x0A, 0x0D, 0x09:
                    if depth == 0 {
                        // The end of a scalar: the delimiter belongs to what follows.
                        run -= 1
                        finished = true
                        break scanning
                    }
                    if current == UInt8(ascii: "]") || current == UInt8(ascii: "}") {
                        depth -= 1
                        if depth == 0 {
                            finished = true
                            break scanning
                        }
                    }
                default:
                    break
                }
            }
            if kept != nil { kept!.append(contentsOf: buffer[start..<run]) }
            start = run
        }
        guard depth == 0, !inString else { throw Self.invalid(field) }
    }

    // MARK: The document

    /// Finds the top-level members: `format`, `version` and where each list is. Unknown members are
    /// skipped, as they are in a document sent in a message.
    func locate() throws {
        try seek(to: 0)
        try skipWhitespace()
        // Not even a JSON object (a photo, a text file): not an export at all, said in those words.
        guard try peek() == UInt8(ascii: "{") else { throw DomainError.validation(reason: .notAnExport, field: "document") }
        try expect(UInt8(ascii: "{"), "")
        try skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            start += 1
        } else {
            while true {
                try skipWhitespace()
                var keyBytes: [UInt8]? = []
                guard try peek() == UInt8(ascii: "\"") else { throw Self.invalid() }
                try scanValue(keeping: &keyBytes, "")
                let key = try decode(String.self, keyBytes!, "")
                try skipWhitespace()
                try expect(UInt8(ascii: ":"), "." + key)
                try skipWhitespace()
                if let list = ExchangeList(rawValue: key) {
                    lists[list] = (offset, try countElements(list))
                } else if key == "format" || key == "version" {
                    var value: [UInt8]? = []
                    try scanValue(keeping: &value, "." + key)
                    if key == "format" {
                        format = try decode(String.self, value!, ".format")
                    } else {
                        version = try decode(Int.self, value!, ".version")
                    }
                } else {
                    var skipped: [UInt8]? = nil
                    try scanValue(keeping: &skipped, "." + key)
                }
                try skipWhitespace()
                if try peek() == UInt8(ascii: ",") {
                    start += 1
                    continue
                }
                try expect(UInt8(ascii: "}"), "")
                break
            }
        }
        try skipWhitespace()
        guard try peek() == nil else { throw Self.invalid() }
        guard let format else { throw Self.invalid(".format") }
        guard let version else { throw Self.invalid(".version") }
        try ImportCheck.header(format: format, version: version)
        for list in ExchangeList.allCases where lists[list] == nil { throw Self.invalid("." + list.rawValue) }
    }

    /// Steps over a list, counting its elements.
    private func countElements(_ list: ExchangeList) throws -> Int {
        var count = 0
        try forEachElement(list) { _, _ in count += 1 }
        return count
    }

    /// Calls `body` with each element's index (and bytes, when `keeping`) of the list that starts here.
    private func forEachElement(
        _ list: ExchangeList, keeping: Bool = false, _ body: (Int, [UInt8]) throws -> Void
    ) throws {
        let field = "." + list.rawValue
        try expect(UInt8(ascii: "["), field)
        try skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            start += 1
            return
        }
        var index = 0
        while true {
            try skipWhitespace()
            var bytes: [UInt8]? = keeping ? [] : nil
            try scanValue(keeping: &bytes, "\(field)[\(index)]")
            try body(index, bytes ?? [])
            index += 1
            try skipWhitespace()
            if try peek() == UInt8(ascii: ",") {
                start += 1
                continue
            }
            try expect(UInt8(ascii: "]"), field)
            return
        }
    }

    /// Reads `list`'s elements one at a time, decoded as `T`; a malformed one is `invalidDocument` naming
    /// it (`document.notes[3].title`).
    func forEach<T: Decodable>(
        _ list: ExchangeList, as type: T.Type, _ body: (Int, T) throws -> Void
    ) throws {
        guard let location = lists[list] else { throw Self.invalid("." + list.rawValue) }
        try seek(to: location.offset)
        try forEachElement(list, keeping: true) { index, bytes in
            try body(index, try decode(T.self, bytes, ".\(list.rawValue)[\(index)]"))
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8], _ field: String) throws(DomainError) -> T {
        do {
            return try decoder.decode(T.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw DomainError.validation(reason: .invalidDocument, field: "document" + field + ExchangeDocument.path(of: error))
        } catch {
            throw Self.invalid(field)
        }
    }
}
