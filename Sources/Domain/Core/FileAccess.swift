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

/// Which files a request may read or write: anywhere the process may (the default for the user's own
/// embedder), or only inside folders someone declared, the `--files-root` folders and, for an MCP tool, the
/// client's roots. Each ``restricted(to:)`` adds a set of folders; a path must lie inside one folder of every
/// set. A path is checked as the system will resolve it: `..` and symbolic links in it are followed first,
/// so neither leads out of a folder.
public struct FileAccess: Sendable, Equatable {
    /// What a refusal says: which list of folders the path missed.
    public enum Scope: Sendable, Equatable {
        /// The folders given with `--files-root`.
        case serverRoots
        /// The roots an MCP client declared.
        case clientRoots
    }

    /// One set of folders, canonical (absolute, no links, no `..`), and who declared it.
    struct Roots: Sendable, Equatable {
        var folders: [String]
        var scope: Scope
    }

    private(set) var constraints: [Roots] = []

    /// Any path the process may use.
    public static let anywhere = FileAccess()

    /// No file at all: a client that declared no roots.
    public static func none(_ scope: Scope) -> FileAccess { FileAccess().restricted(to: [], scope: scope) }

    /// This access, further confined to `folders` (absolute paths, resolved here as they are now).
    public func restricted(to folders: [String], scope: Scope) -> FileAccess {
        var result = self
        result.constraints.append(Roots(folders: folders.map(Self.resolved), scope: scope))
        return result
    }

    public var isUnrestricted: Bool { constraints.isEmpty }

    /// The file an existing `path` names, to be read: `path` itself when access is unrestricted (its own
    /// checks then apply as before), otherwise the path with its links and `..` resolved, once it is found
    /// inside the folders. A relative path is handed back as it is, for the caller to refuse.
    public func readable(_ path: String, field: String) throws(DomainError) -> String {
        guard !isUnrestricted, path.hasPrefix("/") else { return path }
        let resolved = Self.resolved(path)
        try check(resolved, field: field)
        return resolved
    }

    /// The file `path` names, to be written (made or replaced): its folder is resolved and checked as for
    /// reading; its last component is kept as it is, so a link there is replaced, never followed.
    public func writable(_ path: String, field: String) throws(DomainError) -> String {
        guard !isUnrestricted, path.hasPrefix("/") else { return path }
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        guard !path.hasSuffix("/"), name != "..", name != "." else { throw .validation(reason: .invalidPath, field: field) }
        let folder = Self.resolved(url.deletingLastPathComponent().path)
        let resolved = (folder == "/" ? "" : folder) + "/" + name
        try check(resolved, field: field)
        return resolved
    }

    private func check(_ resolved: String, field: String) throws(DomainError) {
        for roots in constraints where !roots.folders.contains(where: { Self.path(resolved, isInside: $0) }) {
            switch roots.scope {
            case .clientRoots where roots.folders.isEmpty:
                throw .validation(reason: .noFileAccess, field: field)
            case .clientRoots:
                throw .validation(reason: .outsideClientRoots, field: field)
            case .serverRoots:
                throw .validation(reason: .outsideFilesRoot, field: field)
            }
        }
    }

    static func path(_ path: String, isInside folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder + "/")
    }

    /// `path` (absolute) as the system resolves it: the longest part that exists, with its links and `..`
    /// followed (`realpath`), and the rest appended, its `.` dropped and its `..` taken back lexically (a
    /// path through a folder that does not exist names nothing either way; this only decides which error
    /// it gets).
    static func resolved(_ path: String) -> String {
        var components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var rest: [String] = []
        while true {
            let prefix = "/" + components.joined(separator: "/")
            if let real = realpath(prefix, nil) {
                defer { free(real) }
                var parts = String(cString: real).split(separator: "/").map(String.init)
                for part in rest.reversed() {
                    switch part {
                    case ".": continue
                    case "..": if !parts.isEmpty { parts.removeLast() }
                    default: parts.append(part)
                    }
                }
                return "/" + parts.joined(separator: "/")
            }
            guard let last = components.popLast() else { return path }
            rest.append(last)
        }
    }
}
