import Foundation
import Protocol

// satchel-bench [codec] [pipe] [notes] [diary] [photos [--heic PATH]] [waits] [--compare SATCHEL]... [live] [merge] [search] [kit] [scale [--million] [--json PATH]]: prints a
// Markdown report of the benchmarks (all of them when no part is named). Build in release:
// `swift run -c release satchel-bench`. The pipe benchmarks run the `satchel` binary that sits beside this
// one (or $SATCHEL_BINARY).

var selected = Set<String>()
var million = false
var jsonPath: String? = nil
var heicPath: String? = nil
var comparePaths: [String] = []
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--million": million = true
    case "--heic":  // a 12 MP HEIC to measure too (libheif's own tools make one: `heif-enc`)
        guard let path = arguments.next() else { fatalError("--heic needs a path") }
        heicPath = path
    case "--compare":  // other satchel builds to measure photos and waits against, round by round
        guard let path = arguments.next() else { fatalError("--compare needs a path") }
        comparePaths.append(path)
    case "--json":
        guard let path = arguments.next() else { fatalError("--json needs a path") }
        jsonPath = path
    default: selected.insert(argument)
    }
}
let all = selected.isEmpty

report("# satchel-bench on \(ProcessInfo.processInfo.activeProcessorCount) cores")
report("")
if all || selected.contains("codec") {
    CodecBenchmark.run()
}
let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("satchel")
let binary = ProcessInfo.processInfo.environment["SATCHEL_BINARY"].map(URL.init(fileURLWithPath:)) ?? beside
if all || selected.contains("pipe") {
    try PipeBenchmark.run(binary: binary, pipelined: 200_000, sequential: 20_000)
}
if all || selected.contains("notes") {
    try NotesBenchmark.run(binary: binary)
}
if all || selected.contains("diary") {
    try DiaryBenchmark.run(binary: binary)
}
if all || selected.contains("photos") {
    try PhotoBenchmark.run(
        binary: binary, compare: comparePaths.map(URL.init(fileURLWithPath:)), heic: heicPath.map { [UInt8](FileManager.default.contents(atPath: $0) ?? Data()) })
}
if all || selected.contains("waits") {
    try NetworkWaitBenchmark.run(binary: binary, compare: comparePaths.map(URL.init(fileURLWithPath:)))
}
if all || selected.contains("live") {
    try LiveDataBenchmark.run(binary: binary)
}
if all || selected.contains("merge") {
    MergeBenchmark.run()
}
if all || selected.contains("search") {
    try SearchBenchmark.run(binary: binary)
}
if all || selected.contains("kit") {
    try await KitBenchmark.run(binary: binary)
}
if all || selected.contains("scale") {
    try ScaleBenchmark.run(binary: binary, million: million, jsonPath: jsonPath)
}
if selected.contains("profile-parse") {
    // A fixed amount of work for instruction-counting profilers (valgrind --tool=callgrind).
    CodecBenchmark.smallRequest.withUnsafeBytes { raw in
        var members = 0
        for _ in 0..<200_000 {
            if case .object(let object) = try! JSONParser.parse(raw) { members &+= object.count }
        }
        report("parsed; \(members) members")
    }
}
