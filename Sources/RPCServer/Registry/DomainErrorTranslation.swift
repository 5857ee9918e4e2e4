import Domain
import Protocol

extension ServerError {
    /// The one place where domain errors become JSON-RPC errors (SPEC §2's table).
    init(_ error: DomainError) {
        switch error {
        case .notFound(let kind, let id):
            self.init(
                code: .notFound, key: "notFound", arguments: ["kind": kind, "id": id],
                data: ["reason": "notFound", "kind": .string(kind), "id": .string(id)])
        case .validation(let reason, let field, let limit):
            var data: JSONObject = ["reason": .string(reason.rawValue), "field": .string(field)]
            var arguments = ["field": field]
            if let limit {
                data["limit"] = .integer(limit)
                arguments["limit"] = String(limit)
            }
            self.init(code: .validationFailed, key: MessageKey(rawValue: reason.rawValue), arguments: arguments, data: .object(data))
        case .freeLimitReached(let limit):
            self.init(
                code: .freeLimitReached, key: "freeLimitReached", arguments: ["limit": String(limit)],
                data: ["reason": "freeLimitReached", "limit": .integer(Int64(limit))])
        case .upstreamUnavailable(let reason, let status, _):
            var data: JSONObject = ["reason": .string(reason.rawValue)]
            if let status { data["status"] = .integer(Int64(status)) }
            self.init(code: .upstreamUnavailable, key: MessageKey(rawValue: reason.rawValue), data: .object(data))
        case .storage(let reason, _):
            self.init(code: .storageFailure, key: MessageKey(rawValue: reason.rawValue), data: ["reason": .string(reason.rawValue)])
        case .revisionConflict(let current):
            self.init(
                code: .revisionConflict, key: "revisionConflict", arguments: ["current": String(current)],
                data: ["reason": "revisionConflict", "current": .integer(current)])
        case .invalidArgument(let field, let expected):
            self = .invalidParam(field, expected: expected)
        }
    }
}

extension ServerError {
    /// The error this server answered with `code` and `data`, made again (to say it in another language):
    /// `nil` for a code and data it never answers with.
    static func rebuilt(code: Int, data: JSONObject) -> ServerError? {
        let reason = data["reason"]?.stringValue.flatMap(Reason.init(rawValue:))
        let field = data["field"]?.stringValue
        switch code {
        case ErrorCode.notFound.rawValue:
            guard let kind = data["kind"]?.stringValue, let id = data["id"]?.stringValue else { return nil }
            return ServerError(DomainError.notFound(kind: kind, id: id))
        case ErrorCode.validationFailed.rawValue:
            guard let reason, let field else { return nil }
            return ServerError(DomainError.validation(reason: reason, field: field, limit: data["limit"]?.integerValue))
        case ErrorCode.freeLimitReached.rawValue:
            guard let limit = data["limit"]?.integerValue else { return nil }
            return ServerError(DomainError.freeLimitReached(limit: Int(clamping: limit)))
        case ErrorCode.upstreamUnavailable.rawValue:
            guard let reason else { return nil }
            return ServerError(DomainError.upstreamUnavailable(reason: reason, status: data["status"]?.integerValue.map { Int(clamping: $0) }))
        case ErrorCode.storageFailure.rawValue:
            guard let reason else { return nil }
            return ServerError(DomainError.storage(reason: reason, detail: ""))
        case ErrorCode.revisionConflict.rawValue:
            guard let current = data["current"]?.integerValue else { return nil }
            return ServerError(DomainError.revisionConflict(current: current))
        case ErrorCode.invalidParams.rawValue:
            guard let field, let expected = data["expected"]?.stringValue else { return nil }
            return .invalidParam(field, expected: expected)
        case ErrorCode.methodNotFound.rawValue:
            return data["method"]?.stringValue.map(ServerError.methodNotFound)
        case ErrorCode.shuttingDown.rawValue:
            return .shuttingDown
        case ErrorCode.unsupportedProtocolVersion.rawValue:
            return data["requested"]?.stringValue.map(ServerError.unsupportedProtocolVersion)
        case ErrorCode.requestCancelled.rawValue:
            return .requestCancelled
        default:
            return nil
        }
    }
}
