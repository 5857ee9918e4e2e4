#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One conversation with a server, over whatever transport: ids given and matched to answers, progress
/// and change notifications handed out, a cancelled call told to the server. After the server ends
/// unasked, a restartable connection starts it again and reads back, from the change log, the changes its
/// feed missed meanwhile.
actor Connection {
    private let makeTransport: @Sendable () -> any SatchelTransport
    private let restarts: Bool
    private var transport: (any SatchelTransport)?
    /// Which start of the server the transport is: what an ended older one says is not this one's end.
    private var generation = 0
    private var nextID = 1
    private var waiting: [Int: CheckedContinuation<Result<Data, SatchelError>, Never>] = [:]
    private var progress: [Int: @Sendable (CallProgress) -> Void] = [:]
    private var closed = false
    /// Those waiting in ``close()`` for the server to stop.
    private var stopping: [CheckedContinuation<Void, Never>] = []
    private var stopped = false
    private let events: AsyncStream<Event>.Continuation
    private let encoder = WireDates.encoder()
    let decoder = WireDates.decoder()

    /// The change feed: its listeners, the domains it hears, the last change it heard, and where the log
    /// was when it began (read back from after a restart).
    private var feeds: [UUID: AsyncStream<Change>.Continuation] = [:]
    private var subscription: (domains: [String]?, cursor: String, lastSeq: Int)?
    /// While the feed catches up after a restart, what the new server notifies waits here, to follow what
    /// the log gives back.
    private var heldBack: [Change]?

    enum Event {
        case line(Data, generation: Int)
        case ended(Int32, generation: Int)
    }

    init(restarts: Bool, makeTransport: @escaping @Sendable () -> any SatchelTransport) {
        self.makeTransport = makeTransport
        self.restarts = restarts
        let (stream, continuation) = AsyncStream<Event>.makeStream()
        events = continuation
        Task { [weak self] in
            for await event in stream {
                guard let self else { return }
                await self.handle(event)
            }
        }
    }

    /// A connection let go without ``close()`` ends its server all the same.
    deinit {
        transport?.close()
    }

    /// Starts the server.
    func start() throws(SatchelError) {
        generation += 1
        let transport = makeTransport()
        let events = self.events
        let generation = self.generation
        do {
            try transport.start(
                receive: { events.yield(.line($0, generation: generation)) },
                ended: { events.yield(.ended($0, generation: generation)) })
        } catch {
            throw SatchelError.serverExited(status: -1)
        }
        self.transport = transport
    }

    var processIdentifier: Int32? { transport?.processIdentifier }

    /// Sends `method` and waits for its answer (the whole line).
    func call(
        _ method: String, _ params: Params, progress report: (@Sendable (CallProgress) -> Void)?
    ) async -> Result<Data, SatchelError> {
        guard !closed, let transport else { return .failure(.closed) }
        let id = nextID
        nextID += 1
        let line: Data
        do {
            line = try encoder.encode(Request(id: id, method: method, params: params, progressToken: report == nil ? nil : id)) + [10]
        } catch {
            return .failure(.unreadableAnswer(detail: "the params of \(method) cannot be written: \(error)"))
        }
        if let report { progress[id] = report }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiting[id] = continuation
                do {
                    try transport.send(line)
                } catch {
                    finish(id, .failure(.serverExited(status: -1)))
                }
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    /// The caller no longer waits for `id`: it gets `cancelled` now, and the server is told (a call that
    /// waits on a network ends there; any other was answered already, and its answer is dropped).
    private func cancel(_ id: Int) {
        guard waiting[id] != nil else { return }
        finish(id, .failure(.cancelled))
        if let line = try? encoder.encode(Notification(method: "notifications/cancelled", params: ["requestId": id])) {
            try? transport?.send(line + [10])
        }
    }

    private func finish(_ id: Int, _ result: Result<Data, SatchelError>) {
        progress[id] = nil
        waiting.removeValue(forKey: id)?.resume(returning: result)
    }

    /// Ends the server's input, fails what still waits, and returns once the server has stopped (its
    /// database closed).
    func close() async {
        if !closed {
            closed = true
            transport?.close()
            for id in waiting.keys { finish(id, .failure(.closed)) }
            for feed in feeds.values { feed.finish() }
            feeds = [:]
        }
        guard !stopped, transport != nil else { return }
        await withCheckedContinuation { stopping.append($0) }
    }

    // MARK: The change feed

    /// A new listener of the feed; the first subscribes the connection.
    func listen(domains: [String]?) async throws(SatchelError) -> AsyncStream<Change> {
        if subscription == nil {
            var params = Params()
            params.set("domains", domains)
            let answer: CursorAnswer = try decode(await call("changes.subscribe", params, progress: nil).get())
            subscription = (domains, answer.cursor, 0)
        }
        let (stream, continuation) = AsyncStream<Change>.makeStream()
        let key = UUID()
        feeds[key] = continuation
        continuation.onTermination = { _ in Task { await self.stopListening(key) } }
        return stream
    }

    private func stopListening(_ key: UUID) {
        feeds[key] = nil
    }

    private func deliver(_ change: Change, live: Bool = true) {
        if live && heldBack != nil {
            heldBack?.append(change)
            return
        }
        if case .changed(let event, _) = change, let last = subscription?.lastSeq, event.seq <= last { return }
        if case .changed(let event, _) = change, let last = subscription?.lastSeq, event.seq > last {
            subscription?.lastSeq = event.seq
        }
        for feed in feeds.values { feed.yield(change) }
    }

    func decode<T: Decodable & Sendable>(_ line: Data) throws(SatchelError) -> T {
        do {
            return try decoder.decode(Answer<T>.self, from: line).result
        } catch {
            throw SatchelError.unreadableAnswer(detail: "\(error)")
        }
    }

    // MARK: What the server says

    private func handle(_ event: Event) {
        switch event {
        case .line(let line, let from):
            guard from == generation else { return }
            handle(line: line)
        case .ended(let status, let from):
            guard from == generation else { return }
            transport = nil
            if closed {
                stopped = true
                for waiter in stopping { waiter.resume() }
                stopping = []
            }
            for id in waiting.keys { finish(id, .failure(.serverExited(status: status))) }
            guard restarts && !closed else {
                closed = true
                for feed in feeds.values { feed.finish() }
                feeds = [:]
                return
            }
            // Started again; the feed catches up in a task of its own, so that this one goes on reading
            // the answers it waits for.
            do {
                try start()
            } catch {
                closed = true
                for feed in feeds.values { feed.finish() }
                return
            }
            if subscription != nil { heldBack = [] }
            Task { await self.catchUp() }
        }
    }

    private func handle(line: Data) {
        guard let envelope = try? decoder.decode(Envelope.self, from: line) else { return }
        if let id = envelope.id {
            if let error = envelope.error {
                finish(id, .failure(SatchelError(error)))
            } else {
                finish(id, .success(line))
            }
            return
        }
        switch envelope.method {
        case "notifications/progress":
            guard let report = try? decoder.decode(Notified<ProgressParams>.self, from: line).params,
                let callback = progress[report.progressToken]
            else { return }
            callback(CallProgress(progress: report.progress, total: report.total, message: report.message))
        case "changed":
            guard let changed = try? decoder.decode(Notified<ChangedParams>.self, from: line).params else { return }
            deliver(.changed(changed.event, changed.entity))
        case "resync":
            guard let resync = try? decoder.decode(Notified<ResyncParams>.self, from: line).params else { return }
            deliver(.resync(since: resync.since, cursor: resync.cursor, seq: resync.seq))
        default:
            break
        }
    }

    /// After a restart: the feed subscribes again, and what it missed while the server was down (from the
    /// log, after the last change it heard) comes first, without its entities' state.
    private func catchUp() async {
        guard let old = subscription else { return }
        defer {
            let held = heldBack ?? []
            heldBack = nil
            for change in held { deliver(change) }
        }
        var params = Params()
        params.set("domains", old.domains)
        guard let answer: CursorAnswer = try? decode(await call("changes.subscribe", params, progress: nil).get()) else { return }
        subscription = (old.domains, answer.cursor, old.lastSeq)
        var cursor = old.cursor
        while true {
            var page = Params()
            page.set("cursor", cursor)
            page.set("limit", 1000)
            guard let events: ChangesSinceResult = try? decode(await call("changes.since", page, progress: nil).get()) else { return }
            for event in events.events where old.domains?.contains(event.domain) ?? true {
                deliver(.changed(event, nil), live: false)
            }
            cursor = events.nextCursor
            if !events.hasMore { break }
        }
    }
}

// MARK: Messages on the wire

private struct Request: Encodable {
    let id: Int
    let method: String
    let params: Params
    let progressToken: Int?

    private enum Keys: String, CodingKey { case jsonrpc, id, method, params }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode("2.0", forKey: .jsonrpc)
        try container.encode(id, forKey: .id)
        try container.encode(method, forKey: .method)
        var withToken = params
        if let progressToken { withToken.set("_meta", ["progressToken": progressToken]) }
        if !withToken.isEmpty { try container.encode(withToken, forKey: .params) }
    }
}

private struct Notification: Encodable {
    let jsonrpc = "2.0"
    let method: String
    let params: [String: Int]
}

/// What every line is read as first: an answer (by id) or a notification (by method).
private struct Envelope: Decodable {
    let id: Int?
    let method: String?
    let error: ErrorInfo?

    private enum Keys: String, CodingKey { case id, method, error }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        id = try? container.decodeIfPresent(Int.self, forKey: .id)
        method = try container.decodeIfPresent(String.self, forKey: .method)
        error = try container.decodeIfPresent(ErrorInfo.self, forKey: .error)
    }
}

private struct Answer<T: Decodable>: Decodable {
    let result: T
}

private struct Notified<T: Decodable>: Decodable {
    let params: T
}

private struct ProgressParams: Decodable {
    let progressToken: Int
    let progress: Int
    let total: Int?
    let message: String?
}

private struct ResyncParams: Decodable {
    let since: String
    let cursor: String
    let seq: Int
}

private struct CursorAnswer: Decodable {
    let cursor: String
}
