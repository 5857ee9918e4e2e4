import Domain
import Protocol
import Testing

@testable import RPCServer

/// A required param is declared with the type its handler reads: validated params give that type, never an
/// optional, and the declaration's spec is what the registry validates and publishes.
@Suite struct RequiredParamTests {
    @Test func validatedParamsReadAsTheirDeclaredTypes() throws {
        let id = Required.string("id", Schema.id, "An id.")
        let index = Required.integer("toIndex", Schema.integer(), "A position.")
        let mode = Required<ImportMode>("mode", Schema.enumeration(["merge", "replace"]), "A mode.") {
            $0.stringValue.flatMap(ImportMode.init(rawValue:))
        }
        let image = Required.json("image", Schema.openObject, "An image.")
        let method = RPCMethod("test.typed", summary: "", params: [id.spec, index.spec, mode.spec, image.spec], result: nil) {
            _, _ in .null
        }
        let params = try method.validate(
            .byName(["id": "n1", "toIndex": .integer(Int64.max), "mode": "replace", "image": ["path": "/x.png"]]))
        #expect(params[id] == "n1")
        #expect(params[index] == Int.max, "clamped to Int")
        #expect(params[mode] == .replace)
        #expect(params[image] == ["path": "/x.png"])
        #expect(id.spec.required && id.spec.name == "id")
        #expect(throws: ServerError.self) { try method.validate(.byName(["id": "n1", "toIndex": 1, "mode": "both", "image": [:]])) }
    }
}
