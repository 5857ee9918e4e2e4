import Foundation
import Protocol

/// Parse and serialize throughput of the Protocol codec, side by side with Foundation's JSONSerialization.
enum CodecBenchmark {
    /// A typical request of about 150 bytes.
    static let smallRequest = Array(
        #"{"jsonrpc":"2.0","id":12345,"method":"notes.create","params":{"title":"Groceries","content":"milk, eggs, bread","color":{"hue":0.5,"saturation":0.3,"brightness":1}}}"#
            .utf8)

    /// A message of about 1 MiB: a batch-like array of note objects with mixed text.
    static let largeMessage: [UInt8] = {
        var notes: [JSONValue] = []
        var size = 0
        var index: Int64 = 0
        while size < 1 << 20 {
            let note: JSONValue = [
                "id": .string("note-\(index)"), "title": .string("Заметка №\(index) — 日本語のタイトル"),
                "content": .string(String(repeating: "Lorem ipsum dolor sit amet, \"quoted\"\n", count: 4)),
                "color": ["hue": .number(Double(index % 360) / 360), "saturation": 0.25, "brightness": 1],
                "revision": .integer(index), "deadline": .null, "done": .bool(index % 2 == 0),
            ]
            size += JSONWriter.bytes(note).count + 1
            notes.append(note)
            index += 1
        }
        let message: JSONValue = [
            "jsonrpc": "2.0", "id": 1, "method": "import", "params": ["document": ["notes": .array(notes)]],
        ]
        return JSONWriter.bytes(message)
    }()

    static func run() {
        report("## Codec (one core)")
        report("")
        report("| message | operation | satchel Protocol | Foundation JSONSerialization | ratio |")
        report("| --- | --- | --- | --- | --- |")
        compare(name: "~\(smallRequest.count) B request", bytes: smallRequest, batch: 10_000, minimumSeconds: 2)
        compare(name: "\(largeMessage.count / 1024) KiB message", bytes: largeMessage, batch: 2, minimumSeconds: 3)
        report("")
    }

    private static func compare(name: String, bytes: [UInt8], batch: Int, minimumSeconds: Double) {
        let data = Data(bytes)
        var sink = 0
        let ours = measure(minimumSeconds: minimumSeconds, batch: batch) {
            bytes.withUnsafeBytes { raw in
                for _ in 0..<batch {
                    if case .object(let object) = try! JSONParser.parse(raw) { sink &+= object.count }
                }
            }
        }
        let foundation = measure(minimumSeconds: minimumSeconds, batch: batch) {
            for _ in 0..<batch {
                let object = try! JSONSerialization.jsonObject(with: data) as! [String: Any]
                sink &+= object.count
            }
        }
        report(row(name, "parse", ours, foundation, bytes.count))

        let value = try! JSONParser.parse(bytes)
        let foundationValue = try! JSONSerialization.jsonObject(with: data)
        var writer = JSONWriter(capacity: bytes.count * 2)
        let oursWrite = measure(minimumSeconds: minimumSeconds, batch: batch) {
            for _ in 0..<batch {
                writer.removeAll()
                writer.write(value)
                sink &+= writer.bytes.count
            }
        }
        let foundationWrite = measure(minimumSeconds: minimumSeconds, batch: batch) {
            for _ in 0..<batch {
                sink &+= try! JSONSerialization.data(withJSONObject: foundationValue).count
            }
        }
        report(row(name, "serialize", oursWrite, foundationWrite, bytes.count))
        if sink == 42 { report("") }  // keeps the work observable
    }

    private static func row(_ name: String, _ operation: String, _ ours: Double, _ theirs: Double, _ size: Int)
        -> String
    {
        let oursMB = ours * Double(size) / 1_048_576
        let theirsMB = theirs * Double(size) / 1_048_576
        return "| \(name) | \(operation) | \(formatted(ours)) msg/s (\(formatted(oursMB)) MiB/s) | "
            + "\(formatted(theirs)) msg/s (\(formatted(theirsMB)) MiB/s) | \(formatted(ours / theirs))x |"
    }
}
