import Domain
import Protocol
import Sync

/// Starts the rounds of sync the server runs by itself (SPEC §14): after local changes, and when the link
/// says another device pushed or PostgreSQL is back. A round is a ``NetworkSteps`` job without an id, in
/// the sync lane of the requests that wait on a network (with `sync.now`), so it never runs on the request
/// path, never beside another round, and never holds back a load from the message feed.
///
/// - Important: Used only on the thread that runs the server loop.
final class SyncDriver {
    private let service: SyncService
    private let store: DataStore
    private let dispatcher: RequestDispatcher
    private let method: RPCMethod
    private let logger: Logger
    /// A round is in line or running.
    private var busy = false
    /// The newest change-log entry a round has been started for.
    private var started: Int64 = -1
    /// The link asked for a round (another device pushed; connected again).
    private var asked = true
    /// After a round failed: no round of our own accord before this (milliseconds, monotonic), unless asked.
    private var quietUntil: Int64 = 0

    init(service: SyncService, store: DataStore, dispatcher: RequestDispatcher, logger: Logger) {
        self.service = service
        self.store = store
        self.dispatcher = dispatcher
        self.logger = logger
        method = dispatcher.registry["sync.now"]!
    }

    /// Readable when the link asks for a round.
    var wakeDescriptor: Int32 { service.wakeDescriptor }

    /// The link asked (its descriptor was readable).
    func woken() {
        service.drainWake()
        asked = true
    }

    /// After a failed round, how long until the next may start of its own accord (milliseconds): the loop
    /// wakes then even without input, so that what could not go out goes when PostgreSQL takes it again,
    /// not only when something else happens. `nil` when no round waits for a retry.
    func millisecondsUntilRetry(now: Int64) -> Int32? {
        guard !busy, started < 0, quietUntil > 0, service.status.schema == .ok else { return nil }
        return Int32(clamping: max(0, quietUntil - now) + 1)
    }

    /// Starts a round when one may have something to do and none is in line (after each flush).
    func nudge(now: Int64, into output: inout JSONWriter) {
        guard !busy, service.status.schema == .ok else { return }
        let newest = (try? store.changes.latestSequence()) ?? 0
        let changedHere = newest > started
        guard asked || (changedHere && now >= quietUntil) else { return }
        busy = true
        asked = false
        started = newest
        let totals = SyncMethods.Totals()
        let steps = SyncMethods.round(store: store, service: service, logger: logger, session: nil, totals: totals)
        dispatcher.waits.enqueue(
            NetworkWaits.Job(id: nil, method: method, steps: steps, progress: nil) { [unowned self] in
                self.busy = false
                if totals.finished {
                    // Through again: the next local change goes at once. (A quiet time left from a failure
                    // held it back until something else woke the loop: the retry's wake-up is only for a
                    // round that failed.)
                    self.quietUntil = 0
                } else {  // it failed: wait for the link to say it is back, or a while
                    self.quietUntil = now + 10_000
                    self.started = -1  // what it could not push is still to go
                }
            })
        dispatcher.startWaits(into: &output)
    }
}
