#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Domain
import Protocol
import Synchronization

/// The requests of one connection that wait on a network (``RPCMethod/network``), in lanes: one per network
/// (the message feed, PostgreSQL), named by the method's prefix. In a lane, one at a time in the order they
/// came: each starts when the one before it has finished (so a second `messages.loadMore` reads where the
/// first one stopped). Lanes do not wait for each other: a stuck sync never holds back a load from the
/// feed. Each wait runs on a thread of its own and is finished on the loop thread when the loop sees
/// ``wakeDescriptor`` readable.
///
/// - Important: Used on the loop thread, except what a wait's thread does: hand in its result and wake.
final class NetworkWaits {
    /// A request waiting its turn, or the one in flight.
    final class Job {
        let id: RequestID?
        let method: RPCMethod
        let steps: NetworkSteps
        let progress: ProgressReporter?
        let cancellation = Cancellation()
        /// Set once started: what finishes it on the loop thread.
        var finish: ((any Sendable) throws -> JSONValue)?
        /// Called once it is over, however it ended (answered, failed, cancelled).
        let ended: (() -> Void)?
        /// Its lane: the network it waits on (`messages`, `sync`).
        var lane: Substring { method.name.prefix { $0 != "." } }

        init(
            id: RequestID?, method: RPCMethod, steps: NetworkSteps, progress: ProgressReporter?,
            ended: (() -> Void)? = nil
        ) {
            self.id = id
            self.method = method
            self.steps = steps
            self.progress = progress
            self.ended = ended
        }
    }

    /// Where a wait's thread hands in what it brought (by its job), and wakes the loop.
    private final class Mailbox: Sendable {
        let results = Mutex<[(ObjectIdentifier, Result<any Sendable, DomainError>)]>([])
        /// What each wait has reported and the loop has not yet passed on — its first report (which goes out
        /// at once, as a request on the loop sends its first) and its latest — with when a wait last woke the
        /// loop for it (monotonic seconds).
        let progress = Mutex<(first: [ObjectIdentifier: (Int, Int)], latest: [ObjectIdentifier: (Int, Int)], woken: [ObjectIdentifier: Double])>(
            ([:], [:], [:]))
        /// Read end: readable once a result is in. Write end: for the waits' threads.
        let reader: Int32
        let writer: Int32

        init() {
            var ends: [Int32] = [-1, -1]
            let made = pipe(&ends)
            precondition(made == 0, "cannot make the pipe that wakes the server loop (errno \(errno))")
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, O_NONBLOCK)
            }
            (reader, writer) = (ends[0], ends[1])
        }

        func post(_ job: ObjectIdentifier, _ value: Result<any Sendable, DomainError>) {
            results.withLock { $0.append((job, value)) }
            wake()
        }

        /// Keeps `done` of `total` as the job's latest progress; wakes the loop at most every 100 ms for it
        /// (and for the last report, `done == total`).
        func post(progress done: Int, of total: Int, for job: ObjectIdentifier) {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let seconds = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
            let due = progress.withLock { state -> Bool in
                if state.woken[job] == nil {
                    state.first[job] = (done, total)
                } else {
                    state.latest[job] = (done, total)
                }
                guard done >= total || seconds - (state.woken[job] ?? 0) >= 0.1 else { return false }
                state.woken[job] = seconds
                return true
            }
            if due { wake() }
        }

        private func wake() {
            var byte: UInt8 = 1
            _ = write(writer, &byte, 1)
        }

        deinit {
            close(reader)
            close(writer)
        }
    }

    private var queued: [Job] = []
    /// The job in flight in each lane.
    private var inFlight: [Substring: Job] = [:]
    private let mailbox = Mailbox()
    /// Readable once a wait has handed in its result.
    var wakeDescriptor: Int32 { mailbox.reader }

    /// Whether no request waits on a network, in line or in flight.
    var isIdle: Bool { inFlight.isEmpty && queued.isEmpty }

    /// Whether a request of the client's (one with an id) waits, in line or in flight; the server's own
    /// rounds of sync do not count (at the end of input they are let go: what they did not push stays).
    var hasRequestsWaiting: Bool {
        queued.contains { $0.id != nil } || inFlight.values.contains { $0.id != nil && !$0.cancellation.isCancelled }
    }

    func enqueue(_ job: Job) {
        queued.append(job)
    }

    /// Puts `job` first in line: its steps run again before anything else.
    func again(_ job: Job) {
        job.finish = nil
        queued.insert(job, at: 0)
    }

    /// The next job to start: the first in line whose lane has none in flight.
    func next() -> Job? {
        guard let index = queued.firstIndex(where: { inFlight[$0.lane] == nil }) else { return nil }
        return queued.remove(at: index)
    }

    /// Sends `job`'s wait to a thread of its own.
    func launch(_ job: Job, _ started: NetworkSteps.Started) {
        job.finish = started.finish
        inFlight[job.lane] = job
        let (wait, cancellation, mailbox, key) = (started.wait, job.cancellation, mailbox, ObjectIdentifier(job))
        let progress = WaitProgress { done, total in mailbox.post(progress: done, of: total, for: key) }
        DispatchQueue.global().async { mailbox.post(key, wait(cancellation, progress)) }
    }

    /// The jobs whose waits are over, with what each brought (the wake-up is consumed).
    func takeArrived() -> [(Job, Result<any Sendable, DomainError>)] {
        var drain = [UInt8](repeating: 0, count: 64)
        while read(mailbox.reader, &drain, drain.count) > 0 {}
        let arrived = mailbox.results.withLock { results in defer { results = [] }; return results }
        return arrived.compactMap { key, result in
            guard let (lane, job) = inFlight.first(where: { ObjectIdentifier($0.value) == key }) else { return nil }
            inFlight[lane] = nil
            return (job, result)
        }
    }

    /// What the waits in flight reported since the last call: for each, its first report (once) and its
    /// latest, in that order.
    func takeProgress() -> [(Job, Int, Int)] {
        let (first, latest) = mailbox.progress.withLock { state in
            defer { (state.first, state.latest) = ([:], [:]) }
            return (state.first, state.latest)
        }
        var reports: [(Job, Int, Int)] = []
        for job in inFlight.values {
            let key = ObjectIdentifier(job)
            for report in [first[key], latest[key]].compactMap({ $0 }) { reports.append((job, report.0, report.1)) }
        }
        return reports
    }

    /// What `job` (whose wait is over) reported and was not yet passed on, to go out before its answer.
    func takeProgress(of job: Job) -> [(Int, Int)] {
        let key = ObjectIdentifier(job)
        return mailbox.progress.withLock { state in
            defer { (state.first[key], state.latest[key], state.woken[key]) = (nil, nil, nil) }
            return [state.first[key], state.latest[key]].compactMap { $0 }
        }
    }

    /// Takes the request `id` out of line, or cancels its wait (whose result is then dropped); `nil` when
    /// no request with that id waits.
    func cancel(_ id: RequestID) -> Job? {
        if let index = queued.firstIndex(where: { $0.id == id }) {
            return queued.remove(at: index)
        }
        guard let job = inFlight.values.first(where: { $0.id == id }), !job.cancellation.isCancelled else { return nil }
        job.cancellation.cancel()
        return job
    }

    /// Every job still waiting (those in flight, whose waits are cancelled, and those in line).
    func cancelAll() -> [Job] {
        var jobs = inFlight.values.filter { !$0.cancellation.isCancelled }
        jobs.forEach { $0.cancellation.cancel() }
        jobs += queued
        queued = []
        return jobs
    }
}
