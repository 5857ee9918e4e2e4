import Testing

@testable import Domain

/// What an entity id may be, wherever it comes from (a method, an import, another device through sync):
/// the same rule as PostgreSQL's `satchel.valid_id`, stricter only for Unicode's own spaces.
@Suite struct EntityIDTests {
    @Test(arguments: [
        "note_01jd3f6k8q2xv7w9c4m5t0bnra", "n", "note_01jd3f6k8q2xv7w9c4m5t0bnra-conflict-12", "заметка_1", "メモ",
        String(repeating: "a", count: 128), String(repeating: "я", count: 64),
    ])
    func theseAreIds(id: String) {
        #expect(EntityID.isValid(id))
    }

    @Test(arguments: [
        "", String(repeating: "a", count: 129), String(repeating: "я", count: 65), "bp_1/sock1", "a b", "a\tb", "a\nb",
        "a\u{7F}", "a\u{0}", "a\u{A0}b", "a\u{2028}b", "a\u{85}b", "/",
    ])
    func theseAreNot(id: String) {
        #expect(!EntityID.isValid(id))
    }
}
