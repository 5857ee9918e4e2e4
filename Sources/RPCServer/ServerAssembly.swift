import Domain
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Protocol
import Sync

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A server made from its configuration: the database, sync, every method, the session and its
/// dispatcher. The command line (``SatchelCommandLine``) serves it on stdio; ``InProcessServer`` on a
/// thread of an app's own.
struct ServerAssembly {
    let store: DataStore
    let dispatcher: RequestDispatcher
    let driver: SyncDriver?
    let logger: Logger

    /// Why a configuration cannot be served, as the command line says it.
    struct Failure: Error {
        let message: String
    }

    init(_ configuration: ServerConfiguration, debugStrayOutput: Bool = false) throws(Failure) {
        let logger = Logger(level: configuration.logLevel)
        let store: DataStore
        do {
            store = try DataStore(path: configuration.databasePath, settings: configuration.domainSettings)
        } catch {
            let detail: String
            if case .storage(_, let text) = error { detail = text } else { detail = "\(error)" }
            throw Failure(message: "cannot use the database \(configuration.database.description): \(detail)")
        }

        if configuration.demo {
            do {
                if try DemoData.fillIfEmpty(store) {
                    logger.info("--demo: sample data added")
                } else {
                    Logger.writeLine("satchel: --demo: the database already holds data; nothing was added")
                }
            } catch {
                throw Failure(message: "--demo: could not add the sample data: \(error)")
            }
        }

        store.sync.zone = configuration.timeZone
        var sync: SyncService? = nil
        if let url = configuration.syncURL {
            do {
                let service = try SyncService(url: url, device: try store.sync.deviceID())
                store.sync.account = service.account
                // The key of the account's encrypted apps, once unlocked here; the environment's passphrase
                // (scripts and harnesses) unlocks them when the link first connects.
                service.prepareSealing(
                    key: try store.sync.sealingKey(),
                    passphrase: ProcessInfo.processInfo.environment["SATCHEL_SYNC_PASSPHRASE"])
                service.start()
                sync = service
            } catch {
                throw Failure(message: "--sync: \(error)")
            }
        }

        var registry = MethodRegistry()
        registry.register(
            ServerMethods.methods(configuration: configuration, store: store, debugStrayOutput: debugStrayOutput))
        registry.register(MCPProtocol.discover)
        // The apps' methods: each reads or writes the database, under the model's rules.
        let apps = [
            NoteMethods.methods(store: store), PhotoMethods.methods(store: store), ReminderMethods.methods(store: store),
            DiaryMethods.methods(store: store), MessageMethods.methods(store: store), BoardMethods.methods(store: store),
            ChangeMethods.methods(store: store),
            ExchangeMethods.methods(store: store, maximumMessageBytes: configuration.maximumMessageBytes),
            SearchMethods.methods(store: store), SyncMethods.methods(store: store, service: sync, logger: logger),
        ]
        for group in apps { registry.register(group.map { $0.raising(.validationFailed, .storageFailure) }) }
        MCPTools.register(into: &registry, logger: logger)
        OpenRPCDocument.register(into: &registry)

        let session = Session(
            language: configuration.language, timeZone: configuration.timeZone, editing: store.makeEditingSession(),
            fileAccess: configuration.fileAccess,
            uploads: ImageUploads(
                maximumImageBytes: configuration.maximumImageBytes, maximumMessageBytes: configuration.maximumMessageBytes))
        // Blank reminders left by editors that died (kill -9) go before anyone can see them.
        do { try store.reminders.sweepAbandoned(session: session.editing) } catch {
            logger.warn("could not clean up abandoned reminders: \(error)")
        }
        let dispatcher = RequestDispatcher(
            registry: registry, session: session, logger: logger,
            maximumMessageBytes: configuration.maximumMessageBytes)
        self.store = store
        self.dispatcher = dispatcher
        self.logger = logger
        driver = sync.map { SyncDriver(service: $0, store: store, dispatcher: dispatcher, logger: logger) }
    }
}

/// `satchel` on the command line: protocol messages on stdio until end of input, `exit` or a stop signal.
public enum SatchelCommandLine {
    /// Runs the command `arguments` (without the program's name) asks for; answers its exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        // Before anything can write to stdout, keep the real one for protocol messages only.
        guard let output = ProtocolOutput.takeOverStandardOutput() else {
            Logger.writeLine("satchel: cannot set up stdout")
            return 2
        }

        let request: CommandLineRequest
        do {
            request = try CommandLineOptions.parse(arguments, environment: CommandLineOptions.environment())
        } catch {
            Logger.writeLine("satchel: \(error.message)")
            return 2
        }

        switch request {
        case .help:
            _ = output.write(Array((CommandLineOptions.usage + "\n").utf8))
            return 0
        case .version:
            _ = output.write(Array("satchel \(SatchelVersion.current)\n".utf8))
            return 0
        case .syncSetup(let url):
            return SyncSetupCommand.run(url: url, output: output)
        case .serve(let configuration):
            guard let signals = TerminationSignals.install() else {
                Logger.writeLine("satchel: cannot install signal handlers")
                return 2
            }
            let debugStrayOutput = getenv("SATCHEL_TEST_STRAY_STDOUT").map { String(cString: $0) } == "1"
            if debugStrayOutput { StrayOutput.write("stray output at start-up\n") }
            let server: ServerAssembly
            do {
                server = try ServerAssembly(configuration, debugStrayOutput: debugStrayOutput)
            } catch {
                Logger.writeLine("satchel: \(error.message)")
                return 2
            }
            server.logger.info("serving on stdio; database \(configuration.database.description)")
            ServerLoop.enlargePipes([0, output.descriptor])
            let loop = ServerLoop(
                dispatcher: server.dispatcher, store: server.store, input: .standardInput, output: output,
                signals: signals.descriptor, logger: server.logger, sync: server.driver)
            let code = loop.run()
            server.store.close()
            return code
        }
    }
}
