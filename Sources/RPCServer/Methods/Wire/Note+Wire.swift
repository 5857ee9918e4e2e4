import Domain
import Protocol

// A note on the wire: what `notes.*` answer and `rpc.discover` describes, and the colour and fields a
// client sends.

extension HSBColor {
    static let schema = schema(hex: "#RRGGBB, derived")

    /// The colour a client sends: the HSB triple (a `hex` it echoes back is accepted and ignored).
    static let inputSchema = schema(hex: "ignored", optional: ["hex"])

    private static func schema(hex: String, optional: Set<String> = []) -> JSONValue {
        let component = Schema.number(
            minimum: componentRange.lowerBound, maximum: componentRange.upperBound, description: "0...1")
        return Schema.object(
            allRequired: [
                ("hue", component), ("saturation", component), ("brightness", component),
                ("hex", Schema.string(description: hex)),
            ], except: optional)
    }
}

extension Note {
    static let schema = Schema.object(
        allRequired: [
            ("id", Schema.id), ("title", Schema.string()), ("content", Schema.string()), ("color", HSBColor.schema),
            ("deadline", Schema.nullable(Schema.timestamp)),
        ] + Schema.stamps)

    var json: JSONValue {
        .encoded(EncodedJSON(capacity: 256 + content.utf8.count) { $0.write(note: self) })
    }
}

extension NoteDraft {
    /// `notes.create`'s params.
    init(_ params: ParamValues) throws(DomainError) {
        self.init(
            title: params.string("title") ?? "", content: params.string("content") ?? "",
            color: try params.color("color") ?? .white, deadline: params.timestamp("deadline"))
    }
}

extension NoteChanges {
    /// `notes.update`'s params; `deadline: null` clears the deadline.
    init(_ params: ParamValues) throws(DomainError) {
        self.init(
            title: params.string("title"), content: params.string("content"), color: try params.color("color"),
            deadline: params.change("deadline", params.timestamp))
    }
}

extension ParamValues {
    /// A colour param already checked against ``HSBColor/inputSchema``.
    func color(_ name: String) throws(DomainError) -> HSBColor? {
        guard let value = self[name] else { return nil }
        return try HSBColor(
            hue: value["hue"]?.doubleValue ?? .nan, saturation: value["saturation"]?.doubleValue ?? .nan,
            brightness: value["brightness"]?.doubleValue ?? .nan, field: name)
    }
}

extension JSONWriter {
    mutating func write(color: HSBColor) {
        writeRaw("{\"hue\":"); write(number: color.hue)
        writeRaw(",\"saturation\":"); write(number: color.saturation)
        writeRaw(",\"brightness\":"); write(number: color.brightness)
        writeRaw(",\"hex\":"); write(string: color.hex)
        writeByte(UInt8(ascii: "}"))
    }

    mutating func write(note: Note) {
        writeRaw("{\"id\":"); write(string: note.id)
        writeRaw(",\"title\":"); write(string: note.title)
        writeRaw(",\"content\":"); write(string: note.content)
        writeRaw(",\"color\":"); write(color: note.color)
        writeRaw(",\"deadline\":"); write(optionalTimestamp: note.deadline)
        write(createdAt: note.createdAt, updatedAt: note.updatedAt, revision: note.revision)
        writeByte(UInt8(ascii: "}"))
    }
}
