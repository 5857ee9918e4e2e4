import CLibPQ

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libpq's functions, from the library loaded the first time satchel talks to PostgreSQL (`--sync`,
/// `sync-setup`). Linking it made every start of satchel load it with its TLS, Kerberos and LDAP libraries
/// (about 10 M instructions of symbol binding), syncing or not.
struct LibPQ: @unchecked Sendable {
    typealias Connection = OpaquePointer
    typealias Result = OpaquePointer
    typealias Strings = UnsafePointer<UnsafePointer<CChar>?>

    let connectdbParams: @convention(c) (Strings?, Strings?, Int32) -> Connection?
    let status: @convention(c) (Connection?) -> ConnStatusType
    let errorMessage: @convention(c) (Connection?) -> UnsafeMutablePointer<CChar>?
    let finish: @convention(c) (Connection?) -> Void
    let setNoticeProcessor: @convention(c) (Connection?, PQnoticeProcessor?, UnsafeMutableRawPointer?) -> PQnoticeProcessor?
    let user: @convention(c) (Connection?) -> UnsafeMutablePointer<CChar>?
    let execParams:
        @convention(c) (Connection?, UnsafePointer<CChar>?, Int32, UnsafePointer<Oid>?, Strings?, UnsafePointer<Int32>?,
            UnsafePointer<Int32>?, Int32) -> Result?
    let clear: @convention(c) (Result?) -> Void
    let resultStatus: @convention(c) (Result?) -> ExecStatusType
    let ntuples: @convention(c) (Result?) -> Int32
    let nfields: @convention(c) (Result?) -> Int32
    let getvalue: @convention(c) (Result?, Int32, Int32) -> UnsafeMutablePointer<CChar>?
    let getlength: @convention(c) (Result?, Int32, Int32) -> Int32
    let getisnull: @convention(c) (Result?, Int32, Int32) -> Int32
    let resultErrorField: @convention(c) (Result?, Int32) -> UnsafeMutablePointer<CChar>?
    let resultErrorMessage: @convention(c) (Result?) -> UnsafeMutablePointer<CChar>?
    let socket: @convention(c) (Connection?) -> Int32
    let consumeInput: @convention(c) (Connection?) -> Int32
    let notifies: @convention(c) (Connection?) -> UnsafeMutablePointer<PGnotify>?
    let freemem: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let conninfoParse:
        @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> UnsafeMutablePointer<PQconninfoOption>?
    let conninfoFree: @convention(c) (UnsafeMutablePointer<PQconninfoOption>?) -> Void

    /// The library, loaded once (Swift makes a global's first use thread-safe); `nil` when it is not there.
    static let loaded: LibPQ? = load()

    /// The library, or the error that says it is missing.
    static func library() throws(PGError) -> LibPQ {
        guard let loaded else {
            throw PGError(kind: .connection, sqlState: nil, message: "libpq (Debian's libpq5) is not installed")
        }
        return loaded
    }

    private static func load() -> LibPQ? {
        guard let library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func function<T>(_ name: String) -> T? { dlsym(library, name).map { unsafeBitCast($0, to: T.self) } }
        guard let connectdbParams: @convention(c) (Strings?, Strings?, Int32) -> Connection? = function("PQconnectdbParams"),
            let status: @convention(c) (Connection?) -> ConnStatusType = function("PQstatus"),
            let errorMessage: @convention(c) (Connection?) -> UnsafeMutablePointer<CChar>? = function("PQerrorMessage"),
            let finish: @convention(c) (Connection?) -> Void = function("PQfinish"),
            let setNoticeProcessor:
                @convention(c) (Connection?, PQnoticeProcessor?, UnsafeMutableRawPointer?) -> PQnoticeProcessor? =
                function("PQsetNoticeProcessor"),
            let user: @convention(c) (Connection?) -> UnsafeMutablePointer<CChar>? = function("PQuser"),
            let execParams:
                @convention(c) (
                    Connection?, UnsafePointer<CChar>?, Int32, UnsafePointer<Oid>?, Strings?, UnsafePointer<Int32>?,
                    UnsafePointer<Int32>?, Int32
                ) -> Result? = function("PQexecParams"),
            let clear: @convention(c) (Result?) -> Void = function("PQclear"),
            let resultStatus: @convention(c) (Result?) -> ExecStatusType = function("PQresultStatus"),
            let ntuples: @convention(c) (Result?) -> Int32 = function("PQntuples"),
            let nfields: @convention(c) (Result?) -> Int32 = function("PQnfields"),
            let getvalue: @convention(c) (Result?, Int32, Int32) -> UnsafeMutablePointer<CChar>? = function("PQgetvalue"),
            let getlength: @convention(c) (Result?, Int32, Int32) -> Int32 = function("PQgetlength"),
            let getisnull: @convention(c) (Result?, Int32, Int32) -> Int32 = function("PQgetisnull"),
            let resultErrorField: @convention(c) (Result?, Int32) -> UnsafeMutablePointer<CChar>? = function("PQresultErrorField"),
            let resultErrorMessage: @convention(c) (Result?) -> UnsafeMutablePointer<CChar>? = function("PQresultErrorMessage"),
            let socket: @convention(c) (Connection?) -> Int32 = function("PQsocket"),
            let consumeInput: @convention(c) (Connection?) -> Int32 = function("PQconsumeInput"),
            let notifies: @convention(c) (Connection?) -> UnsafeMutablePointer<PGnotify>? = function("PQnotifies"),
            let freemem: @convention(c) (UnsafeMutableRawPointer?) -> Void = function("PQfreemem"),
            let conninfoParse:
                @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> UnsafeMutablePointer<
                    PQconninfoOption
                >? = function("PQconninfoParse"),
            let conninfoFree: @convention(c) (UnsafeMutablePointer<PQconninfoOption>?) -> Void = function("PQconninfoFree")
        else {
            dlclose(library)
            return nil
        }
        return LibPQ(
            connectdbParams: connectdbParams, status: status, errorMessage: errorMessage, finish: finish,
            setNoticeProcessor: setNoticeProcessor, user: user, execParams: execParams, clear: clear,
            resultStatus: resultStatus, ntuples: ntuples, nfields: nfields, getvalue: getvalue, getlength: getlength,
            getisnull: getisnull, resultErrorField: resultErrorField, resultErrorMessage: resultErrorMessage,
            socket: socket, consumeInput: consumeInput, notifies: notifies, freemem: freemem,
            conninfoParse: conninfoParse, conninfoFree: conninfoFree)
    }
}
