import Domain
import Protocol

/// How a request that waits on a network is served without holding back the requests after it: `start`
/// reads what it needs on the loop thread when its turn comes, `wait` runs on a thread of its own
/// (touching neither the database nor the session), and `finish` stores and answers on the loop thread.
struct NetworkSteps {
    let start: () throws -> Started

    struct Started {
        /// Runs off the loop thread.
        let wait: @Sendable (Cancellation) -> Result<any Sendable, DomainError>
        /// Runs on the loop thread with what `wait` brought.
        let finish: (any Sendable) throws -> JSONValue
    }

    init<Load: Sendable, Fetched: Sendable>(
        start: @escaping () throws -> Load,
        wait: @escaping @Sendable (Load, Cancellation) throws(DomainError) -> Fetched,
        finish: @escaping (Load, Fetched) throws -> JSONValue
    ) {
        self.start = {
            let load = try start()
            return Started(
                wait: { cancellation in
                    Result { () throws(DomainError) in try wait(load, cancellation) }.map { $0 as any Sendable }
                },
                finish: { fetched in try finish(load, fetched as! Fetched) })
        }
    }

    /// The three steps in a row on this thread: for a batch (answered as one line) and an MCP tool call.
    func runInline() throws -> JSONValue {
        let started = try start()
        return try started.finish(try started.wait(Cancellation()).get())
    }
}
