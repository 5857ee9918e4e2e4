import CCurl
import Synchronization

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

/// A feed served over HTTP(S): `GET URL?offset=N&limit=M`, through libcurl.
public final class HTTPMessageFeed: MessageFeed {
    public let url: URL
    public let timeout: Double

    public var identity: String { url.absoluteString }

    public init(url: URL, timeout: Double) {
        self.url = url
        self.timeout = timeout
    }

    public func fetch(offset: Int, limit: Int, cancellation: Cancellation) throws(DomainError) -> [FeedMessage] {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw .upstreamUnavailable(reason: .connectionFailed, detail: "bad feed URL")
        }
        var query = components.queryItems ?? []
        query.removeAll { $0.name == "offset" || $0.name == "limit" }
        query.append(URLQueryItem(name: "offset", value: String(offset)))
        query.append(URLQueryItem(name: "limit", value: String(limit)))
        components.queryItems = query
        guard let requestURL = components.url else {
            throw .upstreamUnavailable(reason: .connectionFailed, detail: "bad feed URL")
        }
        guard let curl = LibCurl.loaded else {
            throw .upstreamUnavailable(reason: .connectionFailed, detail: "libcurl (libcurl4) is not installed")
        }
        let (status, body) = try curl.get(requestURL.absoluteString, timeout: timeout, cancellation: cancellation)
        guard (200...299).contains(status) else {
            throw .upstreamUnavailable(reason: .httpStatus, status: status, detail: "HTTP \(status)")
        }
        return try FeedDocument.messages(from: Data(body))
    }
}

/// libcurl's functions that a feed uses, from the library loaded the first time a feed is asked for.
/// Linking it (or Foundation's URLSession, which is built on it) made every start of satchel load it with
/// its TLS, Kerberos and LDAP libraries, feed or not.
private struct LibCurl: @unchecked Sendable {
    typealias Easy = UnsafeMutableRawPointer
    typealias Multi = UnsafeMutableRawPointer

    let easyInit: @convention(c) () -> Easy?
    let easyCleanup: @convention(c) (Easy?) -> Void
    let easySetopt: UnsafeMutableRawPointer  // variadic: called through the shim's satchel_curl_setopt_*
    let easyGetinfo: UnsafeMutableRawPointer  // variadic: satchel_curl_getinfo_long
    let slistAppend: @convention(c) (UnsafeMutablePointer<curl_slist>?, UnsafePointer<CChar>?) -> UnsafeMutablePointer<curl_slist>?
    let slistFreeAll: @convention(c) (UnsafeMutablePointer<curl_slist>?) -> Void
    let multiInit: @convention(c) () -> Multi?
    let multiCleanup: @convention(c) (Multi?) -> CURLMcode
    let multiAddHandle: @convention(c) (Multi?, Easy?) -> CURLMcode
    let multiRemoveHandle: @convention(c) (Multi?, Easy?) -> CURLMcode
    let multiPerform: @convention(c) (Multi?, UnsafeMutablePointer<Int32>?) -> CURLMcode
    let multiPoll: @convention(c) (Multi?, UnsafeMutablePointer<curl_waitfd>?, UInt32, Int32, UnsafeMutablePointer<Int32>?) -> CURLMcode
    let multiWakeup: @convention(c) (Multi?) -> CURLMcode
    let multiInfoRead: @convention(c) (Multi?, UnsafeMutablePointer<Int32>?) -> UnsafeMutablePointer<CURLMsg>?
    let easyStrerror: @convention(c) (CURLcode) -> UnsafePointer<CChar>?

    /// The library, loaded and initialised once (Swift makes a global's first use thread-safe); `nil` when it
    /// is not there.
    static let loaded: LibCurl? = load()

    private static func load() -> LibCurl? {
        guard let library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func function<T>(_ name: String) -> T? { dlsym(library, name).map { unsafeBitCast($0, to: T.self) } }
        guard let globalInit: @convention(c) (Int) -> CURLcode = function("curl_global_init"),
            globalInit(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK,
            let easyInit: @convention(c) () -> Easy? = function("curl_easy_init"),
            let easyCleanup: @convention(c) (Easy?) -> Void = function("curl_easy_cleanup"),
            let easySetopt = dlsym(library, "curl_easy_setopt"),
            let easyGetinfo = dlsym(library, "curl_easy_getinfo"),
            let slistAppend: @convention(c) (UnsafeMutablePointer<curl_slist>?, UnsafePointer<CChar>?) -> UnsafeMutablePointer<curl_slist>? =
                function("curl_slist_append"),
            let slistFreeAll: @convention(c) (UnsafeMutablePointer<curl_slist>?) -> Void = function("curl_slist_free_all"),
            let multiInit: @convention(c) () -> Multi? = function("curl_multi_init"),
            let multiCleanup: @convention(c) (Multi?) -> CURLMcode = function("curl_multi_cleanup"),
            let multiAddHandle: @convention(c) (Multi?, Easy?) -> CURLMcode = function("curl_multi_add_handle"),
            let multiRemoveHandle: @convention(c) (Multi?, Easy?) -> CURLMcode = function("curl_multi_remove_handle"),
            let multiPerform: @convention(c) (Multi?, UnsafeMutablePointer<Int32>?) -> CURLMcode = function("curl_multi_perform"),
            let multiPoll:
                @convention(c) (Multi?, UnsafeMutablePointer<curl_waitfd>?, UInt32, Int32, UnsafeMutablePointer<Int32>?) -> CURLMcode =
                function("curl_multi_poll"),
            let multiWakeup: @convention(c) (Multi?) -> CURLMcode = function("curl_multi_wakeup"),
            let multiInfoRead: @convention(c) (Multi?, UnsafeMutablePointer<Int32>?) -> UnsafeMutablePointer<CURLMsg>? =
                function("curl_multi_info_read"),
            let easyStrerror: @convention(c) (CURLcode) -> UnsafePointer<CChar>? = function("curl_easy_strerror")
        else {
            dlclose(library)
            return nil
        }
        return LibCurl(
            easyInit: easyInit, easyCleanup: easyCleanup, easySetopt: easySetopt, easyGetinfo: easyGetinfo,
            slistAppend: slistAppend, slistFreeAll: slistFreeAll, multiInit: multiInit, multiCleanup: multiCleanup,
            multiAddHandle: multiAddHandle, multiRemoveHandle: multiRemoveHandle, multiPerform: multiPerform,
            multiPoll: multiPoll, multiWakeup: multiWakeup, multiInfoRead: multiInfoRead, easyStrerror: easyStrerror)
    }

    /// A transfer's multi handle, which curl_multi_wakeup may be given from any thread.
    private struct MultiHandle: @unchecked Sendable {
        let multi: Multi
    }

    /// What a transfer's callbacks write into.
    private final class Received {
        var body: [UInt8] = []
        /// Set when the body grew past ``maximumFeedAnswerBytes``: the transfer was ended there.
        var tooLarge = false
    }

    /// `GET url` (redirects followed, http and https only), answered within `timeout` seconds: the status and
    /// the body. Runs the transfer on the calling thread; cancelling wakes it and ends it at once.
    func get(_ url: String, timeout: Double, cancellation: Cancellation) throws(DomainError) -> (status: Int, body: [UInt8]) {
        guard let easy = easyInit() else {
            throw .upstreamUnavailable(reason: .connectionFailed, detail: "libcurl could not start a transfer")
        }
        guard let multi = multiInit() else {
            easyCleanup(easy)
            throw .upstreamUnavailable(reason: .connectionFailed, detail: "libcurl could not start a transfer")
        }
        let headers = slistAppend(nil, "Accept: application/json")
        let received = Received()
        var errorBuffer = [UInt8](repeating: 0, count: Int(CURL_ERROR_SIZE))
        // Cancelling may come from another thread at any time, also after this returns: the handle it wakes
        // is taken away, under the lock, before it is freed.
        let waking = Mutex<MultiHandle?>(MultiHandle(multi: multi))
        defer {
            waking.withLock { $0 = nil }
            _ = multiRemoveHandle(multi, easy)
            easyCleanup(easy)
            _ = multiCleanup(multi)
            slistFreeAll(headers)
        }

        let write: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
            bytes, size, count, context in
            let received = Unmanaged<Received>.fromOpaque(context!).takeUnretainedValue()
            guard received.body.count + size * count <= maximumFeedAnswerBytes else {
                received.tooLarge = true
                return 0  // curl ends the transfer (CURLE_WRITE_ERROR)
            }
            received.body.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: size * count))
            return size * count
        }
        let milliseconds = Int(min(max(timeout, 0.001), 86_400) * 1000)
        let set: [(CURLoption, Int)] = [
            (CURLOPT_NOSIGNAL, 1), (CURLOPT_TIMEOUT_MS, milliseconds), (CURLOPT_FOLLOWLOCATION, 1), (CURLOPT_MAXREDIRS, 10),
        ]
        var ok = set.allSatisfy { satchel_curl_setopt_long(easySetopt, easy, $0.0, $0.1) == CURLE_OK }
        for (option, text) in [
            (CURLOPT_URL, url), (CURLOPT_PROTOCOLS_STR, "http,https"), (CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
            (CURLOPT_ACCEPT_ENCODING, ""), (CURLOPT_USERAGENT, "satchel"),
        ] {
            ok = ok && satchel_curl_setopt_pointer(easySetopt, easy, option, text) == CURLE_OK  // curl copies strings
        }
        ok = ok && satchel_curl_setopt_pointer(easySetopt, easy, CURLOPT_HTTPHEADER, headers) == CURLE_OK
        ok = ok && satchel_curl_setopt_pointer(easySetopt, easy, CURLOPT_WRITEFUNCTION, unsafeBitCast(write, to: UnsafeRawPointer.self)) == CURLE_OK
        ok = ok && satchel_curl_setopt_pointer(easySetopt, easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(received).toOpaque()) == CURLE_OK
        guard ok else { throw .upstreamUnavailable(reason: .connectionFailed, detail: "libcurl refused an option") }

        let result = errorBuffer.withUnsafeMutableBufferPointer { buffer -> CURLcode in
            _ = satchel_curl_setopt_pointer(easySetopt, easy, CURLOPT_ERRORBUFFER, buffer.baseAddress)
            cancellation.onCancel { [multiWakeup] in waking.withLock { handle in _ = handle.map { multiWakeup($0.multi) } } }
            defer { cancellation.onCancel {} }
            guard multiAddHandle(multi, easy) == CURLM_OK else { return CURLE_FAILED_INIT }
            // The deadline is for the whole answer, body included, kept here too (curl's own timeout is the same
            // figure): a body that trickles in forever ends at it.
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let deadline = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 + Double(milliseconds) / 1000
            var running: Int32 = 1
            while running > 0 && !cancellation.isCancelled {
                guard multiPerform(multi, &running) == CURLM_OK else { return CURLE_FAILED_INIT }
                clock_gettime(CLOCK_MONOTONIC, &now)
                let left = deadline - (Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
                if running > 0 && left <= 0 { return CURLE_OPERATION_TIMEDOUT }
                if running > 0 { _ = multiPoll(multi, nil, 0, Int32(max(1, min(1000, left * 1000))), nil) }
            }
            var left: Int32 = 0
            while let message = multiInfoRead(multi, &left) {
                if message.pointee.msg == CURLMSG_DONE { return message.pointee.data.result }
            }
            return CURLE_ABORTED_BY_CALLBACK
        }
        _ = satchel_curl_setopt_pointer(easySetopt, easy, CURLOPT_ERRORBUFFER, nil)
        if cancellation.isCancelled { throw .upstreamUnavailable(reason: .connectionFailed, detail: "cancelled") }
        if received.tooLarge {
            throw .upstreamUnavailable(reason: .responseTooLarge, detail: "an answer larger than \(maximumFeedAnswerBytes) bytes")
        }
        if result == CURLE_OPERATION_TIMEDOUT {
            throw .upstreamUnavailable(reason: .timeout, detail: "no answer within \(timeout) s")
        }
        guard result == CURLE_OK else {
            let detail = errorBuffer[0] != 0 ? String(decoding: errorBuffer.prefix { $0 != 0 }, as: UTF8.self) : easyStrerror(result).map { String(cString: $0) }
            throw .upstreamUnavailable(reason: .connectionFailed, detail: detail ?? "transfer failed")
        }
        var status = 0
        _ = satchel_curl_getinfo_long(easyGetinfo, easy, CURLINFO_RESPONSE_CODE, &status)
        return (status, received.body)
    }
}
