// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Satchel",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "satchel", targets: ["RPCServer"]),
        .executable(name: "satchel-bench", targets: ["Benchmarks"]),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "Protocol"),
        .target(name: "Domain", dependencies: ["CSQLite"]),
        .executableTarget(name: "RPCServer", dependencies: ["Protocol", "Domain"]),
        .executableTarget(name: "Benchmarks", dependencies: ["Protocol"]),
        .testTarget(name: "ProtocolTests", dependencies: ["Protocol"]),
        .testTarget(name: "DomainTests", dependencies: ["Domain"], exclude: ["Fixtures"]),
        .testTarget(name: "ServerTests", dependencies: ["RPCServer", "Protocol", "Domain"], exclude: ["Support"]),
    ]
)

// The same strict settings for every target: Swift 6 language mode (complete concurrency checking)
// plus a few upcoming features that keep the code honest.
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    if target.type != .test {
        settings.append(.unsafeFlags(["-warnings-as-errors"], .when(configuration: .debug)))
    }
    target.swiftSettings = settings
}
