import Protocol

/// A notification the server sends of its own accord, described for `rpc.discover` (`x-notifications`)
/// beside the code that writes it.
struct ServerNotification {
    let name: String
    let summary: String
    let params: [ParamSpec]

    /// Every one: live changes (``ChangeNotifier``) and progress (``ProgressReporter``).
    static let all = ChangeNotifier.notifications + [ProgressReporter.notification]
}
