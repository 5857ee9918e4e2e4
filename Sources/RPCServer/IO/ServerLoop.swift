#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Domain
import Protocol

/// The stdio loop: waits for input, a stop signal or the end of a network wait, reads in large chunks, frames
/// lines, dispatches them in order and writes the answers of each chunk with one `write` (so pipelined
/// requests share a flush). A request that waits on a network is answered when its wait ends.
///
/// - Important: Runs on one thread; everything it calls is used only from there.
final class ServerLoop {
    private let dispatcher: RequestDispatcher
    private let input: ServerInput
    private let output: any ProtocolSink
    /// Readable when a stop signal arrived (-1: none are watched).
    private let signals: Int32
    private let logger: Logger
    private let store: DataStore
    private var framer: LineFramer
    private var pending = JSONWriter(capacity: 1 << 16)
    private var outputBroken = false
    private let notifier: ChangeNotifier

    /// How often a subscribed connection looks for commits made by other processes.
    static let changePollMilliseconds: Int32 = 50
    /// How long input must have been quiet before the server spends a step on the search index.
    static let idleIndexMilliseconds: Int32 = 100
    /// Whether the search index may lag the change log (after any input, and at start).
    private var indexMayBeBehind = true
    /// Whether the loop is stepping through the index while input is quiet: then it only glances at the
    /// input between steps instead of waiting another while.
    private var indexingWhileIdle = false
    /// When input last arrived (milliseconds on the monotonic clock).
    private var lastInput = ServerLoop.monotonicMilliseconds()

    private static func monotonicMilliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }

    /// Answers are written out once this many bytes are waiting, even in the middle of a chunk.
    private let flushThreshold = 1 << 20
    private let readSize = 1 << 20

    /// Sync's own rounds, with `--sync`.
    private let sync: SyncDriver?

    init(
        dispatcher: RequestDispatcher, store: DataStore, input: ServerInput, output: any ProtocolSink, signals: Int32,
        logger: Logger, sync: SyncDriver? = nil
    ) {
        self.sync = sync
        self.dispatcher = dispatcher
        self.store = store
        self.input = input
        self.output = output
        self.signals = signals
        self.logger = logger
        self.framer = LineFramer(maximumLineBytes: dispatcher.maximumMessageBytes)
        self.notifier = ChangeNotifier(store: store, session: dispatcher.session, logger: logger)
        dispatcher.sendNow = { [unowned self] line in self.write(&line) }
        dispatcher.now = Self.monotonicMilliseconds
        dispatcher.commitBeforeExternalWork = { [unowned self] output in
            defer { self.store.beginWriteGroup() }
            // Commit, then let the answers so far go out: they need not wait for the slow work either.
            var failure: DomainError? = nil
            do throws(DomainError) {
                try self.store.commitWriteGroup()
                self.dispatcher.answersCommitted()
            } catch {
                self.dispatcher.answersRolledBack(error, output: &output)
                failure = error
            }
            self.write(&output)
            return failure
        }
    }

    /// Pipes hold 64 KiB by default: a client pipelining thousands of requests then wakes this process
    /// (and is woken) every few hundred messages. On Linux both of our pipes are made 1 MiB (the default
    /// most an unprivileged process may ask for), so each side runs longer between switches. Anything that
    /// is not a pipe, or a smaller allowance, leaves things as they were.
    static func enlargePipes(_ descriptors: [Int32]) {
        #if os(Linux)
        let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ, which Glibc's Swift module does not export
        for descriptor in descriptors {
            _ = fcntl(descriptor, setPipeSize, 1 << 20)
        }
        #endif
    }

    /// Serves until end of input, a stop signal or `exit`; returns the process's exit code.
    func run() -> Int32 {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readSize, alignment: 16)
        defer { buffer.deallocate() }
        var descriptors = [
            pollfd(fd: input.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signals, events: Int16(POLLIN), revents: 0),
            pollfd(fd: dispatcher.waits.wakeDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: sync?.wakeDescriptor ?? -1, events: Int16(POLLIN), revents: 0),
        ]
        serving: while true {
            flush()
            if let sync {
                sync.nudge(now: Self.monotonicMilliseconds(), into: &pending)
                flush()
            }
            // Input has ended: what the client still waits for on a network is answered before the end
            // (a round of sync the server started itself is let go: what it did not push stays, to go later).
            if descriptors[0].fd < 0 && !dispatcher.waits.hasRequestsWaiting { break }
            for index in descriptors.indices { descriptors[index].revents = 0 }
            // A subscribed connection also watches the database for other processes' commits, a few times a
            // second (a cheap indexed read); otherwise the loop sleeps until input or a signal arrives.
            var timeout: Int32 = dispatcher.session.subscription == nil ? -1 : Self.changePollMilliseconds
            if indexMayBeBehind {
                let idle = indexingWhileIdle ? 0 : Self.idleIndexMilliseconds
                timeout = timeout < 0 ? idle : min(timeout, idle)
            }
            // A round of sync that failed is tried again in a while, whether or not anything else happens.
            if let retry = sync?.millisecondsUntilRetry(now: Self.monotonicMilliseconds()) {
                timeout = timeout < 0 ? retry : min(timeout, retry)
            }
            // Waiting for the client's answer (its roots) ends in time even if it never comes.
            if let wait = dispatcher.remainingWait {
                let milliseconds = Int32(clamping: wait + 1)
                timeout = timeout < 0 ? milliseconds : min(timeout, milliseconds)
            }
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                logger.error("poll failed: errno \(errno)")
                break
            }
            if ready == 0 {
                if dispatcher.isWaitingForClient {
                    store.beginWriteGroup()
                    dispatcher.stopWaitingIfDue(into: &pending)
                    if dispatcher.session.exitRequested { break serving }
                }
                let quiet = Self.monotonicMilliseconds() - lastInput >= Int64(Self.idleIndexMilliseconds)
                if indexMayBeBehind && (indexingWhileIdle || quiet) { indexingWhileIdle = indexWhileIdle() }
                continue  // the top of the loop delivers what other processes committed
            }
            indexingWhileIdle = false
            if descriptors[1].revents != 0 {
                logger.info("stop signal received; finishing")
                break
            }
            if descriptors[2].revents != 0 {
                store.beginWriteGroup()
                dispatcher.finishWaits(into: &pending)
            }
            if descriptors[3].revents != 0 { sync?.woken() }
            guard descriptors[0].revents != 0 else { continue }
            let count = input.read(buffer)
            lastInput = Self.monotonicMilliseconds()
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                logger.error("reading the input failed: errno \(errno)")
                break
            }
            // Everything in this chunk shares one commit, made (in flush) before any of its answers is written.
            store.beginWriteGroup()
            indexMayBeBehind = true
            if count == 0 {
                framer.finish { event in handle(event) }
                if dispatcher.session.exitRequested { break serving }
                descriptors[0].fd = -1  // poll leaves it alone; the loop ends once nothing waits
                continue
            }
            framer.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { event in handle(event) }
            if dispatcher.session.exitRequested { break serving }
        }
        // What was held back for the client's answer is answered before the end (unless `exit` came).
        if dispatcher.isWaitingForClient && !dispatcher.session.exitRequested {
            store.beginWriteGroup()
            dispatcher.stopWaitingIfDue(force: true, into: &pending)
        }
        // A stop signal or `exit`: whatever still waits on a network is answered -32007.
        if !dispatcher.waits.isIdle {
            store.beginWriteGroup()
            dispatcher.abandonWaits(into: &pending)
        }
        finishSession()
        flush()
        return 0
    }

    /// One small step of bringing the search index up to the change log, taken only while input is quiet,
    /// never waiting for another process's write lock (a search catches up on what is left). Returns
    /// whether the next step may follow at once: not when this one found the lock taken.
    private func indexWhileIdle() -> Bool {
        do {
            switch try store.search.catchUp(limit: SearchIndex.idleBatch, waiting: false) {
            case .upToDate:
                indexMayBeBehind = false
            case .moreToDo:
                return true
            case .busy:
                break
            }
        } catch {
            logger.error("could not update the search index: \(error)")
            indexMayBeBehind = false
        }
        return false
    }

    /// However serving ends (end of input, a signal, `exit`), the editing session ends with its cleanup.
    private func finishSession() {
        do {
            try store.reminders.endSession(dispatcher.session.editing)
        } catch {
            logger.error("could not end the editing session: \(error)")
        }
    }

    private func handle(_ event: LineFramer.Event) {
        // After `exit`, the rest of the input is not read.
        if dispatcher.session.exitRequested { return }
        switch event {
        case .line(let line): dispatcher.handle(line: line, into: &pending)
        case .lineTooLong: dispatcher.handleLineTooLong(into: &pending)
        }
        // A failure that rolled the shared transaction back (a full disk) undid what the answers so far
        // report: they say so, with its reason; what comes next runs in a transaction of its own, so a read
        // behind it is answered from what is stored.
        if let cause = store.takeLostWriteGroup() {
            logger.error("the shared transaction was rolled back; the answers since the last commit are replaced: \(cause)")
            dispatcher.answersRolledBack(cause, output: &pending)
        }
        if pending.count >= flushThreshold {
            flush()
            store.beginWriteGroup()
        }
    }

    /// Commits the write group, then writes the answers that report on it, followed by the change
    /// notifications a subscription is owed.
    private func flush() {
        do {
            try store.commitWriteGroup()
            dispatcher.answersCommitted()
        } catch {
            logger.error("commit failed, the last \(pending.count) bytes of answers are replaced: \(error)")
            dispatcher.answersRolledBack(error, output: &pending)
        }
        notifier.deliver(into: &pending) { write(&$0) }
        write(&pending)
    }

    /// Writes `bytes` to the output and empties them.
    private func write(_ bytes: inout JSONWriter) {
        guard bytes.count > 0 else { return }
        if !outputBroken && !bytes.withUnsafeBytes({ output.write($0) }) {
            outputBroken = true
            logger.warn("the output is closed; answers are dropped from now on")
        }
        bytes.removeAll()
    }
}
