#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a row of one account's own apps says of the edit it makes, beside the entity's version in its body
/// (under `"sync"`): the name of the device that made it (a conflict copy says where the version it keeps
/// was written), and, for each text a person writes that it changed, what that text was in the version the
/// edit stood on, as a patch against the text now (``TextPatch``): what merging it with an edit made apart
/// needs. Every device reads the same row, so every device merges alike; the patches are within the row's
/// byte cap, and go with the row.
struct SyncEdit: Codable, Equatable {
    var by: String?
    var was: [String: TextPatch]?

    /// A device's name at most, in characters (a longer one is cut).
    static let maximumNameLength = 64
    /// The patches of one row at most, in bytes: past them a text is sent without its base (an edit made
    /// apart from it then clashes: a copy keeps it).
    static let maximumPatchBytes = 1 << 20

    /// A row's body read once: the version, and the edit beside it (none when it says none, or says it in
    /// a form no device writes).
    struct Edited<Version: Decodable>: Decodable {
        var version: Version
        var edit: SyncEdit

        private enum Keys: String, CodingKey { case sync }

        init(from decoder: any Decoder) throws {
            version = try Version(from: decoder)
            let found = (try? decoder.container(keyedBy: Keys.self).decodeIfPresent(SyncEdit.self, forKey: .sync)) ?? nil
            edit = SyncEdit(by: found?.by.map { String($0.prefix(SyncEdit.maximumNameLength)) }, was: found?.was)
        }
    }

    init(by: String?, was: [String: TextPatch]? = nil) {
        self.by = by
        self.was = was
    }

    /// The edit that makes `version` of `base` (the log's version it stands on): the bases of the texts it
    /// changed, as many as fit.
    static func of<Version: SyncVersion>(_ version: Version, over base: Version?, by device: String) -> SyncEdit {
        var edit = SyncEdit(by: device)
        guard let base else { return edit }
        var patches: [String: TextPatch] = [:]
        var bytes = 0
        for field in Version.fields where !field.same(version, base) {
            guard let text = field.text else { continue }
            let patch = TextPatch.undoing(text.get(version) ?? "", back: text.get(base) ?? "")
            guard bytes + patch.bytes <= maximumPatchBytes else { continue }
            bytes += patch.bytes
            patches[field.name] = patch
        }
        edit.was = patches.isEmpty ? nil : patches
        return edit
    }

    /// The text `field` had in the version this edit stood on, given the text it has now: `nil` when the
    /// row does not say, or says it with a patch that does not fit the text.
    func base(of field: String, now text: String) -> String? {
        was?[field]?.apply(to: text)
    }

    /// `version`'s JSON with this edit beside it.
    func body<Version: SyncVersion>(_ version: Version) throws -> String {
        let encoded = try version.encoded()
        let edit = String(decoding: try JSONEncoder.sorted.encode(self), as: UTF8.self)
        // A version is a JSON object with an id: the edit goes in as one more key.
        return String(encoded.dropLast()) + ",\"sync\":" + edit + "}"
    }
}

extension DisplayDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `27 Nov 19:20` in a time zone: when a conflict copy's version was written.
    static func short(milliseconds: Int64, in zone: TimeZoneRules) -> String {
        let seconds = Timestamp.floorDivide(milliseconds, 1000).quotient
        let local = seconds + Int64(zone.secondsFromGMT(at: seconds))
        let (days, secondOfDay) = Timestamp.floorDivide(local, 86_400)
        let (_, month, day) = Timestamp.civil(fromDays: days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(day) \(months[Int(month) - 1]) \(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60))"
    }
}
