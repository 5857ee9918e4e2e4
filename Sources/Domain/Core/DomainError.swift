/// Why a domain operation refused or failed. The server maps each case to one JSON-RPC code.
public enum DomainError: Error, Equatable, Sendable {
    /// No `kind` with this id exists (`-32001`).
    case notFound(kind: String, id: String)
    /// The input breaks a domain rule (`-32002`): `reason` is stable, `field` names the input.
    case validation(reason: String, field: String, limit: Int64? = nil)
    /// The free edition's limit is reached (`-32003`).
    case freeLimitReached(limit: Int)
    /// The upstream feed failed (`-32004`).
    case upstreamUnavailable(reason: String, status: Int? = nil, detail: String? = nil)
    /// The database failed (`-32005`).
    case storage(reason: String, detail: String)
    /// `ifRevision` did not match (`-32006`).
    case revisionConflict(current: Int64)
    /// A parameter that is well-formed JSON but unusable, such as an unknown cursor (`-32602`).
    case invalidArgument(field: String, expected: String)
}

extension DomainError {
    /// Wraps an SQLite failure.
    init(_ error: SQLiteError) {
        self = .storage(reason: error.storageReason, detail: error.description)
    }
}

/// Runs `body`, turning SQLite failures into ``DomainError/storage(reason:detail:)``.
@inline(__always)
func storage<T>(_ body: () throws -> T) throws(DomainError) -> T {
    do {
        return try body()
    } catch let error as DomainError {
        throw error
    } catch let error as SQLiteError {
        throw DomainError(error)
    } catch {
        throw DomainError.storage(reason: "storageError", detail: "\(error)")
    }
}
