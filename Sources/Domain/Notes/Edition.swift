/// The free edition's cap on notes and photo notes together (`--free-limit N`); `nil` is unlimited.
public final class Edition {
    public let freeLimit: Int?
    private let counts: RowCounts

    init(freeLimit: Int?, counts: RowCounts) {
        self.freeLimit = freeLimit
        self.counts = counts
    }

    /// How many notes and photo notes count against the limit.
    public func used() throws(DomainError) -> Int {
        try storage { try usedNow() }
    }

    private func usedNow() throws -> Int {
        try counts.rows(of: "notes") + counts.rows(of: "photo_notes")
    }

    /// Throws `freeLimitReached` when one more note would pass the limit. Runs inside the create's
    /// transaction, so two processes cannot both take the last place.
    func checkRoomForOneMore() throws {
        guard let freeLimit else { return }
        if try usedNow() >= freeLimit { throw DomainError.freeLimitReached(limit: freeLimit) }
    }
}
