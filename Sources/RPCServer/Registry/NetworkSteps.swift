import Domain
import Protocol

/// How far work off the loop has got: handed to the loop, which tells the client (a request's
/// `notifications/progress`), at most every 100 ms and always at the end.
final class WaitProgress: Sendable {
    private let post: @Sendable (Int, Int) -> Void

    init(_ post: @escaping @Sendable (Int, Int) -> Void) {
        self.post = post
    }

    /// Hears nothing (a wait run in line: nobody to tell between its steps).
    static let none = WaitProgress { _, _ in }

    func report(_ done: Int, total: Int) {
        post(done, total)
    }
}

/// How a request that waits on a network is served without holding back the requests after it: `start`
/// reads what it needs on the loop thread when its turn comes, `wait` runs on a thread of its own
/// (touching neither the loop's connection nor the session; a long read, `export` to a file, reads on a
/// connection of its own), and `finish` stores and answers on the loop thread.
struct NetworkSteps {
    let start: () throws -> Started

    /// Thrown by `finish` when the work is not done: the steps run again, from `start`, before the answer.
    struct Again: Error {}

    struct Started {
        /// Runs off the loop thread.
        let wait: @Sendable (Cancellation, WaitProgress) -> Result<any Sendable, DomainError>
        /// Runs on the loop thread with what `wait` brought.
        let finish: (any Sendable) throws -> JSONValue
    }

    init(start: @escaping () throws -> Started) {
        self.start = start
    }

    /// Steps that wait on nothing and answer `value`.
    static func answered(_ value: JSONValue) -> NetworkSteps {
        NetworkSteps { Started(wait: { _, _ in .success(0) }, finish: { _ in value }) }
    }

    /// The same steps, with their outcome — the answer, or any step's error as `method` words it — turned
    /// into another answer by `transform` (an MCP tool's result, whose errors are results too).
    func answering(
        as method: RPCMethod, logger: Logger, _ transform: @escaping (Result<JSONValue, ServerError>) -> JSONValue
    ) -> NetworkSteps {
        NetworkSteps {
            switch method.outcome(logger: logger, start) {
            case .failure(let error):
                return Started(wait: { _, _ in .success(0) }, finish: { _ in transform(.failure(error)) })
            case .success(let inner):
                // The wait's failure travels as a value, so that it reaches `transform` too.
                let wait = inner.wait
                return Started(
                    wait: { cancellation, progress in .success(wait(cancellation, progress)) },
                    finish: { waited in
                        let result = waited as! Result<any Sendable, DomainError>
                        return transform(method.outcome(logger: logger) { try inner.finish(try result.get()) })
                    })
            }
        }
    }

    init<Load: Sendable, Fetched: Sendable>(
        start: @escaping () throws -> Load,
        wait: @escaping @Sendable (Load, Cancellation) throws(DomainError) -> Fetched,
        finish: @escaping (Load, Fetched) throws -> JSONValue
    ) {
        self.init(start: start, wait: { load, cancellation, _ throws(DomainError) in try wait(load, cancellation) }, finish: finish)
    }

    /// Steps whose wait reports how far it has got.
    init<Load: Sendable, Fetched: Sendable>(
        start: @escaping () throws -> Load,
        wait: @escaping @Sendable (Load, Cancellation, WaitProgress) throws(DomainError) -> Fetched,
        finish: @escaping (Load, Fetched) throws -> JSONValue
    ) {
        self.start = {
            let load = try start()
            return Started(
                wait: { cancellation, progress in
                    Result { () throws(DomainError) in try wait(load, cancellation, progress) }.map { $0 as any Sendable }
                },
                finish: { fetched in try finish(load, fetched as! Fetched) })
        }
    }

    /// The three steps in a row on this thread (as often as `finish` asks): for a batch (answered as one
    /// line) and an MCP tool call.
    func runInline() throws -> JSONValue {
        while true {
            let started = try start()
            do {
                return try started.finish(try started.wait(Cancellation(), .none).get())
            } catch is Again {
                continue
            }
        }
    }
}
