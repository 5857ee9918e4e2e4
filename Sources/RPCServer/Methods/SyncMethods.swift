import Domain
import Protocol
import Sync

/// Sync with PostgreSQL (SPEC §14): what the device's link knows.
enum SyncMethods {
    static let statusSchema = Schema.object(
        [
            ("enabled", Schema.boolean), ("connected", Schema.boolean),
            ("pending", Schema.integer(minimum: 0, description: "local changes not yet in PostgreSQL")),
            ("account", Schema.nullable(Schema.string(description: "the PostgreSQL role: the account"))),
            ("server", Schema.nullable(Schema.string(description: "role@host/database, without the password"))),
            ("device", Schema.nullable(Schema.string(description: "this database's device id, made once"))),
            ("deviceName", Schema.string(description: "this device's name, as conflict copies made elsewhere say where their version was written")),
            (
                "encryption",
                Schema.enumeration(
                    ["off", "on", "locked", "unknown"],
                    description: "end-to-end encryption of the account's private apps: off (none), on (unlocked here), locked (the account is encrypted; this device has not unlocked it), unknown (PostgreSQL not reached yet)")
            ),
            ("schema", Schema.enumeration(["off", "unknown", "ok", "missing", "older", "newer"])),
            ("lastSuccess", Schema.nullable(Schema.timestamp)),
            ("lastError", Schema.nullable(Schema.string(description: "what went wrong last, in words"))),
            (
                "state",
                Schema.enumeration(
                    ["off", "synced", "syncing", "offline", "locked", "error"],
                    description:
                        "synced; syncing (progress says how far a pull is); offline (PostgreSQL cannot be reached: tried again by itself); locked (the account's private apps are encrypted: sync.unlock with the passphrase); error (reason: what will not fix itself)")
            ),
            (
                "reason",
                Schema.nullable(
                    Schema.enumeration(
                        SyncService.Problem.allCases.map(\.rawValue), description: "what stops sync, when state is error"))
            ),
            (
                "progress",
                Schema.nullable(
                    Schema.object(
                        [("pulled", Schema.integer(minimum: 0)), ("total", Schema.integer(minimum: 0))],
                        required: ["pulled", "total"]))
            ),
            (
                "skipped",
                Schema.object(
                    [
                        ("count", Schema.integer(minimum: 0, description: "rows skipped in all")),
                        (
                            "recent",
                            Schema.array(
                                of: Schema.object(
                                    [
                                        ("row", Schema.nullable(Schema.integer(minimum: 1, description: "the shared log's row; null: a change of this device's that PostgreSQL refused"))),
                                        ("domain", Schema.string()), ("entity", Schema.string()),
                                        ("reason", Schema.string(description: "why, in words")), ("at", Schema.timestamp),
                                    ], required: ["row", "domain", "entity", "reason", "at"]))
                        ),
                    ], required: ["count", "recent"])
            ),
        ],
        required: [
            "enabled", "connected", "pending", "account", "server", "device", "deviceName", "encryption", "schema", "lastSuccess",
            "lastError", "state",
            "reason", "progress", "skipped",
        ])

    /// Change-log entries pushed, and shared-log rows pulled, in one round at most.
    static let batch = 1000

    static let nowSchema = Schema.object(
        [
            ("pushed", Schema.integer(minimum: 0)), ("pulled", Schema.integer(minimum: 0)),
            ("conflicts", Schema.integer(minimum: 0, description: "local versions kept as conflict copies")),
            ("pending", Schema.integer(minimum: 0)),
        ], required: ["pushed", "pulled", "conflicts", "pending"])

    /// What one `sync.now` (or a round the server starts itself) did, over all its rounds, and what its
    /// next round carries: images to upload, images to fetch (and those fetched, not yet stored).
    final class Totals {
        var pushed = 0
        var pulled = 0
        var conflicts = 0
        /// The last round reached PostgreSQL and was applied.
        var finished = false
        var upload: [String] = []
        var fetch: [String] = []
        var fetched: [String: PreparedImage] = [:]
        /// Images asked of PostgreSQL once: a row showing one it does not have is skipped, not asked again.
        var tried: Set<String> = []
        /// Rows of the log looked at, and those there were to pull when the pull started (asked once).
        var looked: Int64 = 0
        var remaining: Int64?
    }

    /// What a round's network part takes.
    struct Load: Sendable {
        var rows: [PushRow]
        var through: Int64
        var held: [Int64]
        var cursor: String
        var uploads: [(sha256: String, bytes: [UInt8])]
        var fetch: [String]
        var maximumImageBytes: Int
        var countRemaining: Bool
    }

    /// Keeps in the device's database a key unwrapped (or made) on a waiting thread; answers whether there
    /// was one.
    @discardableResult
    static func keepUnsavedKey(store: DataStore, service: SyncService) throws -> Bool {
        guard let (key, made) = service.takeUnsavedKey() else { return false }
        try store.sync.setSealingKey(key, restate: made)
        return true
    }

    /// A round of sync as network steps: what to push read on the loop thread, the push and the pull on a
    /// waiting thread (images fetched are checked and made ready there too), what was pulled applied on
    /// the loop thread. Runs again (`Again`) while there is more, or images to upload or fetch first.
    static func round(
        store: DataStore, service: SyncService, logger: Logger, session: Session?, totals: Totals = Totals()
    ) -> NetworkSteps {
        NetworkSteps(
            start: { () throws -> Load in
                // Unlocked (or encryption turned on) on a waiting thread: the key is kept here. Not locked,
                // what was held back while locked goes now. (Before PostgreSQL says whether the account is
                // encrypted, nothing is held: PostgreSQL refuses an unsealed private row of an encrypted
                // account, and the round goes again knowing.)
                try keepUnsavedKey(store: store, service: service)
                let locked = service.encryption == .locked
                if !locked { try store.sync.releaseHeld() }
                let (rows, through, held) = try store.sync.pushBatch(limit: batch, holdingPrivate: locked)
                return Load(
                    rows: rows, through: through, held: held, cursor: try store.sync.cursor(),
                    uploads: totals.upload.isEmpty ? [] : try store.sync.imageBytes(totals.upload), fetch: totals.fetch,
                    maximumImageBytes: store.images.maximumBytes, countRemaining: totals.remaining == nil)
            },
            wait: { load, _ throws(DomainError) -> (SyncService.Pulled, [String: PreparedImage]) in
                let pulled = try service.exchange(
                    load.rows, uploads: load.uploads, fetch: load.fetch, cursor: load.cursor, limit: batch,
                    countRemaining: load.countRemaining)
                var prepared: [String: PreparedImage] = [:]
                for (sha256, bytes) in pulled.fetched {
                    // Bytes that are not the image asked for, or no image, are left out (the row is skipped).
                    guard let image = try? ImageStore.prepare(bytes: bytes, maximumBytes: load.maximumImageBytes),
                        case .new(_, _, _, _, sha256, _) = image
                    else { continue }
                    prepared[sha256] = image
                }
                return (pulled, prepared)
            },
            finish: { load, outcome in
                let (pulled, prepared) = outcome
                totals.tried.formUnion(load.fetch)
                totals.fetched.merge(prepared) { $1 }
                totals.fetch = []
                if !pulled.needUpload.isEmpty {
                    if pulled.needUpload.allSatisfy(load.uploads.map(\.sha256).contains) {
                        throw DomainError.upstreamUnavailable(
                            reason: .syncUnreachable, detail: "images uploaded did not reach PostgreSQL")
                    }
                    totals.upload = pulled.needUpload
                    throw NetworkSteps.Again()
                }
                totals.upload = []
                if let refused = pulled.refused {
                    // PostgreSQL's rules refuse one of this device's changes: it stays here, unsynced, and
                    // the rest go out.
                    let row = load.rows[min(max(refused.index, 0), load.rows.count - 1)]
                    logger.warn("sync: PostgreSQL refused \(row.domain) \(row.entity): \(refused.reason)")
                    try store.sync.refused(row, reason: refused.reason)
                    throw NetworkSteps.Again()
                }
                if pulled.again { throw NetworkSteps.Again() }
                try store.sync.pushed(load.rows, through: load.through, held: load.held)
                let summary = try store.sync.apply(pulled.rows, fetched: totals.fetched, tried: totals.tried)
                totals.fetched = [:]
                for reason in summary.skipped { logger.warn("sync: skipped \(reason)") }
                totals.pushed += load.rows.count
                totals.pulled += summary.applied
                totals.conflicts += summary.copies.count
                let pending = try store.sync.pending()
                // Progress: entries pushed and rows of the log looked at, of those there were to pull.
                if load.countRemaining { totals.remaining = pulled.remaining ?? Int64(pulled.rows.count) }
                totals.looked += Int64(pulled.rows.count)
                let total = max(totals.looked, totals.remaining ?? 0)
                service.report(progress: pulled.more ? (totals.looked, total) : nil)
                let done = totals.pushed + Int(totals.looked)
                session?.report(done, total: max(done, totals.pushed + pending + Int(total)), message: "\(pending) to push")
                if !summary.missingImages.isEmpty {
                    totals.fetch = summary.missingImages
                    throw NetworkSteps.Again()
                }
                // Encryption turned on here (by this round too): once caught up, what the account has goes
                // out again, sealed.
                try keepUnsavedKey(store: store, service: service)
                if !pulled.more, service.encryption == .on, try store.sync.restate() > 0 { throw NetworkSteps.Again() }
                // Again while there is more, or what this round pushed or made (a conflict copy goes out
                // too) left more to push.
                if pulled.more || ((!load.rows.isEmpty || !summary.copies.isEmpty) && pending > 0) { throw NetworkSteps.Again() }
                totals.finished = true
                return [
                    "pushed": .integer(Int64(totals.pushed)), "pulled": .integer(Int64(totals.pulled)),
                    "conflicts": .integer(Int64(totals.conflicts)), "pending": .integer(Int64(pending)),
                ]
            })
    }

    static let mergeSchema = Schema.object(
        [
            ("text", Schema.string(description: "the merged text")),
            ("clean", Schema.boolean),
            ("clashes", Schema.integer(minimum: 0, description: "places where both changed the same words differently")),
            (
                "segments",
                Schema.array(
                    of: Schema.object(
                        [
                            ("text", Schema.string()),
                            ("from", Schema.enumeration(["base", "ours", "theirs", "both"], description: "unchanged, changed on one side, or alike on both")),
                        ], required: ["text", "from"]))
            ),
        ], required: ["text", "clean", "clashes", "segments"])

    static func methods(store: DataStore, service: SyncService?, logger: Logger) -> [RPCMethod] {
        let deviceName = Required.string("name", Schema.string(), "The device's name, 1 to 64 characters.")
        let passphrase = Required.string("passphrase", Schema.string(minLength: 1), "The account's passphrase.")
        let newPassphrase = Required.string("newPassphrase", Schema.string(minLength: 8), "The new passphrase, 8 characters at least.")
        let base = Required.string("base", Schema.string(), "The text both edits started from.")
        let ours = Required.string("ours", Schema.string(), "One edit (the earlier, or the one being typed).")
        let theirs = Required.string("theirs", Schema.string(), "The other edit (the later, or the one from elsewhere).")
        return [
            RPCMethod(
                "sync.status", title: "Sync status",
                summary: "How sync stands (state: synced, syncing with progress, offline, or error with its reason), how many local changes wait to go out, the rows skipped as breaking a rule; the last success and the last error in words.",
                result: statusSchema
            ) { _, _ in
                guard let service else {
                    return [
                        "enabled": false, "connected": false, "pending": 0, "account": .null, "server": .null,
                        "device": .null, "deviceName": .string(try store.sync.deviceName()), "encryption": "off", "schema": "off", "lastSuccess": .null, "lastError": .null, "state": "off",
                        "reason": .null, "progress": .null, "skipped": ["count": 0, "recent": []],
                    ]
                }
                let status = service.status
                let pending = try store.sync.pending()
                let state: String =
                    status.problem != nil ? "error" : !status.connected ? "offline"
                    : service.encryption == .locked ? "locked"
                    : status.progress != nil || pending > 0 ? "syncing" : "synced"
                let skipped = try store.sync.skippedRows()
                let recent: [JSONValue] = skipped.recent.map { row in
                    [
                        "row": row.row.map { .integer($0) } ?? .null, "domain": .string(row.domain),
                        "entity": .string(row.entity), "reason": .string(row.reason),
                        "at": .string(Timestamp.format(milliseconds: row.at)),
                    ]
                }
                return [
                    "state": .string(state), "reason": status.problem.map { .string($0.rawValue) } ?? .null,
                    "progress": status.progress.map { ["pulled": .integer($0.pulled), "total": .integer($0.total)] } ?? .null,
                    "skipped": ["count": .integer(Int64(skipped.count)), "recent": .array(recent)],
                    "enabled": true, "connected": .bool(status.connected),
                    "pending": .integer(Int64(pending)),
                    "account": service.target.user.map { .string($0) } ?? .null,
                    "server": .string(service.target.description), "device": .string(service.device),
                    "deviceName": .string(try store.sync.deviceName()), "encryption": .string(service.encryption.rawValue),
                    "schema": .string(status.schema.rawValue),
                    "lastSuccess": status.lastSuccess.map { .string(Timestamp.format(milliseconds: $0)) } ?? .null,
                    "lastError": status.lastError.map { .string($0) } ?? .null,
                ]
            },
            RPCMethod(
                "sync.setDeviceName", title: "Name this device",
                summary: "Names this device (1 to 64 characters): a conflict copy made on any device says where its version was written by this name. Returns {deviceName}; -32002 emptyName or nameTooLong.",
                params: [deviceName.spec],
                result: Schema.object([("deviceName", Schema.string())], required: ["deviceName"])
            ) { params, _ in
                try store.sync.setDeviceName(params[deviceName])
                return ["deviceName": .string(try store.sync.deviceName())]
            },
            RPCMethod.waitingOnNetwork(
                "sync.unlock", title: "Unlock encrypted sync",
                summary: "Unlocks the account's end-to-end encrypted apps on this device with its passphrase (asked once: the key is kept in this database); an account without encryption turns it on with it (8 characters at least: -32002 passphraseTooShort). Losing the passphrase loses the synced copy, not this device's data. -32002 wrongPassphrase when it does not unlock them.",
                params: [passphrase.spec],
                result: Schema.object([("encryption", Schema.enumeration(["on"]))], required: ["encryption"])
            ) { params, _ in
                guard let service else { throw DomainError.upstreamUnavailable(reason: .syncOff) }
                let given = params[passphrase]
                return NetworkSteps(
                    start: { () },
                    wait: { _, _ throws(DomainError) in try service.unlock(passphrase: given) },
                    finish: { _, encryption in
                        if encryption == .off {
                            throw DomainError.validation(
                                reason: .passphraseTooShort, field: "passphrase", limit: Int64(SyncService.leastPassphrase))
                        }
                        guard encryption == .on else { throw DomainError.validation(reason: .wrongPassphrase, field: "passphrase") }
                        if try keepUnsavedKey(store: store, service: service) { try store.sync.releaseHeld() }
                        service.wakeSoon()
                        return ["encryption": "on"]
                    })
            }.raising(.upstreamUnavailable),
            RPCMethod.waitingOnNetwork(
                "sync.changePassphrase", title: "Change the sync passphrase",
                summary: "Changes the passphrase of the account's encrypted apps: its key is wrapped anew, nothing is encrypted again; every device keeps working, and a new one unlocks with the new passphrase. -32002 wrongPassphrase when passphrase is not the current one.",
                params: [passphrase.spec, newPassphrase.spec],
                result: Schema.object([("changed", Schema.boolean)], required: ["changed"])
            ) { params, _ in
                guard let service else { throw DomainError.upstreamUnavailable(reason: .syncOff) }
                let (current, new) = (params[passphrase], params[newPassphrase])
                return NetworkSteps(
                    start: { () },
                    wait: { _, _ throws(DomainError) in try service.changePassphrase(current: current, new: new) },
                    finish: { _, changed in
                        guard changed else { throw DomainError.validation(reason: .wrongPassphrase, field: "passphrase") }
                        return ["changed": true]
                    })
            }.raising(.upstreamUnavailable),
            RPCMethod(
                "text.merge", title: "Merge two edits of a text",
                summary: "Merges two edits of one text three-way, as sync does: both kept where they change different words; clean false where both changed the same words (theirs stands there). Returns {text, clean, clashes, segments}: the segments say where each part came from.",
                params: [base.spec, ours.spec, theirs.spec],
                result: mergeSchema
            ) { params, _ in
                for param in [base, ours, theirs] {
                    try TextMerge.check(params[param], field: param.spec.name)
                }
                let merged = TextMerge.merge(base: params[base], ours: params[ours], theirs: params[theirs])
                return [
                    "text": .string(merged.text), "clean": .bool(merged.isClean), "clashes": .integer(Int64(merged.clashes)),
                    "segments": .array(merged.segments.map { ["text": .string($0.text), "from": .string($0.origin.rawValue)] }),
                ]
            },
            RPCMethod.waitingOnNetwork(
                "sync.now", title: "Sync now",
                summary: "Pushes every local change and pulls every other device's, then answers what it did, {pushed, pulled, conflicts, pending} (with progress when asked). Answered when PostgreSQL answers; -32004 when it cannot be reached (nothing is lost: it goes out later).",
                result: nowSchema
            ) { _, session in
                guard let service else { throw DomainError.upstreamUnavailable(reason: .syncOff) }
                return round(store: store, service: service, logger: logger, session: session)
            }.raising(.upstreamUnavailable),
        ]
    }
}
