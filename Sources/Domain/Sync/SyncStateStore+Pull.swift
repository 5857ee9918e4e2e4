#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Applying what was pulled from the shared log: each row to its domain, with conflict copies.
extension SyncStateStore {
    /// How many images one pull asks to fetch at most before it goes on.
    static let imagesPerFetch = 8

    /// Applies rows pulled from the shared log (in its order, this device's own among them), and moves the
    /// cursor past them, in one transaction: a pull cut short by a crash is applied again, whole, by the
    /// next one. What it changes is logged as having come from elsewhere (never pushed back). A row that
    /// breaks a rule — over the byte cap, of the wrong shape, failing the model's rules — is skipped and
    /// recorded (``skippedRows()``), never pulled again.
    ///
    /// A row whose images are neither here nor in `fetched` stops the pull before it (`missingImages` says
    /// which to fetch); one whose images were asked for (`tried`) and are not in PostgreSQL is skipped.
    public func apply(
        _ rows: [PulledRow], fetched: [String: PreparedImage] = [:], tried: Set<String> = []
    ) throws(DomainError) -> PullSummary {
        try storage {
            do {
                return try applyInTransaction(rows, fetched: fetched, tried: tried)
            } catch {
                stampCodec.forget()  // any made in it went with the transaction
                throw error
            }
        }
    }

    private func applyInTransaction(
        _ rows: [PulledRow], fetched: [String: PreparedImage], tried: Set<String>
    ) throws -> PullSummary {
        try group.transaction {
            var summary = PullSummary()
            // Devices are numbered before any row's savepoint, which could take a number back with it.
            for device in Set(rows.map(\.device)) { _ = try stampCodec.number(ofDevice: device) }
            var cursor = try positions()
            let start = cursor
            let before = try newestSeq.integer() ?? 0
            localThrough = before
            let pushed = try number("pushed")
            let images = SyncImages(store: self.images, fetched: fetched)
            for (index, row) in rows.enumerated() where row.seq > (start[row.account] ?? 0) {
                let missing = try missingImages(row, images)
                if !missing.isEmpty && !missing.allSatisfy(tried.contains) {
                    summary.missingImages = try missingImages(in: rows[index...], images)
                    break
                }
                cursor[row.account] = row.seq
                guard missing.isEmpty else {  // asked of PostgreSQL, which does not have them
                    try skip(row, "an image it shows is not in PostgreSQL", &summary)
                    continue
                }
                if let fault = row.fault {
                    try skip(row, fault, &summary)
                    continue
                }
                guard row.op != "put" || row.body != nil else {
                    try skip(row, "a body of \(row.bytes) bytes, over the cap", &summary)
                    continue
                }
                do {
                    try savepoint.run()
                    try applyOne(row, pushed: pushed, images: images, summary: &summary)
                    try release.run()
                } catch {
                    try rollbackToSavepoint.run()
                    try release.run()
                    stampCodec.forget()  // one it made (for a stamp of before version 14) went with the row
                    try skip(row, Self.reason(error), &summary)
                }
            }
            if pushed >= before {
                // Nothing of this device's own waits: what the pull logged is passed over at once (so
                // the entries still to push stay few, however much was pulled).
                try upsert.run([.text("pushed"), .text(String(try newestSeq.integer() ?? before))])
            } else {
                try skipAfter.run([.integer(before)])
            }
            // The copies made here go out as entities of their own (a row that changes no field where a
            // device has made the same): a device that never saw the clash — it came later, or the rows
            // went with a deletion — has them too.
            let now = clock.nowMilliseconds()
            for copy in summary.copied where try hasVersion(copy.domain, copy.id) {
                try changes.record(copy.domain, .updated, id: copy.id, at: now)
            }
            if cursor != start {
                try upsert.run(
                    [.text("cursor"), .text(String(decoding: try JSONEncoder.sorted.encode(cursor), as: UTF8.self))])
            }
            return summary
        }
    }

    private func skip(_ row: PulledRow, _ reason: String, _ summary: inout PullSummary) throws {
        summary.skipped.append("row \(row.seq) (\(row.domain) \(row.entity)): \(reason)")
        try recordSkipped(row: row.seq, domain: row.domain, entity: row.entity, reason: reason)
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case let error as DecodingError: "body\(ExchangeDocument.path(of: error)) is not readable"
        default: "\(error)"
        }
    }

    /// The images `row` shows that are neither here nor fetched (none when its body is unreadable: the row
    /// is skipped when applied).
    /// The log's version is among them: a conflict copy of it shows its images.
    private func missingImages(_ row: PulledRow, _ images: SyncImages) throws -> [String] {
        guard row.op == "put", let body = row.body else { return [] }
        let state = try entity(row.domain, row.entity).state
        let shown: [String]
        switch ChangeDomain(rawValue: row.domain) {
        case .photos: shown = [body, state].compactMap { $0.flatMap { try? photos.decode($0) }?.images }.flatMap { $0 }
        case .diary: shown = [body, state].compactMap { $0.flatMap { try? diary.decode($0) }?.images }.flatMap { $0 }
        default: return []
        }
        var missing: [String] = []
        for sha256 in shown where try !missing.contains(sha256) && !images.available(sha256) { missing.append(sha256) }
        return missing
    }

    private func missingImages(in rows: ArraySlice<PulledRow>, _ images: SyncImages) throws -> [String] {
        var missing: [String] = []
        for row in rows {
            for sha256 in try missingImages(row, images) where !missing.contains(sha256) {
                missing.append(sha256)
                if missing.count == Self.imagesPerFetch { return missing }
            }
        }
        return missing
    }

    /// Applies one row of the shared log to its domain.
    private func applyOne(_ row: PulledRow, pushed: Int64, images: SyncImages, summary: inout PullSummary) throws {
        switch row.domain {
        case "notes": try applyOne(notes, row, pushed: pushed, images: images, summary: &summary)
        case "photos": try applyOne(photos, row, pushed: pushed, images: images, summary: &summary)
        case "diary": try applyOne(diary, row, pushed: pushed, images: images, summary: &summary)
        case "reminders": try applyOne(reminders, row, pushed: pushed, images: images, summary: &summary)
        case "messages": try applyOne(messages, row, pushed: pushed, images: images, summary: &summary)
        case "board": try applyOne(board, row, pushed: pushed, images: images, summary: &summary)
        case "votes": try applyOne(votes, row, pushed: pushed, images: images, summary: &summary)
        default: if !row.own { summary.skipped.append("row \(row.seq): \(row.domain) does not sync yet") }
        }
    }

    /// First to the log's own version of the entity, which every device works out alike (the same rows in
    /// the same order, the same rules), conflict copies included; then this device's entity follows the
    /// log's version, unless this device has a version of its own that the log has not shown back yet (it
    /// stays, and goes out).
    private func applyOne<D: SyncDomain>(
        _ kind: D, _ row: PulledRow, pushed: Int64, images: SyncImages, summary: inout PullSummary
    ) throws {
        var entity = try entity(row.domain, row.entity)
        guard row.seq > entity.known else { return }  // applied already (a pull from before the cursor)
        let before = entity.known
        let logVersion = try self.logVersion(kind, row.entity, entity)
        var version = logVersion  // the log's version after this row
        // Whether another device changed `field` after the version this row's writer stood on.
        let unseen = { (field: String) -> Bool in
            let stamp = entity.stamps[field] ?? FieldStamp(seq: entity.known, device: "")
            return stamp.seq > (row.base ?? 0) && stamp.device != row.device
        }
        if row.op != "put" { try kind.checkDeletion(row, of: logVersion) }
        if row.op == "put" {
            guard let body = row.body else { throw DomainError.validation(reason: .invalidDocument, field: "body") }
            let (incoming, written) = try kind.decodeEdited(body)
            try incoming.check()
            guard incoming.id == row.entity else { throw DomainError.validation(reason: .invalidDocument, field: "body.id") }
            try kind.check(row, incoming, over: logVersion)
            let changed = Set(row.fields ?? D.Version.fields.map(\.name))
            let edit = kind.isPrivate ? written : SyncEdit(by: nil)
            if let name = edit.by { try stampCodec.setName(name, ofDevice: row.device) }
            var merged = incoming
            if let logVersion {
                let (version, clash) = merge(incoming, into: logVersion, changed: changed, edit: edit, unseen: unseen)
                merged = version
                if let clash, kind.isPrivate {
                    try keepCopy(
                        kind, of: logVersion, writtenBy: entity.stamps[clash]?.device ?? "", overwrittenAt: entity.known,
                        pushed: pushed, images: images, summary: &summary)
                }
            }
            merged = kind.stamped(merged, author: row.account, over: logVersion)
            if logVersion == nil {
                // First seen here: the fields this row did not change were last changed by rows every device
                // has merged (PostgreSQL drops a superseded version only then), so no later row can have
                // missed them: the same as the stamps of the devices that did see those rows.
                for field in D.Version.fields where !changed.contains(field.name) {
                    entity.stamps[field.name] = FieldStamp(seq: 0, device: "")
                }
            }
            for name in changed { entity.stamps[name] = FieldStamp(seq: row.seq, device: row.device) }
            version = merged
            entity.known = row.seq
        } else if !D.Version.fields.contains(where: { logVersion != nil && unseen($0.name) }) {
            version = nil
            entity.known = row.seq
            entity.stamps = [:]
            // A deletion that wins takes every earlier row of the entity from PostgreSQL, this device's own
            // among them even when it has not pulled it back: it waits for none any more (one of its rows
            // placed after the deletion comes after it, and is applied as it comes).
            entity.awaiting = nil
        }  // else: a deletion that had not seen an edit loses to it
        if row.own && entity.awaiting == row.deviceSeq { entity.awaiting = nil }
        let followsLog =
            kind.changesHere(row.entity)
            ? try follows(kind.domain, kind.localEntity(row.entity), awaiting: entity.awaiting, pushed: pushed)
            : entity.awaiting == nil
        if followsLog {
            if try kind.write(row.entity, version, images: images) { summary.applied += 1 }
            entity.stood = nil
        } else if entity.stood == nil, kind.isPrivate, let logVersion, version != logVersion {
            // The log moves on under changes made here: they stood on the version before this row.
            entity.stood = (before, try logVersion.encoded())
        }
        try save(kind, row.entity, entity, version: version)
    }

    /// The log's version with `incoming`'s changes taken in. Each field it changed is taken, but: a text a
    /// person writes that the row says it had (its `edit`), where the log's is no longer that (another
    /// device changed it since, or an earlier row of this device's merged others' edits into it), is merged
    /// three-way against it; anything else another device changed after the version `incoming` stood on
    /// (`unseen`) and that differs — or such a text whose merge clashes, or breaks the field's rules — is a
    /// clash, and the later (`incoming`) stands. Answers the merged version, and the first field whose clash
    /// keeps a copy.
    private func merge<Version: SyncVersion>(
        _ incoming: Version, into logVersion: Version, changed: Set<String>, edit: SyncEdit, unseen: (String) -> Bool
    ) -> (Version, clash: String?) {
        var merged = logVersion
        var clash: String?
        var mergedTexts: [SyncField<Version>] = []
        for field in Version.fields where changed.contains(field.name) {
            if field.content, !field.same(logVersion, incoming) {
                if let text = field.text, case let (ours, theirs) = (text.get(logVersion), text.get(incoming)),
                    let base = edit.base(of: field.name, now: theirs ?? ""), base != ours ?? ""
                {
                    let result = TextMerge.merge(base: base, ours: ours ?? "", theirs: theirs ?? "")
                    if result.isClean {
                        text.set(&merged, result.text.isEmpty && (ours == nil || theirs == nil) ? nil : result.text)
                        mergedTexts.append(field)
                        continue
                    }
                }
                if unseen(field.name) && field.copies && clash == nil { clash = field.name }
            }
            field.take(&merged, incoming)
        }
        merged.revision = max(logVersion.revision, incoming.revision)
        merged.dated(like: incoming)
        if !mergedTexts.isEmpty, (try? merged.check()) == nil {
            // Merged, a text breaks its rules (too long, say): the later stands, and a copy keeps the other.
            for field in mergedTexts { field.take(&merged, incoming) }
            if clash == nil { clash = mergedTexts.first { $0.copies }?.name }
        }
        return (merged, clash)
    }

    /// Whether this device's entity follows the log's version: it has none of its own still unseen by the log.
    private func follows(_ domain: ChangeDomain, _ id: String, awaiting: Int64?, pushed: Int64) throws -> Bool {
        guard awaiting == nil else { return false }
        return try pendingOfEntity.integer([.integer(pushed), .text(domain.rawValue), .text(id), .integer(localThrough)])
            == nil
    }

    /// Keeps `version` as an entity of its own, marked as a conflict copy with where and when it was written
    /// ("Shopping — laptop, 27 Nov 19:20"; a second copy of the same entity, " (2)", and so on). It is made
    /// from the log alone (its id from the entity's and the overwritten row's, its times the version's, the
    /// name the device gave itself in its rows), so every device that applies the clash makes the same copy,
    /// once; each sends it too (``applyInTransaction``), for the devices that will not see the clash. From
    /// then on it is an entity like any other.
    private func keepCopy<D: SyncDomain>(
        _ kind: D, of version: D.Version, writtenBy device: String, overwrittenAt seq: Int64, pushed: Int64,
        images: SyncImages, summary: inout PullSummary
    ) throws {
        let id = "\(version.id)-conflict-\(seq)"
        guard try entity(kind.logDomain, id).known == 0 else { return }
        let name = try stampCodec.name(ofDevice: device) ?? (device.isEmpty ? "another device" : "device " + device.prefix(8))
        var label = name
        if let at = version.changedAt.flatMap(Timestamp.parse) { label += ", " + DisplayDate.short(milliseconds: at, in: zone) }
        let earlier = try countCopies.integer([.text(kind.logDomain), .text(version.id + "-conflict-"), .text(version.id + "-conflict.")]) ?? 0
        if earlier > 0 { label += " (\(earlier + 1))" }
        var copy = version.markedAsConflict(label)
        copy.id = id
        copy.revision = 1
        var stamps: [String: FieldStamp] = [:]
        for field in D.Version.fields { stamps[field.name] = FieldStamp(seq: seq, device: "") }
        try save(kind.logDomain, copy.id, Entity(known: seq, awaiting: nil, state: try copy.encoded(), stamps: stamps))
        if try follows(kind.domain, copy.id, awaiting: nil, pushed: pushed) {
            _ = try kind.write(copy.id, copy, images: images)
        }
        summary.copies.append(copy.id)
        summary.copied.append(.init(domain: kind.domain, id: copy.id))
    }
}
