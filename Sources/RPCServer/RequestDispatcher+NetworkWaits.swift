import Domain
import Protocol

/// Requests that wait on a network (SPEC §1): answered when the network answers, never holding back the
/// answers to the requests after them.
extension RequestDispatcher {
    /// Puts `request` in line; its answer comes from ``finishWaits(into:)`` (or at once, for bad params).
    /// Returns false when this call waits on nothing after all (it is then run as any other).
    func wait(_ request: Request, _ method: RPCMethod, output: inout JSONWriter) -> Bool {
        switch method.begin(request.params, session: session, logger: logger) {
        case .failure(let error):
            answer(request.id, .failure(error.response(in: session.language)), into: &output)
        case .success(nil):
            return false
        case .success(let steps?):
            // A wait that reads on a connection of its own sees every write answered before it.
            if method.waitReadsDatabase, let error = commitBeforeExternalWork?(&output) {
                logger.error("the commit before \(method.name) failed: \(error)")
            }
            let progress = ProgressReporter.token(in: request.params).flatMap { token in
                sendNow.map { ProgressReporter(token: token, send: $0) }
            }
            waits.enqueue(NetworkWaits.Job(id: request.id, method: method, steps: steps, progress: progress))
            startWaits(into: &output)
        }
        return true
    }

    /// Starts the next request in line, if none is in flight: what it reads now, its wait on another thread.
    func startWaits(into output: inout JSONWriter) {
        while let job = waits.next() {
            session.progress = job.progress
            let started = job.method.outcome(logger: logger, job.steps.start)
            session.progress = nil
            switch started {
            case .success(let started): waits.launch(job, started)
            case .failure(let error):
                answer(job.id, .failure(error.response(in: session.language)), into: &output)
                job.ended?()
            }
        }
    }

    /// Finishes the request whose wait is over (when ``NetworkWaits/wakeDescriptor`` is readable), inside the
    /// loop's write group, and starts the next.
    func finishWaits(into output: inout JSONWriter) {
        for (job, done, total) in waits.takeProgress() where !job.cancellation.isCancelled {
            job.progress?.report(done, total: total)
        }
        for (job, result) in waits.takeArrived() {
            for (done, total) in waits.takeProgress(of: job) where !job.cancellation.isCancelled {
                job.progress?.report(done, total: total)
            }
            finish(job, result, into: &output)
        }
        startWaits(into: &output)
    }

    private func finish(_ job: NetworkWaits.Job, _ result: Result<any Sendable, DomainError>, into output: inout JSONWriter) {
        // A cancelled request was answered when it was cancelled; what its wait brought is dropped.
        if !job.cancellation.isCancelled, let finish = job.finish {
            session.progress = job.progress
            defer { session.progress = nil }
            do {
                answer(job.id, .success(try finish(try result.get())), into: &output)
            } catch is NetworkSteps.Again {
                waits.again(job)
                return
            } catch {
                let failure = job.method.answer(for: error, logger: logger)
                answer(job.id, .failure(failure.response(in: session.language)), into: &output)
            }
        }
        job.ended?()
    }

    /// Answers -32800 for each request the client cancelled that still waits.
    func cancelRequested(into output: inout JSONWriter) {
        let ids = session.cancelRequested
        session.cancelRequested = []
        for id in ids {
            guard let job = waits.cancel(id) else { continue }
            logger.debug("\(job.method.name) \(id) cancelled by the client")
            answer(job.id, .failure(ServerError.requestCancelled.response(in: session.language)), into: &output)
            if job.finish == nil { job.ended?() }  // one in flight ends when its wait comes back
        }
    }

    /// The server is going away: every request still waiting is answered -32007.
    func abandonWaits(into output: inout JSONWriter) {
        for job in waits.cancelAll() {
            answer(job.id, .failure(ServerError.shuttingDown.response(in: session.language)), into: &output)
            job.ended?()
        }
    }

    private func answer(_ id: RequestID?, _ outcome: Answer.Outcome, into output: inout JSONWriter) {
        guard let id else { return }
        writeLine(into: &output, answering: .one(id)) { $0.write(answer: Answer(id: id, outcome: outcome)) }
    }
}
