import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A feed served over HTTP(S): `GET URL?offset=N&limit=M`.
public final class HTTPMessageFeed: MessageFeed, @unchecked Sendable {  // its properties never change; URLSession is thread-safe
    public let url: URL
    public let timeout: TimeInterval
    private let session: URLSession

    public var identity: String { url.absoluteString }

    public init(url: URL, timeout: TimeInterval) {
        self.url = url
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
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
        var request = URLRequest(url: requestURL, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue("application/json", forHTTPHeaderField: "Accept")

        let outcome = Mutex<Result<(Data, URLResponse), any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { data, response, error in
            outcome.withLock { value in
                if let data, let response {
                    value = .success((data, response))
                } else {
                    value = .failure(error ?? URLError(.badServerResponse))
                }
            }
            done.signal()
        }
        cancellation.onCancel { task.cancel() }
        task.resume()
        // The session's own timeout ends the task; the extra second only guards against a stuck callback.
        if done.wait(timeout: .now() + timeout + 1) == .timedOut {
            task.cancel()
            throw .upstreamUnavailable(reason: .timeout, detail: "no answer within \(timeout) s")
        }
        if cancellation.isCancelled { throw .upstreamUnavailable(reason: .connectionFailed, detail: "cancelled") }
        switch outcome.withLock({ $0 }) {
        case .success(let (data, response))?:
            if let http = response as? HTTPURLResponse, !(200...299).contains(http.statusCode) {
                throw .upstreamUnavailable(reason: .httpStatus, status: http.statusCode, detail: "HTTP \(http.statusCode)")
            }
            return try FeedDocument.messages(from: data)
        case .failure(let error)?:
            if let urlError = error as? URLError, urlError.code == .timedOut {
                throw .upstreamUnavailable(reason: .timeout, detail: "no answer within \(timeout) s")
            }
            throw .upstreamUnavailable(reason: .connectionFailed, detail: error.localizedDescription)
        case nil:
            throw .upstreamUnavailable(reason: .connectionFailed, detail: "no answer")
        }
    }
}

/// A feed held in one JSON document (`file:///path.json`), served in pages like the HTTP one. The file is
/// read on every request, so edits to it show up.
public final class FileMessageFeed: MessageFeed {
    public let path: String

    public var identity: String { "file://" + path }

    public init(path: String) {
        self.path = path
    }

    public func fetch(offset: Int, limit: Int, cancellation: Cancellation) throws(DomainError) -> [FeedMessage] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .upstreamUnavailable(reason: .connectionFailed, detail: "cannot read \(path)")
        }
        let all = try FeedDocument.messages(from: data)
        return Array(all.dropFirst(offset).prefix(limit))
    }
}

/// The built-in sample conversation, used when no feed is configured, so a new user sees something.
public final class SampleMessageFeed: MessageFeed {
    public var identity: String { "sample" }

    public init() {}

    static let conversation: [(author: String, text: String)] = {
        let lines: [(String, String)] = [
            ("Anna", "Are we still on for Saturday?"), ("Sam", "Yes! 10 o'clock at the station."),
            ("Anna", "Great, I'll bring the thermos."), ("Boris", "Can I join you two?"),
            ("Anna", "Of course, the more the merrier."), ("Sam", "Boris, don't forget your boots this time."),
            ("Boris", "Ha, that was one time!"), ("Anna", "It was twice."), ("Sam", "Three times, actually."),
            ("Boris", "Fine. Boots. Noted."), ("Anna", "Weather says sunny in the morning."),
            ("Sam", "Perfect for the lake trail."), ("Boris", "How long is that one?"),
            ("Anna", "About 12 km with the loop."), ("Boris", "Lunch included?"), ("Sam", "Sandwiches on me."),
            ("Anna", "I'll make the tea then."), ("Boris", "And I'll carry everything back."),
            ("Anna", "Deal."), ("Sam", "See you both soon!"),
        ]
        return lines
    }()

    public func fetch(offset: Int, limit: Int, cancellation: Cancellation) throws(DomainError) -> [FeedMessage] {
        // The feed runs newest first; the conversation above is written oldest first.
        let base: Int64 = 1_767_261_600_000  // 2026-01-01T10:00:00Z
        let newestFirst = Self.conversation.enumerated().reversed().map { index, line in
            FeedMessage(
                id: "sample-\(index)", text: line.text, sentAt: base + Int64(index) * 240_000,
                author: Author(name: line.author, avatarURL: nil))
        }
        return Array(newestFirst.dropFirst(offset).prefix(limit))
    }
}
