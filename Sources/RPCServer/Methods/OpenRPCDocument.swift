import Protocol

/// The OpenRPC 1.3 description of every method, generated from the registry that dispatches them,
/// so it cannot drift from the code.
enum OpenRPCDocument {
    static let version = "1.3.2"

    /// The `rpc.discover` method itself, described like every other.
    static let discoverName = "rpc.discover"

    /// Registers `rpc.discover`, whose answer is the document of the whole registry (itself included).
    static func register(into registry: inout MethodRegistry) {
        let box = DocumentBox()
        registry.register(
            RPCMethod(
                discoverName, summary: "The OpenRPC document of every method, with JSON Schemas of params and results.",
                result: Schema.openObject
            ) { _, _ in box.document })
        box.registry = registry
    }

    static func make(from registry: MethodRegistry) -> JSONValue {
        let methods: [JSONValue] = registry.methods.map { method in
            var object: JSONObject = [
                "name": .string(method.name),
                "summary": .string(method.summary),
                "paramStructure": "either",
                "params": .array(method.params.map { param in
                    [
                        "name": .string(param.name),
                        "summary": .string(param.summary),
                        "required": .bool(param.required),
                        "schema": param.schema,
                    ]
                }),
            ]
            if let result = method.result {
                object["result"] = ["name": "result", "schema": result]
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
        ]
    }

    /// The document is made when first asked for: most sessions never ask, and making it is a good part of
    /// what starting would cost.
    private final class DocumentBox {
        var registry = MethodRegistry()
        lazy var document: JSONValue = OpenRPCDocument.make(from: registry)
    }
}
