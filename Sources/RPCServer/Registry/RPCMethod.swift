import Domain
import Protocol

/// One method of the server, declared once: the registry dispatches to it, validates its params and
/// publishes it in `rpc.discover` (and, later, as an MCP tool) from this same value.
final class RPCMethod {
    /// What runs the method: validated params in, a JSON result out (or a thrown error).
    typealias Handler = (ParamValues, Session) throws -> JSONValue

    let name: String
    /// The method's name for people, as an MCP tool's `title` ("Create a note"); `nil` for protocol
    /// plumbing, which is no tool.
    let title: String?
    /// What it does, what it returns and its notable errors, in a sentence or three: `rpc.discover`'s
    /// summary and an MCP tool's description.
    let summary: String
    let params: [ParamSpec]
    /// The result's JSON Schema; `nil` for a notification, which has no result.
    let result: JSONValue?
    let handler: Handler
    /// Set for a method that may wait on a network (the message feed): its steps, made from validated params
    /// (`nil`: this call does not wait, and runs as any other). The dispatcher answers it when the network
    /// answers, without holding back later requests; where it must wait in line (in a batch), what the
    /// connection has written so far is committed first, so no other process waits on this one's write
    /// lock meanwhile.
    var network: ((ParamValues, Session) throws -> NetworkSteps?)?
    /// Whether the wait of ``network`` reads the database on a connection of its own (`export` to a file):
    /// then what the connection wrote before it is committed first, so that the read sees it.
    var waitReadsDatabase = false
    /// The errors of an app's rules it may answer with, beyond those its shape tells (`rpc.discover` lists
    /// them: ``OpenRPCDocument/errors(of:)``).
    private(set) var raises: [ErrorCode] = []
    /// Set for an MCP tool whose result holds a picture (``MCPImageTool``): the result as the tool's content
    /// blocks and structured content. `nil`: the result's JSON is the text, and the structured content.
    var toolContent: ((JSONValue) -> (content: [JSONValue], structured: JSONValue))?

    init(
        _ name: String, title: String? = nil, summary: String, params: [ParamSpec] = [], result: JSONValue?,
        handler: @escaping Handler
    ) {
        self.name = name
        self.title = title
        self.summary = summary
        self.params = params
        self.result = result
        self.handler = handler
    }

    /// A method that waits on a network (see ``network``); called in line (an MCP tool), it runs its steps
    /// one after the other.
    static func waitingOnNetwork(
        _ name: String, title: String, summary: String, params: [ParamSpec] = [], result: JSONValue?,
        steps: @escaping (ParamValues, Session) throws -> NetworkSteps
    ) -> RPCMethod {
        let method = RPCMethod(name, title: title, summary: summary, params: params, result: result) { params, session in
            try steps(params, session).runInline()
        }
        method.network = steps
        return method
    }

    /// The same method, saying it may answer with `codes` too.
    func raising(_ codes: ErrorCode...) -> RPCMethod {
        raises += codes.filter { !raises.contains($0) }
        return self
    }

    /// `<app>.delete`: removes what the `id` param names and answers `{id, deleted: true}`.
    static func delete(
        _ name: String, title: String, summary: String, id: Required<String>,
        _ delete: @escaping (String, Session) throws -> Void
    ) -> RPCMethod {
        RPCMethod(name, title: title, summary: summary, params: [id.spec], result: Schema.deleted) { params, session in
            let value = params[id]
            try delete(value, session)
            return ["id": .string(value), "deleted": true]
        }
    }

    /// `<app>.move`: moves what the `id` param names to the 0-based position `toIndex` and answers it.
    static func move(
        _ name: String, title: String, summary: String, id: Required<String>, result: JSONValue,
        _ move: @escaping (String, Int, Session) throws -> JSONValue
    ) -> RPCMethod {
        let toIndex = Required.integer("toIndex", Schema.integer(minimum: 0), "The new 0-based position.")
        return RPCMethod(name, title: title, summary: summary, params: [id.spec, toIndex.spec], result: result) {
            params, session in
            try move(params[id], params[toIndex], session)
        }
    }

    /// The params as one object schema, each described by its summary (what an MCP tool publishes as its
    /// `inputSchema`).
    var paramsSchema: JSONValue {
        Schema.object(params.map { ($0.name, $0.describedSchema) }, required: params.filter(\.required).map(\.name))
    }

    /// Names positional params, rejects unknown or missing ones, and checks each against its schema.
    func validate(_ given: Params) throws(ServerError) -> ParamValues {
        var members: JSONObject
        switch given {
        case .none:
            members = JSONObject()
        case .byName(let named):
            members = named
        case .byPosition(let positional):
            guard positional.count <= params.count else {
                throw ServerError.tooManyParams(limit: params.count)
            }
            members = JSONObject(zip(params.map(\.name), positional))
        }
        if members.isEmpty && params.isEmpty { return ParamValues() }
        // `_meta` (MCP's: a progress token, say, or the protocol version) belongs to the protocol, not to the
        // method; the version it names must be one the server speaks.
        for (name, value) in members {
            if name == "_meta" {
                _ = try MCPProtocol.version(in: value)
            } else if !params.contains(where: { $0.name == name }) {
                throw ServerError.unknownParam(name, known: params.map(\.name))
            }
        }
        // By index: `for spec in params` would copy every spec (its strings and schema) on every request.
        for index in params.indices {
            guard let value = members[params[index].name] else {
                if params[index].required {
                    throw ServerError.missingParam(
                        params[index].name, expected: SchemaValidator.describe(params[index].schema))
                }
                continue
            }
            if params[index].plainString?.accepts(value) == true { continue }
            do {
                try SchemaValidator.validate(value, against: params[index].schema, at: params[index].name)
            } catch {
                throw ServerError.invalidParams(error)
            }
        }
        return ParamValues(members)
    }

    /// Validates `given` and runs the handler; every failure comes back as the error to answer with
    /// (domain errors translated, anything unexpected logged and reported as an internal error).
    func invoke(_ given: Params, session: Session, logger: Logger) -> Result<JSONValue, ServerError> {
        outcome(logger: logger) { try handler(try validate(given), session) }
    }

    /// Validates `given` and makes the network steps of a method that may wait on one (`nil`: it does not).
    func begin(_ given: Params, session: Session, logger: Logger) -> Result<NetworkSteps?, ServerError> {
        outcome(logger: logger) { try network!(try validate(given), session) }
    }

    /// What `body` gave, or the error to answer with for what it threw.
    func outcome<T>(logger: Logger, _ body: () throws -> T) -> Result<T, ServerError> {
        do {
            return .success(try body())
        } catch {
            return .failure(answer(for: error, logger: logger))
        }
    }

    /// The error to answer with for `error` (a domain error translated; anything unexpected logged and
    /// reported as an internal error).
    func answer(for error: any Error, logger: Logger) -> ServerError {
        switch error {
        case let error as ServerError:
            return error
        case let error as DomainError:
            if case .storage(_, let detail) = error { logger.error("\(name): \(detail)") }
            return ServerError(error)
        default:
            logger.error("internal error in \(name): \(error)")
            return ServerError.internalError
        }
    }
}
