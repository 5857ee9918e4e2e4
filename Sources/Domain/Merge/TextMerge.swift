/// One change between two texts, in units (``TextTokens``) of the first: its units `start..<end` become the
/// other's units `with` (`start == end`: an insertion before unit `start`).
struct TextHunk: Equatable {
    var start: Int
    var end: Int
    var with: Range<Int>

    var isInsertion: Bool { start == end }
}

/// The changes that make one text of another, found with the standard library's `CollectionDifference`
/// (Myers' algorithm): first between lines, then between the units of each run of changed lines, so an
/// edit of one word of a line is a change of that word. Bounded: past ``maximumLines`` changed lines a
/// text's changed part is one change; past ``maximumUnits`` units a run of changed lines is one change.
public enum TextDiff {
    /// Lines of both texts between their common first and last lines, past which they are compared whole.
    public static let maximumLines = 4000
    /// Units of both sides of one run of changed lines, past which the run is compared whole.
    public static let maximumUnits = 3000

    static func hunks(from old: TextTokens, to new: TextTokens) -> [TextHunk] {
        // A text of a few pages is compared unit by unit; a longer one line by line first.
        if old.count + new.count <= maximumUnits {
            return slidLeft(unitHunks(old, 0..<old.count, new, 0..<new.count), old, new)
        }
        let oldLines = old.lines, newLines = new.lines
        var head = 0
        while head < oldLines.count, head < newLines.count, oldLines[head] == newLines[head] { head += 1 }
        var tail = 0
        while tail < oldLines.count - head, tail < newLines.count - head,
            oldLines[oldLines.count - 1 - tail] == newLines[newLines.count - 1 - tail]
        {
            tail += 1
        }
        let oldMiddle = head..<(oldLines.count - tail), newMiddle = head..<(newLines.count - tail)
        var lineRuns: [(Range<Int>, Range<Int>)] = []
        // Lines only one side has are changed whatever the alignment: only those both have are compared
        // (so a text changed on most of its lines costs what its unchanged ones do).
        let oldSet = Set(oldLines[oldMiddle]), newSet = Set(newLines[newMiddle])
        let oldKept = oldMiddle.filter { newSet.contains(oldLines[$0]) }
        let newKept = newMiddle.filter { oldSet.contains(newLines[$0]) }
        if oldKept.count + newKept.count > maximumLines {
            lineRuns = [(oldMiddle, newMiddle)]
        } else if !oldMiddle.isEmpty || !newMiddle.isEmpty {
            let difference = newKept.map { newLines[$0] }.difference(from: oldKept.map { oldLines[$0] })
            // The lines both keep, in order; the runs between them are the changed ones.
            var previous = (oldMiddle.lowerBound, newMiddle.lowerBound)
            for (o, n) in matches(difference, old: oldKept.count, new: newKept.count) + [(-1, -1)] {
                let next = o < 0 ? (oldMiddle.upperBound, newMiddle.upperBound) : (oldKept[o], newKept[n])
                if next.0 > previous.0 || next.1 > previous.1 { lineRuns.append((previous.0..<next.0, previous.1..<next.1)) }
                previous = (next.0 + 1, next.1 + 1)
            }
        }
        var hunks: [TextHunk] = []
        for (oldRun, newRun) in lineRuns {
            let oldUnits = old.lineStarts[oldRun.lowerBound]..<old.lineStarts[oldRun.upperBound]
            let newUnits = new.lineStarts[newRun.lowerBound]..<new.lineStarts[newRun.upperBound]
            if oldUnits.isEmpty || newUnits.isEmpty || oldUnits.count + newUnits.count > maximumUnits {
                hunks.append(TextHunk(start: oldUnits.lowerBound, end: oldUnits.upperBound, with: newUnits))
                continue
            }
            hunks += unitHunks(old, oldUnits, new, newUnits)
        }
        return slidLeft(hunks, old, new)
    }

    /// The changes between units `oldUnits` of `old` and `newUnits` of `new`.
    private static func unitHunks(_ old: TextTokens, _ oldUnits: Range<Int>, _ new: TextTokens, _ newUnits: Range<Int>) -> [TextHunk] {
        let difference = Array(new.units[newUnits]).difference(from: Array(old.units[oldUnits]))
        return runs(difference, old: oldUnits.count, new: newUnits.count).map { o, n in
            TextHunk(
                start: o.lowerBound + oldUnits.lowerBound, end: o.upperBound + oldUnits.lowerBound,
                with: n.lowerBound + newUnits.lowerBound..<n.upperBound + newUnits.lowerBound)
        }
    }

    /// Each insertion and deletion moved as far towards the start as the same text allows ("a" added after
    /// "a a" is "a" added before them): the same edit is then found at the same place whatever else the two
    /// sides of a merge changed, so it is seen as one edit and made once.
    private static func slidLeft(_ hunks: [TextHunk], _ old: TextTokens, _ new: TextTokens) -> [TextHunk] {
        var result: [TextHunk] = []
        for var hunk in hunks {
            let oldFloor = result.last?.end ?? 0, newFloor = result.last?.with.upperBound ?? 0
            if hunk.isInsertion {
                while hunk.start > oldFloor, hunk.with.lowerBound > newFloor,
                    new.units[hunk.with.upperBound - 1] == old.units[hunk.start - 1]
                {
                    hunk = TextHunk(start: hunk.start - 1, end: hunk.end - 1, with: hunk.with.lowerBound - 1..<hunk.with.upperBound - 1)
                }
            } else if hunk.with.isEmpty {
                while hunk.start > oldFloor, hunk.with.lowerBound > newFloor, old.units[hunk.end - 1] == old.units[hunk.start - 1] {
                    hunk = TextHunk(start: hunk.start - 1, end: hunk.end - 1, with: hunk.with.lowerBound - 1..<hunk.with.upperBound - 1)
                }
            }
            if let previous = result.last, previous.end == hunk.start, previous.with.upperBound == hunk.with.lowerBound {
                result[result.count - 1] = TextHunk(start: previous.start, end: hunk.end, with: previous.with.lowerBound..<hunk.with.upperBound)
            } else {
                result.append(hunk)
            }
        }
        return result
    }

    /// Which elements of the old a difference removes, and which of the new it inserts.
    private static func marks<T>(_ difference: CollectionDifference<T>, old: Int, new: Int) -> ([Bool], [Bool]) {
        var removed = [Bool](repeating: false, count: old)
        var inserted = [Bool](repeating: false, count: new)
        for change in difference {
            switch change {
            case .remove(let offset, _, _): removed[offset] = true
            case .insert(let offset, _, _): inserted[offset] = true
            }
        }
        return (removed, inserted)
    }

    /// The pairs of elements a difference keeps (offsets in the old and the new), in order.
    private static func matches<T>(_ difference: CollectionDifference<T>, old: Int, new: Int) -> [(Int, Int)] {
        let (removed, inserted) = marks(difference, old: old, new: new)
        var pairs: [(Int, Int)] = []
        var i = 0, j = 0
        while i < old && j < new {
            if removed[i] {
                i += 1
            } else if inserted[j] {
                j += 1
            } else {
                pairs.append((i, j))
                (i, j) = (i + 1, j + 1)
            }
        }
        return pairs
    }

    /// The runs of removed and inserted elements a difference makes, between elements both keep.
    private static func runs<T>(_ difference: CollectionDifference<T>, old: Int, new: Int) -> [(Range<Int>, Range<Int>)] {
        let (removed, inserted) = marks(difference, old: old, new: new)
        var result: [(Range<Int>, Range<Int>)] = []
        var i = 0, j = 0
        while i < old || j < new {
            if i < old, j < new, !removed[i], !inserted[j] {
                i += 1
                j += 1
                continue
            }
            let (oldStart, newStart) = (i, j)
            while i < old && removed[i] { i += 1 }
            while j < new && inserted[j] { j += 1 }
            result.append((oldStart..<i, newStart..<j))
        }
        return result
    }
}

/// A three-way merge of texts: what `ours` and `theirs` each changed since `base`, both kept in place. Edits
/// to different words, lines or paragraphs all stay; the same edit made on both sides appears once; lines
/// added at one place both stay (ours first). Only different edits of the same words, or different words
/// put in at one place within a line, clash: there `theirs` (the later) stands, and ``Result/clashes``
/// counts them.
/// The same three texts always give the same result.
public enum TextMerge {
    /// Where a part of the merged text comes from.
    public enum Origin: String, Sendable {
        /// Unchanged since the base.
        case base
        /// Changed on our side (the earlier, or the editor's).
        case ours
        /// Changed on their side (the later, or from elsewhere).
        case theirs
        /// Changed alike on both sides.
        case both
    }

    public struct Segment: Equatable, Sendable {
        public var text: String
        public var origin: Origin
    }

    public struct Result: Equatable, Sendable {
        public var text: String
        public var segments: [Segment]
        /// Places where both sides changed the same words differently (`theirs` stands there).
        public var clashes: Int

        public var isClean: Bool { clashes == 0 }
    }

    /// Refuses a text to merge that is longer than any text a person writes (a note's content), as the
    /// field `field`.
    public static func check(_ text: String, field: String) throws(DomainError) {
        try TextRules.check(text, field: field, characters: Note.maximumContentLength, reason: .contentTooLong)
    }

    public static func merge(base: String, ours: String, theirs: String) -> Result {
        let interner = TextTokens.Interner()
        let baseTokens = TextTokens(base, interner)
        let oursTokens = TextTokens(ours, interner)
        let theirsTokens = TextTokens(theirs, interner)
        let a = ours == base ? [] : TextDiff.hunks(from: baseTokens, to: oursTokens)
        let b = theirs == base ? [] : TextDiff.hunks(from: baseTokens, to: theirsTokens)
        var builder = Builder(base: baseTokens)
        var i = 0, j = 0
        while i < a.count || j < b.count {
            guard i < a.count else {
                builder.take(b[j], from: theirsTokens, as: .theirs)
                j += 1
                continue
            }
            guard j < b.count else {
                builder.take(a[i], from: oursTokens, as: .ours)
                i += 1
                continue
            }
            let x = a[i], y = b[j]
            if x.isInsertion && y.isInsertion && x.start == y.start {
                builder.insertBoth(oursTokens.text(x.with), theirsTokens.text(y.with), at: x.start)
                i += 1
                j += 1
                continue
            }
            // The one that comes first, an insertion before a change that starts where it is.
            let oursFirst = x.start < y.start || (x.start == y.start && x.isInsertion)
            let (first, other) = oursFirst ? (x, y) : (y, x)
            guard overlaps(other, first.start, first.end) else {
                if oursFirst {
                    builder.take(x, from: oursTokens, as: .ours)
                    i += 1
                } else {
                    builder.take(y, from: theirsTokens, as: .theirs)
                    j += 1
                }
                continue
            }
            // Changes of the same words: the run of them that overlap one another, on both sides.
            let start = first.start
            var end = first.end
            var ourRun: [TextHunk] = [], theirRun: [TextHunk] = []
            if oursFirst {
                ourRun.append(x)
                i += 1
            } else {
                theirRun.append(y)
                j += 1
            }
            while true {
                if i < a.count, overlaps(a[i], start, end) {
                    end = max(end, a[i].end)
                    ourRun.append(a[i])
                    i += 1
                } else if j < b.count, overlaps(b[j], start, end) {
                    end = max(end, b[j].end)
                    theirRun.append(b[j])
                    j += 1
                } else {
                    break
                }
            }
            let ourUnits = apply(ourRun, to: baseTokens, in: start..<end, from: oursTokens)
            let theirUnits = apply(theirRun, to: baseTokens, in: start..<end, from: theirsTokens)
            let same = ourUnits.map(\.1) == theirUnits.map(\.1)
            builder.put(theirUnits, over: start..<end, as: same ? .both : .theirs)
            if !same { builder.clashes += 1 }
        }
        return builder.result()
    }

    /// Whether `hunk` changes some of units `start..<end` (or inserts strictly within them).
    private static func overlaps(_ hunk: TextHunk, _ start: Int, _ end: Int) -> Bool {
        if start == end { return !hunk.isInsertion && hunk.start < start && start < hunk.end }
        if hunk.isInsertion { return start < hunk.start && hunk.start < end }
        return hunk.start < end && start < hunk.end
    }

    /// Units `range` of the base with `hunks` (all within it) applied: each unit's text and number.
    private static func apply(
        _ hunks: [TextHunk], to base: TextTokens, in range: Range<Int>, from side: TextTokens
    ) -> [(Substring, Int)] {
        var units: [(Substring, Int)] = []
        var at = range.lowerBound
        for hunk in hunks {
            units += (at..<hunk.start).map { (base.text($0..<$0 + 1), base.units[$0]) }
            units += hunk.with.map { (side.text($0..<$0 + 1), side.units[$0]) }
            at = hunk.end
        }
        units += (at..<range.upperBound).map { (base.text($0..<$0 + 1), base.units[$0]) }
        return units
    }

    private struct Builder {
        let base: TextTokens
        var at = 0
        var segments: [Segment] = []
        var clashes = 0

        init(base: TextTokens) { self.base = base }

        mutating func append(_ text: Substring, _ origin: Origin) {
            guard !text.isEmpty else { return }
            if let last = segments.last, last.origin == origin {
                segments[segments.count - 1].text += text
            } else {
                segments.append(Segment(text: String(text), origin: origin))
            }
        }

        mutating func keep(upTo unit: Int) {
            if unit > at { append(base.text(at..<unit), .base) }
            at = max(at, unit)
        }

        /// What the last change taken put in, and where it ended in the base.
        private var last: (origin: Origin, units: ArraySlice<Int>, end: Int)?

        mutating func take(_ hunk: TextHunk, from side: TextTokens, as origin: Origin) {
            put(hunk.with.map { (side.text($0..<$0 + 1), side.units[$0]) }, over: hunk.start..<hunk.end, as: origin)
        }

        /// Puts `units` in place of base units `range`. When they come right after what the other side put
        /// in and begin with what that ended with, those are the same words put in by both (lined up a unit
        /// apart by the two diffs): they are put in once.
        mutating func put(_ units: [(Substring, Int)], over range: Range<Int>, as origin: Origin) {
            keep(upTo: range.lowerBound)
            var units = units[...]
            if let last, last.origin != origin, last.end == range.lowerBound {
                var overlap = min(last.units.count, units.count)
                while overlap > 0 && !last.units.suffix(overlap).elementsEqual(units.prefix(overlap).map(\.1)) { overlap -= 1 }
                units = units.dropFirst(overlap)
            }
            for (text, _) in units { append(text, origin) }
            at = range.upperBound
            last = (origin, units.map(\.1)[...], range.upperBound)
        }

        /// Two insertions at one place: once when the same, or when one holds the other at its start or end;
        /// both when they are lines put in between lines (the earlier first); else they clash, and theirs
        /// stands.
        mutating func insertBoth(_ ours: Substring, _ theirs: Substring, at unit: Int) {
            last = nil
            keep(upTo: unit)
            let atEnd = unit == base.count
            let lineStart = unit == 0 || base.text(unit - 1..<unit).last?.isNewline == true
            let betweenLines =
                (lineStart && [ours, theirs].allSatisfy { $0.last?.isNewline == true || atEnd })
                || ((atEnd || base.text(unit..<unit + 1).first?.isNewline == true)
                    && [ours, theirs].allSatisfy { $0.first?.isNewline == true })
            if ours == theirs {
                append(ours, .both)
            } else if theirs.hasPrefix(ours) || theirs.hasSuffix(ours) {
                append(theirs, .theirs)
            } else if ours.hasPrefix(theirs) || ours.hasSuffix(theirs) {
                append(ours, .ours)
            } else if betweenLines {
                append(ours, .ours)
                append(theirs, .theirs)
            } else {
                append(theirs, .theirs)
                clashes += 1
            }
        }

        mutating func result() -> Result {
            keep(upTo: base.count)
            return Result(text: segments.map(\.text).joined(), segments: segments, clashes: clashes)
        }
    }
}
