#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One local change on its way to PostgreSQL: the entity's state now (or its deletion), numbered by the
/// change-log entry that sent it, so pushing it again adds nothing twice; `base`, the row of the shared log
/// its version here stood on; `fields`, the fields it changed since that version (all, for a new entity).
public struct PushRow: Sendable, Equatable {
    public var deviceSeq: Int64
    public var domain: String
    public var entity: String
    /// `put` or `delete`.
    public var op: String
    /// The entity's version (JSON), for `put`.
    public var body: String?
    public var base: Int64?
    public var fields: [String]?
    /// The images the version shows, by content (SHA-256): in PostgreSQL before the row is.
    public var images: [String] = []
}

/// One row of the shared log, as a pull brings it.
public struct PulledRow: Sendable, Equatable {
    public var seq: Int64
    /// The device that pushed it.
    public var device: String
    /// The account (PostgreSQL role) that pushed it.
    public var account: String
    /// Pushed by this device (`deviceSeq`: its change-log entry).
    public var own: Bool
    public var deviceSeq: Int64
    public var domain: String
    public var entity: String
    public var op: String
    public var body: String?
    public var base: Int64?
    /// The fields it changed since `base` (`nil`: every field, as rows from before fields were kept).
    public var fields: [String]?
    /// The size of its body in PostgreSQL, in bytes (a body over the cap comes without its text).
    public var bytes: Int
    /// Why it cannot be applied, found before it reached the model (a sealed body that does not open): it
    /// is skipped with this reason.
    public var fault: String?

    public init(
        seq: Int64, device: String, account: String = "", own: Bool, deviceSeq: Int64, domain: String, entity: String, op: String,
        body: String?, base: Int64?, fields: [String]? = nil, bytes: Int? = nil
    ) {
        self.bytes = bytes ?? body?.utf8.count ?? 0
        self.seq = seq
        self.device = device
        self.account = account
        self.own = own
        self.deviceSeq = deviceSeq
        self.domain = domain
        self.entity = entity
        self.op = op
        self.body = body
        self.base = base
        self.fields = fields
    }
}

/// What applying a pull did.
public struct PullSummary: Sendable, Equatable {
    public var applied = 0
    /// Versions kept beside the one in place as conflict copies (their ids).
    public var copies: [String] = []
    /// The same, with the app each is in.
    var copied: [CopyMade] = []

    struct CopyMade: Sendable, Equatable {
        var domain: ChangeDomain
        var id: String
    }
    /// Rows that break a rule (the reason of each, for the log): skipped, never a crash.
    public var skipped: [String] = []
    /// Images (SHA-256) the next rows show that are neither here nor fetched: the pull stopped before the
    /// first row that needs one, and goes on once they are fetched.
    public var missingImages: [String] = []
}
