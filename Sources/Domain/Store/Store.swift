/// What every store is made with: the connection, the write group its mutations join, the clock, the id
/// generator, the change log each mutation records in and the tables' kept row counts.
struct StoreContext {
    let database: Database
    let group: WriteGroup
    let clock: any Clock
    let ids: any IDGenerator
    let changes: ChangeLog
    let counts: RowCounts
}

/// The base of every store: the ``StoreContext``'s parts as its own. A store adds what is its alone (its
/// statements, each kept beside the method that runs it) and runs each mutation in `group.transaction`.
public class Store {
    let database: Database
    let group: WriteGroup
    let clock: any Clock
    let ids: any IDGenerator
    let changes: ChangeLog
    let counts: RowCounts

    init(_ context: StoreContext) {
        database = context.database
        group = context.group
        clock = context.clock
        ids = context.ids
        changes = context.changes
        counts = context.counts
    }
}
