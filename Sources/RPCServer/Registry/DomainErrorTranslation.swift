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
