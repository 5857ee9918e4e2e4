import Domain
import Protocol

/// `images.get` as an MCP tool: the picture as MCP `image` content, which an assistant looks at, instead of
/// its base64 in a text, which it could not see and would pay for as tokens; the structured content keeps
/// the metadata (`image`, `rendition`) without a second copy of the bytes.
///
/// The tool gives a rendition only, `display` by default or `thumbnail`, never the original: a display copy
/// (at most 1600 px a side) is about as much as a model takes in at full detail, a thumbnail (at most 320
/// px) is enough to tell what a photo shows for a small part of the cost, and a rendition carries no
/// metadata (an original may carry the camera and a GPS position) and is JPEG or PNG, which every client
/// shows (an original may be a HEIC photo of up to `--max-image-bytes`). No other tool's result carries
/// image bytes, except `export` without a path, whose document is data for `import`, not pictures.
enum MCPImageTool {
    static let methodName = "images.get"
    /// The sizes the tool gives, and the one it gives unless asked.
    static let sizes = ImageRecord.sizes.filter { $0 != "original" }
    static let defaultSize = "display"

    /// The tool made from the `images.get` method: `size` narrowed to the renditions, its result's bytes as
    /// image content.
    static func tool(of method: RPCMethod) -> RPCMethod {
        let size = ParamSpec.optional(
            "size", Schema.enumeration(sizes),
            "display (the default: at most 1600 px a side) or thumbnail (at most 320 px); never the original.")
        let tool = RPCMethod(
            method.name, title: method.title, summary: method.summary,
            params: method.params.map { $0.name == size.name ? size : $0 }, result: withoutData(method.result)
        ) { params, session in
            var arguments = params.members
            if arguments[size.name] == nil { arguments[size.name] = .string(defaultSize) }
            return try method.handler(ParamValues(arguments), session)
        }
        tool.toolContent = content
        return tool
    }

    /// `{image, data, rendition}` as an image block and a text of the metadata, which is also the structured
    /// content.
    static func content(_ result: JSONValue) -> (content: [JSONValue], structured: JSONValue) {
        guard case .object(var metadata) = result, let data = metadata["data"],
            let mimeType = result["rendition"]?["mimeType"]
        else { return ([["type": "text", "text": .string(JSONWriter.string(result))]], result) }
        metadata["data"] = nil
        let structured = JSONValue.object(metadata)
        return (
            [
                ["type": "image", "data": data, "mimeType": mimeType],
                ["type": "text", "text": .string(JSONWriter.string(structured))],
            ], structured
        )
    }

    /// The method's result schema without its `data` member.
    static func withoutData(_ schema: JSONValue?) -> JSONValue? {
        guard case .object(var rules)? = schema, case .object(var properties)? = rules["properties"] else { return schema }
        properties["data"] = nil
        rules["properties"] = .object(properties)
        rules["required"] = rules["required"]?.arrayValue.map { .array($0.filter { $0 != "data" }) }
        return .object(rules)
    }
}
