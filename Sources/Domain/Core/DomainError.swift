/// Why a domain operation refused or failed, as its error's stable `data.reason`: clients match on it, and
/// it names the error's message in every language (``MessageCatalog``). Never renamed once released.
public enum Reason: String, Sendable, CaseIterable {
    // Input that breaks a rule (-32002).
    case emptyNote, emptyTitle, emptyPost, emptyMessage
    case titleTooLong, contentTooLong, captionTooLong, memoTooLong, messageTooLong, textTooLarge, characterTooLong
    case invalidColor, indexOutOfRange, voterRequired
    case tooManyImages, imageTooLarge, imageUnreadable, unsupportedImage, imagePathNotAbsolute, invalidBase64
    case damagedImage, imageTooManyPixels
    case tooManyUploads, chunkTooLarge, uploadOffset, uploadIncomplete, uploadFinished
    case invalidDocument, notAnExport, unsupportedVersion, invalidPath, exportTooLarge, fileExists
    case noFileAccess, outsideClientRoots, outsideFilesRoot
    case notAuthor, emptyName, nameTooLong, wrongPassphrase, passphraseTooShort
    // The upstream feed (-32004).
    case connectionFailed, timeout, httpStatus, malformedResponse, invalidMessage, responseTooLarge
    // Sync with PostgreSQL (-32004 too).
    case syncOff, syncUnreachable, syncSchema, syncRefused
    // The database (-32005).
    case diskFull, readOnly, databaseBusy, databaseCorrupt, ioError, cannotOpen, storageError, databaseMoved
}

/// Why a domain operation refused or failed. The server maps each case to one JSON-RPC code.
public enum DomainError: Error, Equatable, Sendable {
    /// No `kind` with this id exists (`-32001`).
    case notFound(kind: String, id: String)
    /// The input breaks a domain rule (`-32002`): `reason` is stable, `field` names the input.
    case validation(reason: Reason, field: String, limit: Int64? = nil)
    /// The free edition's limit is reached (`-32003`).
    case freeLimitReached(limit: Int)
    /// The upstream feed failed (`-32004`).
    case upstreamUnavailable(reason: Reason, status: Int? = nil, detail: String? = nil)
    /// The database failed (`-32005`).
    case storage(reason: Reason, detail: String)
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
        throw DomainError.storage(reason: .storageError, detail: "\(error)")
    }
}

/// A name read back from the database (a change's domain or kind, a message's origin) as this build's type;
/// one it does not know means the file was damaged or written by something else: `databaseCorrupt`, never a
/// guess.
func stored<Value: RawRepresentable>(_ type: Value.Type, _ text: String) throws -> Value where Value.RawValue == String {
    guard let value = Value(rawValue: text) else {
        throw DomainError.storage(reason: .databaseCorrupt, detail: "the database holds an unknown \(Value.self) '\(text)'")
    }
    return value
}
