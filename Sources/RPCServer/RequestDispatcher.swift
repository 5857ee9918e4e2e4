import Domain
import Protocol

/// Turns each incoming line into responses: decodes it, runs the methods in order, and writes the answers
/// (one line per message, a batch's answers as one array) into the output buffer.
///
/// - Important: Used only on the thread that runs the server loop.
final class RequestDispatcher {
    let registry: MethodRegistry
    let session: Session
    let logger: Logger
    let maximumMessageBytes: Int
    private let decoder: MessageDecoder
    /// The requests that wait on a network, answered when it answers.
    let waits = NetworkWaits()
    /// Whether a batch is being answered: a request that waits on a network then waits in line.
    private var inBatch = false
    /// Commits what the connection has written so far (set by the server loop); returns the error when the
    /// commit failed, after the answers that reported on it have been rewritten.
    var commitBeforeExternalWork: ((inout JSONWriter) -> DomainError?)?
    /// Writes whole lines to the output at once (set by the server loop): progress notifications.
    var sendNow: ((inout JSONWriter) -> Void)?

    init(registry: MethodRegistry, session: Session, logger: Logger, maximumMessageBytes: Int) {
        self.registry = registry
        self.session = session
        self.logger = logger
        self.maximumMessageBytes = maximumMessageBytes
        self.decoder = MessageDecoder(maximumMessageBytes: maximumMessageBytes)
    }

    /// Lines that came while the server waited for the client's answer to its own request (``ClientRoots``):
    /// held back in order, and served once the answer comes (or the wait ends).
    private var held: [[UInt8]] = []
    /// The monotonic clock, in milliseconds (the server loop's).
    var now: () -> Int64 = { 0 }

    /// Whether lines are being held back for the client's answer.
    var isWaitingForClient: Bool { session.roots.isAsking }

    /// Handles one complete line: at once, or, while the server waits for the client's answer, held back
    /// until it comes.
    func handle(line: UnsafeRawBufferPointer, into output: inout JSONWriter) {
        if session.roots.isAsking {
            hold(line, into: &output)
        } else {
            serve(line: line, into: &output)
        }
    }

    /// The wait for the client's answer is over if it took too long (or, `force`, when input has ended):
    /// the client then has no roots, and the held lines are served.
    func stopWaitingIfDue(force: Bool = false, into output: inout JSONWriter) {
        if session.roots.giveUp(now: now(), force: force, logger: logger) { release(into: &output) }
    }

    /// Milliseconds left before ``stopWaitingIfDue(force:into:)`` has work, while waiting.
    var remainingWait: Int64? { session.roots.remainingWait(now: now()) }

    /// Takes the client's answer out of `line` (its responses are looked at at once, wherever they are) and
    /// keeps the rest of it for later; once the answer is in, serves what was held.
    private func hold(_ line: UnsafeRawBufferPointer, into output: inout JSONWriter) {
        let calls: [IncomingCall]
        switch decoder.decode(line) {
        case .single(let call): calls = [call]
        case .batch(let entries): calls = entries
        case .rejected: calls = []
        }
        var answered = false
        var onlyResponses = !calls.isEmpty
        for call in calls {
            guard case .response(let id, let result) = call else {
                onlyResponses = false
                continue
            }
            if session.roots.take(answer: id, result: result, logger: logger) { answered = true }
        }
        if !onlyResponses { held.append(Array(line.bindMemory(to: UInt8.self))) }
        if answered { release(into: &output) }
    }

    /// Serves the held lines in order, until one of them makes the server wait again (its roots changed).
    private func release(into output: inout JSONWriter) {
        var lines = held[...]
        held = []
        while let line = lines.popFirst() {
            // After `exit`, the rest of the input is not read.
            if session.exitRequested { return }
            line.withUnsafeBytes { serve(line: $0, into: &output) }
            if session.roots.isAsking {
                held.append(contentsOf: lines)
                return
            }
        }
    }

    /// Serves one line, then sends the client the request a method asked for (`roots/list`), if any.
    private func serve(line: UnsafeRawBufferPointer, into output: inout JSONWriter) {
        decodeAndAnswer(line, into: &output)
        if let request = session.roots.takeRequest(now: now()) {
            logger.debug("asking the client for its roots")
            writeLine(into: &output) { $0.writeRequest(id: request.id, method: request.method) }
        }
    }

    private func decodeAndAnswer(_ line: UnsafeRawBufferPointer, into output: inout JSONWriter) {
        switch decoder.decode(line) {
        case .rejected(let error):
            logger.debug("rejected a message: \(error.data?.description ?? error.message)")
            writeLine(into: &output) { $0.writeResponse(id: .null, error: localized(error)) }
        case .single(let call):
            if let answer = answer(call, output: &output, commitFailed: { _ in }) {
                writeLine(into: &output, answering: .one(answer.id)) { $0.write(answer: answer) }
            }
        case .batch(let calls):
            inBatch = true
            defer { inBatch = false }
            var answers: [Answer] = []
            for call in calls {
                let answer = answer(call, output: &output) { error in
                    // The batch's earlier answers reported on the commit that failed.
                    let failure = ServerError(error).response(in: self.session.language)
                    answers = answers.map { Answer(id: $0.id, outcome: .failure(failure)) }
                }
                if let answer { answers.append(answer) }
            }
            guard !answers.isEmpty else { return }
            writeLine(into: &output, answering: .batch(answers.map(\.id))) { writer in
                writer.writeByte(UInt8(ascii: "["))
                for (index, answer) in answers.enumerated() {
                    if index > 0 { writer.writeByte(UInt8(ascii: ",")) }
                    writer.write(answer: answer)
                }
                writer.writeByte(UInt8(ascii: "]"))
            }
        }
    }

    /// Answers a line that was longer than the limit (it has been skipped).
    func handleLineTooLong(into output: inout JSONWriter) {
        logger.warn("skipped a message longer than \(maximumMessageBytes) bytes")
        let error = ServerError(
            code: .invalidRequest, key: "messageTooLarge", arguments: ["limit": String(maximumMessageBytes)],
            data: ["reason": "messageTooLarge", "limit": .integer(Int64(maximumMessageBytes))])
        writeLine(into: &output) { $0.writeResponse(id: .null, error: error.response(in: session.language)) }
    }

    /// One answer line written since the last commit: where its bytes are and which requests it answers.
    private struct WrittenLine {
        var range: Range<Int>
        var answers: Answered
    }

    /// The requests a line answers.
    enum Answered {
        /// None (a parse error or the like).
        case none
        case one(RequestID)
        /// A batch's, in its order (written as an array).
        case batch([RequestID])
    }

    private var linesSinceCommit: [WrittenLine] = []

    func writeLine(
        into output: inout JSONWriter, answering answers: Answered = .none, _ body: (inout JSONWriter) -> Void
    ) {
        let start = output.count
        body(&output)
        output.writeByte(UInt8(ascii: "\n"))
        linesSinceCommit.append(WrittenLine(range: start..<output.count, answers: answers))
    }

    /// The answers in `output` are about to be written: what they report is committed.
    func answersCommitted() {
        linesSinceCommit.removeAll(keepingCapacity: true)
    }

    /// The shared commit of the answers in `output` failed and everything in it was rolled back: every
    /// request answered since the last commit is answered with `error` instead. Lines that answered no
    /// request (parse errors and the like) stay as they were.
    func answersRolledBack(_ error: DomainError, output: inout JSONWriter) {
        let response = ServerError(error).response(in: session.language)
        var rewritten = JSONWriter(capacity: output.count)
        for line in linesSinceCommit {
            switch line.answers {
            case .none:
                output.withUnsafeBytes { written in
                    rewritten.writeRaw(bytes: UnsafeBufferPointer(rebasing: written.bindMemory(to: UInt8.self)[line.range]))
                }
                continue
            case .one(let id):
                rewritten.writeResponse(id: id, error: response)
            case .batch(let ids):
                rewritten.writeByte(UInt8(ascii: "["))
                for (index, id) in ids.enumerated() {
                    if index > 0 { rewritten.writeByte(UInt8(ascii: ",")) }
                    rewritten.writeResponse(id: id, error: response)
                }
                rewritten.writeByte(UInt8(ascii: "]"))
            }
            rewritten.writeByte(UInt8(ascii: "\n"))
        }
        output = rewritten
        linesSinceCommit.removeAll(keepingCapacity: true)
    }

    /// Runs one call; `nil` when nothing is to be answered now (a notification, a response from the client,
    /// or a request that waits on a network: answered when it answers). In a batch, before such a request
    /// waits in line, what came before is committed and written out of `output`; `commitFailed` hears when
    /// that commit failed (the lines in `output` are already rewritten).
    func answer(_ call: IncomingCall, output: inout JSONWriter, commitFailed: (DomainError) -> Void) -> Answer? {
        switch call {
        case .invalid(let id, let error):
            return Answer(id: id, outcome: .failure(localized(error)))
        case .response(let id, _):
            logger.debug("ignored a response object with id \(id): no request of the server's awaits it")
            return nil
        case .request(let request):
            let method = registry[request.method]
            if let method, method.network != nil {
                if !inBatch && !session.isShuttingDown {
                    if wait(request, method, output: &output) { return nil }
                } else if let error = commitBeforeExternalWork?(&output) {
                    commitFailed(error)
                }
            }
            let outcome = run(request, method)
            if !session.cancelRequested.isEmpty { cancelRequested(into: &output) }
            if session.isShuttingDown && !waits.isIdle { abandonWaits(into: &output) }
            guard let id = request.id else {
                if case .failure(let error) = outcome {
                    logger.debug("notification \(request.method) failed: \(error.message)")
                }
                return nil
            }
            return Answer(id: id, outcome: outcome)
        }
    }

    private func run(_ request: Request, _ method: RPCMethod?) -> Answer.Outcome {
        guard let method else {
            return .failure(ServerError.methodNotFound(request.method).response(in: session.language))
        }
        if session.isShuttingDown && method.name != "exit" {
            return .failure(ServerError.shuttingDown.response(in: session.language))
        }
        if let token = ProgressReporter.token(in: request.params), let sendNow {
            session.progress = ProgressReporter(token: token, send: sendNow)
        }
        defer { session.progress = nil }
        switch method.invoke(request.params, session: session, logger: logger) {
        case .success(let result): return .success(result)
        case .failure(let error): return .failure(error.response(in: session.language))
        }
    }

    /// The protocol layer's errors carry English text and a reason; this gives them the session's language.
    private func localized(_ error: ResponseError) -> ResponseError {
        var result = error
        let reason = error.data?["reason"]?.stringValue
        switch error.code {
        case .parseError:
            result.message = ProtocolMessages.text("parseError", session.language)
        case .invalidRequest:
            switch reason {
            case "tooDeep":
                result.message = ProtocolMessages.text(
                    "tooDeep", session.language, arguments: ["limit": String(JSONParser.defaultMaximumDepth)])
            case "tooComplex":
                result.message = ProtocolMessages.text(
                    "tooComplex", session.language, arguments: ["limit": String(decoder.maximumValueBytes)])
            case "emptyBatch":
                result.message = ProtocolMessages.text("emptyBatch", session.language)
            case "batchTooLarge":
                result.message = ProtocolMessages.text(
                    "batchTooLarge", session.language, arguments: ["limit": String(decoder.maximumBatchEntries)])
            default:
                result.message = ProtocolMessages.text("invalidRequest", session.language)
            }
        default:
            break
        }
        return result
    }
}

/// One response to be written.
struct Answer {
    enum Outcome {
        case success(JSONValue)
        case failure(ResponseError)
    }

    var id: RequestID
    var outcome: Outcome
}

extension JSONWriter {
    mutating func write(answer: Answer) {
        switch answer.outcome {
        case .success(let result): writeResponse(id: answer.id, result: result)
        case .failure(let error): writeResponse(id: answer.id, error: error)
        }
    }
}
