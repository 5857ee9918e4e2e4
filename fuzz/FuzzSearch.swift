// The libFuzzer entry over search, compiled together with Sources/Domain by scripts/fuzz.
//
// The input is a recipe for hostile content and a query: its first byte says how many times the content
// part is repeated (up to 255 × 64 times, so a short input makes a long, repetitive text, as one letter run
// or "abab…" would), the rest is split at the first NUL into the content part and the query (bytes as
// UTF-8, invalid ones replaced). The text is stored as a note (through the model layer's rules: a text past
// them is refused, as it would be anywhere) and searched for. Besides crashes and sanitizer reports, a
// finding is a search slower than its budget, a snippet longer than a snippet is, or a hit whose text does
// not hold the query's words.

import Domain

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One in-memory store for the whole run, with one note the inputs rewrite.
let store = try! DataStore(path: nil)
let note = try! store.notes.create(NoteDraft(title: "fuzz", content: "seed"))
/// Twice the 1 s the issue allows a search on hostile text, for AddressSanitizer's slowdown.
let budget = 2.0

func seconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSearch(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 1 else { return 0 }
    let repeats = 1 + Int(data[0]) * 64
    let rest = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let split = rest.firstIndex(of: 0) ?? rest.count
    let part = String(decoding: rest[..<split], as: UTF8.self)
    let query = split < rest.count ? String(decoding: rest[(split + 1)...], as: UTF8.self) : part
    let content = String(repeating: part, count: min(repeats, max(1, 4_000_000 / max(1, part.utf8.count))))
    guard (try? store.notes.update(id: note.id, NoteChanges(title: "fuzz", content: content))) != nil else { return 0 }
    let started = seconds()
    let hits: [SearchHit]
    do {
        hits = try store.search.search(query)
    } catch {
        return 0  // a query past its bounds: refused, as it should be
    }
    let took = seconds() - started
    check(took < budget, "a search took \(took) s on \(content.utf8.count) bytes for a query of \(query.utf8.count)")
    for hit in hits {
        check(hit.snippet.unicodeScalars.count <= 2 * 200 + 4 * query.unicodeScalars.count, "a snippet of \(hit.snippet.unicodeScalars.count) scalars")
        check(hit.id == note.id, "a hit on something never written: \(hit.id)")
    }
    // An ASCII query's words are all in an ASCII text it finds (letter case aside).
    if query.utf8.allSatisfy({ $0 < 0x80 }) && content.utf8.allSatisfy({ $0 < 0x80 }) && !hits.isEmpty {
        let text = content.lowercased() + " " + "fuzz"
        for word in query.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "\0" }) {
            check(text.contains(word), "a hit that does not hold \"\(word)\"")
        }
    }
    return 0
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
