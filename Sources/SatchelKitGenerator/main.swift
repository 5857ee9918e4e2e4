import Foundation

// Writes Sources/SatchelKit/Generated/API.swift, SatchelKit's typed methods, entities and errors, from a
// satchel binary's `rpc.discover` (the document its method registry makes).
//
// usage: satchel-kit-generate [--check] [--binary PATH] [--output PATH]
//   --check   write nothing; exit 1 when the checked-in file differs from what the binary describes
//   --output  the file to write (or check) instead of the package's Sources/SatchelKit/Generated/API.swift
// The binary: --binary, else $SATCHEL_BINARY, else the build folder's `satchel` beside this program.

typealias Schema = [String: Any]

/// Methods a program never calls itself: the session's plumbing, which `Satchel` does for it, and MCP's.
let leftOut: Set<String> = ["shutdown", "exit", "initialize"]

func discover(binary: String) throws -> Schema {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["--memory"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    input.fileHandleForWriting.write(Data(#"{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}"#.utf8 + [10]))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let line = data.split(separator: 10).first ?? Data()
    guard let answer = try JSONSerialization.jsonObject(with: line) as? Schema, let document = answer["result"] as? Schema else {
        throw GeneratorError("\(binary) gave no rpc.discover document")
    }
    return document
}

struct GeneratorError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A method's Swift declaration, inside its namespace (or `Satchel` itself).
func method(_ method: Schema, types: SwiftTypes, attribute: String) -> String {
    let name = method["name"] as! String
    let params = method["params"] as? [Schema] ?? []
    var signature: [String] = []
    var sets: [String] = []
    var docs = ["    /// " + (method["summary"] as? String ?? name)]
    if !params.isEmpty { docs.append("    ///\n    /// - Parameters:") }
    for param in params {
        let key = param["name"] as! String
        let schema = param["schema"] as! Schema
        let required = param["required"] as? Bool ?? false
        let kind = types.type(of: schema, name: Naming.pascal(name) + Naming.pascal(key))
        let label = Naming.identifier(key)
        let nullable = kind.hasSuffix("?")
        switch (required, nullable) {
        case (true, false):
            signature.append("\(label): \(kind)")
            sets.append("        params.set(\"\(key)\", \(label))")
        case (true, true):
            signature.append("\(label): \(kind)")
            sets.append("        params.setNullable(\"\(key)\", .some(\(label)))")
        case (false, false):
            signature.append("\(label): \(kind)? = nil")
            sets.append("        params.set(\"\(key)\", \(label))")
        case (false, true):
            signature.append("\(label): \(kind)? = nil")
            sets.append("        params.setNullable(\"\(key)\", \(label))")
        }
        var text = param["summary"] as? String ?? ""
        if let detail = schema["description"] as? String { text += " (\(detail))" }
        if nullable && !required { text += " Pass `.some(nil)` to send null." }
        docs.append("    ///   - \(key): \(text)")
    }
    signature.append("progress: (@Sendable (CallProgress) -> Void)? = nil")
    docs.append(params.isEmpty ? "    ///\n    /// - Parameter progress: called with each report of how far the work has got."
        : "    ///   - progress: called with each report of how far the work has got.")
    let result = method["result"] as! Schema
    let returns = types.type(of: result["schema"] as! Schema, name: Naming.pascal(name) + "Result")
    var text = docs.joined(separator: "\n") + "\n"
    let head = "    public func \(Naming.identifier(attribute))(\(signature.joined(separator: ", "))) async throws(SatchelError) -> \(returns) {\n"
    if head.count <= 121 {
        text += head
    } else {
        text += "    public func \(Naming.identifier(attribute))(\n" + signature.map { "        \($0),\n" }.joined()
        text += "    ) async throws(SatchelError) -> \(returns) {\n"
    }
    text += sets.isEmpty ? "        let params = Params()\n" : "        var params = Params()\n"
    text += sets.map { $0 + "\n" }.joined()
    text += "        return try await satchel.call(\"\(name)\", params, progress: progress)\n"
    text += "    }\n"
    return text
}

func render(_ document: Schema) -> String {
    let components = (document["components"] as? Schema)?["schemas"] as? [String: Schema] ?? [:]
    let errors = (document["components"] as? Schema)?["errors"] as? [String: Schema] ?? [:]
    let methods = (document["methods"] as? [Schema] ?? []).filter {
        let name = $0["name"] as! String
        return $0["result"] != nil && !leftOut.contains(name) && !name.contains("/")
    }
    let types = SwiftTypes(components: components, reserved: ["Satchel", "Params", "CallProgress", "Progress", "JSONValue", "SatchelError", "ErrorInfo", "AnyKey", "Change"])
    types.declareComponents(components.keys.sorted())

    var namespaces: [(prefix: String, methods: [Schema])] = []
    var topLevel: [Schema] = []
    for method in methods {
        let name = method["name"] as! String
        guard let dot = name.firstIndex(of: ".") else { topLevel.append(method); continue }
        let prefix = String(name[..<dot])
        if let index = namespaces.firstIndex(where: { $0.prefix == prefix }) {
            namespaces[index].methods.append(method)
        } else {
            namespaces.append((prefix, [method]))
        }
    }
    var body = ""
    for (prefix, members) in namespaces {
        let type = Naming.pascal(prefix) + "Methods"
        body += "\n/// The `\(prefix).*` methods.\npublic struct \(type): Sendable {\n    let satchel: Satchel\n"
        for member in members {
            let name = member["name"] as! String
            body += "\n" + method(member, types: types, attribute: Naming.camel(String(name.split(separator: ".", maxSplits: 1)[1])))
        }
        body += "}\n"
    }
    body += "\nextension Satchel {\n"
    for (prefix, _) in namespaces {
        let type = Naming.pascal(prefix) + "Methods"
        body += "    /// The `\(prefix).*` methods.\n    public var \(Naming.identifier(prefix)): \(type) { \(type)(satchel: self) }\n"
    }
    body += "}\n\nextension Satchel {\n    var satchel: Satchel { self }\n"
    for member in topLevel {
        body += "\n" + method(member, types: types, attribute: member["name"] as! String)
    }
    body += "}\n"

    // The errors a server answers with, by code, as the document's components name them.
    var errorCases = ""
    var errorCodes = ""
    for (name, error) in errors.sorted(by: { ($0.value["code"] as! Int) > ($1.value["code"] as! Int) }) {
        let code = error["code"] as! Int
        errorCases += "    /// \(error["message"] as? String ?? name) (\(code))\n    case \(Naming.camel(name))(ErrorInfo)\n"
        errorCodes += "        case \(code): .\(Naming.camel(name))(info)\n"
    }
    var text = """
        // The methods of Satchel \((document["info"] as? Schema)?["version"] as? String ?? "") as typed Swift, with their
        // entities and errors.
        //
        // Generated by `swift run satchel-kit-generate` from the server's `rpc.discover`: do not edit by hand.

        #if canImport(FoundationEssentials)
        import FoundationEssentials
        #else
        import Foundation
        #endif

        /// What went wrong with a call: the server's answer (by its code, with its reason and field), or the
        /// connection to the server.
        public enum SatchelError: Error, Sendable, Equatable {

        """
    text += errorCases
    text += """
            /// An error code this version does not know.
            case other(ErrorInfo)
            /// The server ended (`status`: its exit status, or the signal that ended it) before it answered.
            case serverExited(status: Int32)
            /// The connection was closed (``Satchel/close()``) before the answer came.
            case closed
            /// The server's answer could not be read as this type: `detail` says where.
            case unreadableAnswer(detail: String)
            /// The task that made the call was cancelled; the server was told so.
            case cancelled

            /// The server's error `info` as the case of its code.
            public init(_ info: ErrorInfo) {
                self = switch info.code {

        """
    text += errorCodes.replacingOccurrences(of: "        case", with: "            case")
    text += """
                    default: .other(info)
                    }
                }
            }

        """
    text += types.declarations.map { "\n" + $0 }.joined()
    text += body
    return text
}

var arguments = Array(CommandLine.arguments.dropFirst())
let check = arguments.contains("--check")
arguments.removeAll { $0 == "--check" }
var binary = ProcessInfo.processInfo.environment["SATCHEL_BINARY"]
if let index = arguments.firstIndex(of: "--binary"), index + 1 < arguments.count { binary = arguments[index + 1] }
if binary == nil {
    binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("satchel").path
}
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
var target = root.appendingPathComponent("Sources/SatchelKit/Generated/API.swift")
if let index = arguments.firstIndex(of: "--output"), index + 1 < arguments.count {
    target = URL(fileURLWithPath: arguments[index + 1])
}
do {
    let text = render(try discover(binary: binary!))
    if check {
        let current = (try? String(contentsOf: target, encoding: .utf8)) ?? ""
        if current != text {
            FileHandle.standardError.write(Data("\(target.path) is stale: run swift run satchel-kit-generate\n".utf8))
            exit(1)
        }
        exit(0)
    }
    try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: target, atomically: true, encoding: .utf8)
    FileHandle.standardError.write(Data("wrote \(target.path)\n".utf8))
} catch {
    FileHandle.standardError.write(Data("satchel-kit-generate: \(error)\n".utf8))
    exit(1)
}
