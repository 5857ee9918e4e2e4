import Sync

/// `satchel sync-setup URL` (SPEC §14): makes or migrates the PostgreSQL schema and says what it did, one
/// line on stdout; a failure is one line on stderr (never with a password) and exit code 1.
enum SyncSetupCommand {
    static func run(url: String, output: ProtocolOutput) -> Int32 {
        let target: PGTarget
        switch PGTarget.parse(url) {
        case .success(let parsed): target = parsed
        case .failure(let error):
            Logger.writeLine("satchel sync-setup: not a PostgreSQL connection URI: \(error.message)")
            return 2
        }
        do {
            let connection = try PGConnection(url)
            let said: String
            switch try SyncSchema.setUp(connection) {
            case .created(let version): said = "created the sync schema (version \(version))"
            case .migrated(let from, let to): said = "migrated the sync schema from version \(from) to \(to)"
            case .upToDate(let version): said = "the sync schema is up to date (version \(version))"
            }
            _ = output.write(Array("satchel sync-setup: \(said) in \(target), owned by \(connection.user)\n".utf8))
            return 0
        } catch {
            Logger.writeLine("satchel sync-setup: \(target): \(error.message)")
            return 1
        }
    }
}
