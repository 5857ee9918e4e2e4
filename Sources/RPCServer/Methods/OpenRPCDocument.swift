import Domain
import Protocol

/// The OpenRPC 1.3 description of every method, generated from the registry that dispatches them,
/// so it cannot drift from the code: each method's params, result and errors; the entities the apps
/// answer with as `components.schemas`, which methods name by `$ref`; the errors as `components.errors`;
/// and the notifications the server sends (`x-notifications`, method-shaped: name, summary, params).
enum OpenRPCDocument {
    static let version = "1.3.2"

    /// The `rpc.discover` method itself, described like every other.
    static let discoverName = "rpc.discover"

    /// The entities the apps answer with (and the inputs several methods share), named as a generated
    /// client names its types. Each is declared once, beside the code that writes it; wherever a method's
    /// params or result hold one of these schemas, the document says `$ref` instead.
    static let entities: [(name: String, schema: JSONValue)] = [
        ("Note", Note.schema), ("Photo", PhotoNote.schema), ("Image", ImageRecord.schema),
        ("StoredImage", ImageRecord.storedSchema),
        ("Reminder", Reminder.schema), ("DiaryPost", DiaryPost.schema), ("DiaryPreview", DiaryPreview.schema),
        ("Message", Message.schema), ("BoardPost", BoardPost.schema), ("ChangeEvent", ChangeEvent.schema),
        ("Color", HSBColor.schema), ("ColorInput", HSBColor.inputSchema), ("ImageInput", ImageInput.schema),
    ]

    /// Every error code a method answers with, by the name `components.errors` gives it, and what its
    /// `data` holds.
    static let errorCatalog: [(name: String, code: ErrorCode, message: String)] = [
        ("InvalidParams", .invalidParams, "A param is missing, unknown or not of its schema (data: field, expected)."),
        ("NotFound", .notFound, "No item has that id (data: reason notFound, kind, id)."),
        ("ValidationFailed", .validationFailed, "The input breaks one of the app's rules (data: reason, field, limit when there is one)."),
        ("FreeLimitReached", .freeLimitReached, "The free edition holds no more notes (data: reason, limit)."),
        ("UpstreamUnavailable", .upstreamUnavailable, "The message feed or PostgreSQL could not be reached or answered wrongly (data: reason, status when HTTP gave one)."),
        ("StorageFailure", .storageFailure, "The database failed: disk full, read-only, busy past the timeout, damaged (data: reason)."),
        ("RevisionConflict", .revisionConflict, "ifRevision is not the item's revision any more (data: reason, current)."),
        ("ShuttingDown", .shuttingDown, "The server is shutting down (data: reason)."),
        ("RequestCancelled", .requestCancelled, "The client cancelled the request with notifications/cancelled (data: reason)."),
        ("InternalError", .internalError, "Something unexpected failed; the server's log says what."),
    ]

    /// Registers `rpc.discover`, whose answer is the document of the whole registry (itself included).
    static func register(into registry: inout MethodRegistry) {
        let box = DocumentBox()
        registry.register(
            RPCMethod(
                discoverName,
                summary: "The OpenRPC document of every method: params, results and errors, with JSON Schemas; the apps' entities as components.schemas; the notifications the server sends.",
                result: Schema.openObject
            ) { _, _ in box.document })
        box.registry = registry
    }

    /// The codes `method` may answer with: those its shape tells (params to check, an item named by id, an
    /// `ifRevision`, a wait that can be cancelled), those it declares (``RPCMethod/raising(_:)``), and those
    /// any request may get.
    static func errors(of method: RPCMethod) -> [ErrorCode] {
        var codes: Set<ErrorCode> = [.shuttingDown, .internalError]
        codes.formUnion(method.raises)
        if !method.params.isEmpty { codes.insert(.invalidParams) }
        if method.params.contains(where: { $0.required && ($0.name == "id" || $0.name.hasSuffix("Id")) }) {
            codes.insert(.notFound)
        }
        if method.params.contains(where: { $0.name == "ifRevision" }) { codes.insert(.revisionConflict) }
        if method.network != nil { codes.insert(.requestCancelled) }
        return errorCatalog.map(\.code).filter(codes.contains)
    }

    static func make(from registry: MethodRegistry) -> JSONValue {
        let names = Dictionary(uniqueKeysWithValues: errorCatalog.map { ($0.code, $0.name) })
        let methods: [JSONValue] = registry.methods.map { method in
            var object: JSONObject = [
                "name": .string(method.name),
                "summary": .string(method.summary),
                "paramStructure": "either",
                "params": descriptors(method.params),
            ]
            if let result = method.result {
                object["result"] = ["name": "result", "schema": referenced(result)]
                object["errors"] = .array(errors(of: method).map { ["$ref": .string("#/components/errors/\(names[$0]!)")] })
            } else {
                object["description"] = "A notification: send it without an id; it is never answered."
            }
            return .object(object)
        }
        return [
            "openrpc": .string(version),
            "info": [
                "title": "Satchel",
                "version": .string(SatchelVersion.current),
                "description": "The headless backend of five personal apps, over JSON-RPC 2.0 on stdio.",
            ],
            "methods": .array(methods),
            "components": [
                "schemas": .object(
                    JSONObject(entities.map { entity in
                        var schema = referenced(entity.schema, except: entity.name).objectValue ?? JSONObject()
                        schema["title"] = .string(entity.name)
                        return (entity.name, JSONValue.object(schema))
                    })),
                "errors": .object(
                    JSONObject(errorCatalog.map { ($0.name, ["code": .integer(Int64($0.code.rawValue)), "message": .string($0.message)]) })),
            ],
            "x-notifications": .array(
                ServerNotification.all.map { notification in
                    [
                        "name": .string(notification.name), "summary": .string(notification.summary),
                        "params": descriptors(notification.params),
                    ]
                }),
        ]
    }

    /// Params as OpenRPC content descriptors.
    private static func descriptors(_ params: [ParamSpec]) -> JSONValue {
        .array(params.map { param in
            [
                "name": .string(param.name), "summary": .string(param.summary), "required": .bool(param.required),
                "schema": referenced(param.schema),
            ]
        })
    }

    /// `schema` with every entity it holds (itself too, unless it is `except`'s own definition) said as a
    /// `$ref` to `components.schemas`.
    static func referenced(_ schema: JSONValue, except: String? = nil) -> JSONValue {
        if let entity = entities.first(where: { $0.schema == schema && $0.name != except }) {
            return ["$ref": .string("#/components/schemas/\(entity.name)")]
        }
        switch schema {
        case .object(let members):
            return .object(JSONObject(members.map { ($0.key, referenced($0.value)) }))
        case .array(let elements):
            return .array(elements.map { referenced($0) })
        default:
            return schema
        }
    }

    /// The document is made when first asked for: most sessions never ask, and making it is a good part of
    /// what starting would cost.
    private final class DocumentBox {
        var registry = MethodRegistry()
        lazy var document: JSONValue = OpenRPCDocument.make(from: registry)
    }
}
