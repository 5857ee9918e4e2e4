#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Protocol

/// Sends `notifications/progress {progressToken, progress, total?, message?}` for a request that asked for
/// them with `params._meta.progressToken` (as MCP does): the first report at once, then at most one every
/// ``interval`` milliseconds, and the last (progress equal to total) always. They go out straight away,
/// ahead of answers still waiting for their commit: they report on work, not on committed data.
final class ProgressReporter {
    static let interval: Int64 = 100

    /// What `rpc.discover` says of the notification written here.
    static let notification = ServerNotification(
        name: "notifications/progress",
        summary: "How far long work has got, for a request whose params carried _meta.progressToken (export, import, messages.loadMore, sync.now, search catching up): at once, then at most every 100 ms, the last with progress equal to total; before the request's answer.",
        params: [
            .required(
                "progressToken", Schema.anyOf([Schema.string(), Schema.integer()], expected: "a string or an integer"),
                "The request's _meta.progressToken."),
            .required("progress", Schema.integer(minimum: 0), "Done so far."),
            .optional("total", Schema.integer(minimum: 0), "Of how many, when known."),
            .optional("message", Schema.string(), "What is being done, in words."),
        ])

    let token: JSONValue
    private let send: (inout JSONWriter) -> Void
    private var lastSent: Int64?
    private var finished = false

    init(token: JSONValue, send: @escaping (inout JSONWriter) -> Void) {
        self.token = token
        self.send = send
    }

    /// The token of a request's params, when it asked for progress (a string or an integer, as MCP's is).
    static func token(in params: Params) -> JSONValue? {
        guard case .byName(let named) = params, let token = named["_meta"]?.objectValue?["progressToken"] else { return nil }
        switch token {
        case .string, .integer: return token
        default: return nil
        }
    }

    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }

    func report(_ progress: Int, total: Int? = nil, message: String? = nil) {
        let last = total.map { progress >= $0 } ?? false
        guard !finished else { return }
        let now = Self.now()
        if !last, let lastSent, now - lastSent < Self.interval { return }
        lastSent = now
        finished = last
        var params: JSONObject = ["progressToken": token, "progress": .integer(Int64(progress))]
        if let total { params["total"] = .integer(Int64(total)) }
        if let message { params["message"] = .string(message) }
        var line = JSONWriter(capacity: 160)
        line.write(["jsonrpc": "2.0", "method": "notifications/progress", "params": .object(params)])
        line.writeByte(UInt8(ascii: "\n"))
        send(&line)
    }
}
