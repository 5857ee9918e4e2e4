#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Domain
import Protocol
import Synchronization

/// The requests of one connection that wait on a network (``RPCMethod/network``), one at a time in the
/// order they came: each starts when the one before it has finished (so a second `messages.loadMore` reads
/// where the first one stopped), waits on a thread of its own, and is finished on the loop thread when the
/// loop sees ``wakeDescriptor`` readable.
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

    /// Where a wait's thread hands in what it brought, and wakes the loop.
    private final class Mailbox: Sendable {
        let result = Mutex<Result<any Sendable, DomainError>?>(nil)
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

        func post(_ value: Result<any Sendable, DomainError>) {
            result.withLock { $0 = value }
            var byte: UInt8 = 1
            _ = write(writer, &byte, 1)
        }

        deinit {
            close(reader)
            close(writer)
        }
    }

    private var queued: [Job] = []
    private(set) var inFlight: Job?
    private let mailbox = Mailbox()
    /// Readable once a wait has handed in its result.
    var wakeDescriptor: Int32 { mailbox.reader }

    /// Whether no request waits on a network, in line or in flight.
    var isIdle: Bool { inFlight == nil && queued.isEmpty }

    func enqueue(_ job: Job) {
        queued.append(job)
    }

    /// Puts `job` first in line: its steps run again before anything else.
    func again(_ job: Job) {
        job.finish = nil
        queued.insert(job, at: 0)
    }

    /// The next job to start, when none is in flight.
    func next() -> Job? {
        guard inFlight == nil, !queued.isEmpty else { return nil }
        return queued.removeFirst()
    }

    /// Sends `job`'s wait to a thread of its own.
    func launch(_ job: Job, _ started: NetworkSteps.Started) {
        job.finish = started.finish
        inFlight = job
        let (wait, cancellation, mailbox) = (started.wait, job.cancellation, mailbox)
        DispatchQueue.global().async { mailbox.post(wait(cancellation)) }
    }

    /// The job in flight and what its wait brought, once it has come (the wake-up is consumed).
    func takeArrived() -> (Job, Result<any Sendable, DomainError>)? {
        var drain = [UInt8](repeating: 0, count: 64)
        while read(mailbox.reader, &drain, drain.count) > 0 {}
        guard let job = inFlight, let result = mailbox.result.withLock({ value in defer { value = nil }; return value })
        else { return nil }
        inFlight = nil
        return (job, result)
    }

    /// Takes the request `id` out of line, or cancels its wait (whose result is then dropped); `nil` when
    /// no request with that id waits.
    func cancel(_ id: RequestID) -> Job? {
        if let index = queued.firstIndex(where: { $0.id == id }) {
            return queued.remove(at: index)
        }
        guard let job = inFlight, job.id == id, !job.cancellation.isCancelled else { return nil }
        job.cancellation.cancel()
        return job
    }

    /// Every job still waiting (in line, and the one in flight, whose wait is cancelled).
    func cancelAll() -> [Job] {
        var jobs = queued
        queued = []
        if let job = inFlight, !job.cancellation.isCancelled {
            job.cancellation.cancel()
            jobs.insert(job, at: 0)
        }
        return jobs
    }
}
