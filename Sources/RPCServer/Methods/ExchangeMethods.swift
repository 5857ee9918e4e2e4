import Domain
import Foundation
import Protocol

/// `export` and `import` (SPEC §11): one JSON document of everything.
enum ExchangeMethods {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func methods(store: DataStore) -> [RPCMethod] {
        let exchange = store.exchange
        return [
            RPCMethod(
                "export",
                summary: "Everything as one self-describing JSON document (format, version, every app, images as base64).",
                result: Schema.object(
                    [("format", Schema.enumeration(["satchel"])), ("version", Schema.integer(minimum: 1))],
                    required: ["format", "version"], additional: true)
            ) { _, _ in
                let bytes = try encoder().encode(try exchange.export())
                return .encoded(EncodedJSON(validJSON: Array(bytes)))
            },
            RPCMethod(
                "import",
                summary: "Imports an export: `replace` makes the database the document; `merge` adds what is not there yet.",
                params: [
                    .required("document", Schema.openObject, "A document produced by `export`."),
                    .required("mode", Schema.enumeration(["merge", "replace"]), "merge or replace."),
                ],
                result: Schema.object([("imported", Schema.object([], additional: true))], required: ["imported"])
            ) { params, _ in
                let document = try decode(params["document"]!)
                let summary = try exchange.importDocument(document, mode: ImportMode(rawValue: params.string("mode")!)!)
                return [
                    "imported": .object(JSONObject(summary.counts.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) }))
                ]
            },
        ]
    }

    /// The document as the domain's type; a missing or mistyped member is `invalidDocument` naming it.
    static func decode(_ value: JSONValue) throws -> ExchangeDocument {
        let bytes = JSONWriter.bytes(value.expanded)
        if case .object(let object) = value, let version = object["version"]?.integerValue,
            version > Int64(ExchangeDocument.currentVersion)
        {
            throw DomainError.validation(
                reason: "unsupportedVersion", field: "document.version", limit: Int64(ExchangeDocument.currentVersion))
        }
        do {
            return try JSONDecoder().decode(ExchangeDocument.self, from: Data(bytes))
        } catch let error as DecodingError {
            let path: [any CodingKey]
            switch error {
            case .keyNotFound(let key, let context): path = context.codingPath + [key]
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                path = context.codingPath
            @unknown default: path = []
            }
            let field = path.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
            throw DomainError.validation(reason: "invalidDocument", field: "document" + field)
        }
    }
}
