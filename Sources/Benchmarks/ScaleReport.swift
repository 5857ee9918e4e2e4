import Foundation

/// The scale benchmark's report: a table per figure, with its ratio to the 1,000-note value, and the bounds.
extension ScaleBenchmark {
    /// A figure at one size: a value, or why there is none.
    enum Cell {
        case value(Double)
        case missing(String)
    }

    static func cell(_ operation: Operation, _ value: Double?) -> Cell {
        value.map(Cell.value) ?? .missing(operation.error ?? "not measured")
    }

    static func tables(_ sizes: [Size]) {
        let time = { (microseconds: Double) in duration(microseconds / 1e6) }
        table("`search {query: \"apple\"}` (median)", sizes, time, alsoTo: 10_000) { .value($0.searchMicroseconds) }
        table("`server.info` (median)", sizes, time) { .value($0.serverInfoMicroseconds) }
        table("`notes.list {limit: 50}`, first page (median)", sizes, time) { .value($0.listFirstMicroseconds) }
        table("`notes.list {limit: 50}`, the page at the middle (median)", sizes, time) {
            .value($0.listMiddleMicroseconds)
        }
        table("First search after the fill (indexes every note)", sizes, duration) { .value($0.indexingSeconds) }
        table("`export {path}`: time", sizes, duration) { cell($0.export, $0.export.seconds) }
        table("`export {path}`: peak RSS", sizes, megabytes) { cell($0.export, $0.export.peakRSS.map(Double.init)) }
        table("`export {path}`: file", sizes, megabytes) { cell($0.export, $0.export.bytes.map(Double.init)) }
        table("`import {path, mode: \"replace\"}` into an empty database: time", sizes, duration) {
            cell($0.importFromFile, $0.importFromFile.seconds)
        }
        table("`import {path, mode: \"replace\"}`: peak RSS", sizes, megabytes) {
            cell($0.importFromFile, $0.importFromFile.peakRSS.map(Double.init))
        }
        table("`export {}` (in the answer): time", sizes, duration) {
            cell($0.exportInMessage, $0.exportInMessage.seconds)
        }
        table("`export {}` (in the answer): peak RSS", sizes, megabytes) {
            cell($0.exportInMessage, $0.exportInMessage.peakRSS.map(Double.init))
        }
        table("`export {}` (in the answer): answer", sizes, megabytes) {
            cell($0.exportInMessage, $0.exportInMessage.bytes.map(Double.init))
        }
        table("Idle satchel (after one `server.info`): peak RSS", sizes, megabytes) {
            $0.idleRSS.map { .value(Double($0)) } ?? .missing("no /proc")
        }
        report(
            "Progress notifications received: "
                + sizes.map { size in
                    "\(formatted(Double(size.notes))) notes: first search \(size.indexingProgressNotifications), "
                        + "export \(size.export.progressNotifications ?? 0), "
                        + "import \(size.importFromFile.progressNotifications ?? 0)"
                }.joined(separator: "; "))
        report("")
        bounds(sizes)
    }

    /// One figure's table: its value at each size and the ratio to its value at 1,000 notes (and to `alsoTo`).
    static func table(
        _ title: String, _ sizes: [Size], _ show: (Double) -> String, alsoTo second: Int? = nil,
        _ figure: (Size) -> Cell
    ) {
        func valueAt(_ notes: Int) -> Double? {
            guard let size = sizes.first(where: { $0.notes == notes }), case .value(let value) = figure(size) else {
                return nil
            }
            return value
        }
        let references = [1_000] + (second.map { [$0] } ?? [])
        report("### \(title)")
        report("")
        report("| notes | value | " + references.map { "ratio to \($0 / 1000)k" }.joined(separator: " | ") + " |")
        report("| --- | --- | " + references.map { _ in "---" }.joined(separator: " | ") + " |")
        for size in sizes {
            var cells = ["\(formatted(Double(size.notes)))"]
            switch figure(size) {
            case .value(let value):
                cells.append(show(value))
                cells += references.map { valueAt($0).map { ratio(value / $0) } ?? "–" }
            case .missing(let why):
                cells.append(why)
                cells += references.map { _ in "–" }
            }
            report("| " + cells.joined(separator: " | ") + " |")
        }
        report("")
    }

    /// The bounds the server is held to, at the largest size measured.
    static func bounds(_ sizes: [Size]) {
        guard let first = sizes.first, let last = sizes.last else { return }
        let at = formatted(Double(last.notes))
        report("Bounds (at \(at) notes; they are set for 1,000,000):")
        report("")
        if let tenK = sizes.first(where: { $0.notes == 10_000 }) {
            let searchRatio = last.searchMicroseconds / tenK.searchMicroseconds
            report(
                "- `search` at \(at) / at 10,000: \(ratio(searchRatio)) (bound 3x: \(searchRatio <= 3 ? "met" : "not met"))"
            )
        }
        let infoRatio = last.serverInfoMicroseconds / first.serverInfoMicroseconds
        report(
            "- `server.info` at \(at) / at 1,000: \(ratio(infoRatio)) (bound 2x: \(infoRatio <= 2 ? "met" : "not met"))"
        )
        for (name, small, large) in [
            ("`export {path}`", first.export, last.export),
            ("`import {path}`", first.importFromFile, last.importFromFile),
        ] {
            guard let smallPeak = small.peakRSS, let largePeak = large.peakRSS else {
                report("- \(name) peak RSS: \(large.error ?? small.error ?? "not measured")")
                continue
            }
            let anonymous =
                large.peakAnonymousRSS.map { "; of which allocated (RssAnon) at most \(megabytes($0))" } ?? ""
            report(
                "- \(name) peak RSS at \(at) / at 1,000: \(ratio(Double(largePeak) / Double(smallPeak))) "
                    + "(\(megabytes(largePeak)) against \(megabytes(smallPeak))\(anonymous); constant memory is ~1x)")
        }
        report("")
    }

    static func ratio(_ value: Double) -> String { String(format: "%.2fx", value) }

    static func duration(_ seconds: Double) -> String {
        if seconds >= 1 { return "\(formatted(seconds)) s" }
        if seconds >= 1e-3 { return "\(formatted(seconds * 1e3)) ms" }
        return "\(formatted(seconds * 1e6)) µs"
    }

    static func megabytes(_ bytes: Double) -> String { "\(formatted(bytes / 1_048_576)) MiB" }
    static func megabytes(_ bytes: Int) -> String { megabytes(Double(bytes)) }
}
