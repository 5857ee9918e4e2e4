// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Satchel",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "satchel", targets: ["SatchelCommand"]),
        .executable(name: "satchel-bench", targets: ["Benchmarks"]),
        .library(name: "SatchelKit", targets: ["SatchelKit"]),
        .executable(name: "satchel-kit-generate", targets: ["SatchelKitGenerator"]),
        .executable(name: "satchel-kit-example", targets: ["SatchelKitExample"]),
    ],
    targets: [
        // SQLite's declarations (Debian's libsqlite3-dev); the Domain target says how it is linked.
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        // The image libraries' declarations (Debian's -dev packages); the Imaging target says how they are linked.
        .systemLibrary(name: "CTurboJPEG", providers: [.apt(["libturbojpeg0-dev"]), .brew(["jpeg-turbo"])]),
        .systemLibrary(name: "CPNG", providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .systemLibrary(name: "CWebP", providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
        // libheif's declarations only (Debian's libheif-dev): satchel loads the library itself, on the first
        // HEIF photo (see Imaging/HEIF.swift), so that starting satchel does not load it and its decoders.
        .systemLibrary(name: "CHEIF", providers: [.apt(["libheif-dev"]), .brew(["libheif"])]),
        // libcurl's declarations only (Debian's libcurl4-openssl-dev): loaded on the first request to an HTTP
        // message feed (see Domain/Messages/HTTPMessageFeed.swift).
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        // libpq's declarations only (Debian's libpq-dev): loaded when satchel first talks to PostgreSQL
        // (see Sync/LibPQ.swift).
        .systemLibrary(name: "CLibPQ", providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        // libsodium's declarations only (Debian's libsodium-dev): loaded when sync first seals or opens an
        // encrypted account's rows (see Sync/LibSodium.swift).
        .systemLibrary(name: "CSodium", providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]),
        .target(name: "Protocol"),
        // Decoding, scaling and encoding photos: the only target that links the image libraries, into a
        // release build on Linux from Debian's archives (as SQLite, below), shared elsewhere.
        .target(
            name: "Imaging", dependencies: ["CTurboJPEG", "CPNG", "CWebP", "CHEIF"],
            linkerSettings: [
                .linkedLibrary("turbojpeg", .when(platforms: [.macOS])),
                .linkedLibrary("png16", .when(platforms: [.macOS])),
                .linkedLibrary("webpdemux", .when(platforms: [.macOS])),
                .linkedLibrary("webp", .when(platforms: [.macOS])),
                .linkedLibrary("turbojpeg", .when(platforms: [.linux], configuration: .debug)),
                .linkedLibrary("png16", .when(platforms: [.linux], configuration: .debug)),
                .linkedLibrary("webpdemux", .when(platforms: [.linux], configuration: .debug)),
                .linkedLibrary("webp", .when(platforms: [.linux], configuration: .debug)),
                .unsafeFlags(
                    ["-Xlinker", "-l:libturbojpeg.a", "-Xlinker", "-l:libpng16.a", "-Xlinker", "-l:libz.a",
                     "-Xlinker", "-l:libwebpdemux.a", "-Xlinker", "-l:libwebp.a"],
                    .when(platforms: [.linux], configuration: .release)),
            ]),
        // SQLite is linked into a release satchel on Linux (Debian's libsqlite3.a): loading the shared library
        // cost every start about 1 M instructions of its 8 M (BENCHMARKS.md, start-up). Shared elsewhere.
        .target(
            name: "Domain", dependencies: ["CSQLite", "CCurl", "Imaging"],
            linkerSettings: [
                .linkedLibrary("sqlite3", .when(platforms: [.macOS])),
                .linkedLibrary("sqlite3", .when(platforms: [.linux], configuration: .debug)),
                .unsafeFlags(["-Xlinker", "-l:libsqlite3.a"], .when(platforms: [.linux], configuration: .release)),
            ]),
        // Sync with PostgreSQL: the only target that uses libpq and libsodium.
        .target(name: "Sync", dependencies: ["Domain", "CLibPQ", "CSodium"]),
        // A release satchel carries the Swift runtime and Foundation Essentials in itself: binding their
        // symbols at every start cost more than all the rest of starting (BENCHMARKS.md, start-up). As a
        // linker flag, -static-stdlib leaves out the two C libraries Foundation Essentials' archive needs
        // (`swift build --static-swift-stdlib` names them the same way). The C++ library the runtime needs
        // is linked in too: link/libstdc++.so, a linker script, sends the driver's -lstdc++ to the archive.
        // The server as a library: the command line serves it on stdio, SatchelKit inside an app.
        .target(name: "RPCServer", dependencies: ["Protocol", "Domain", "Sync"]),
        .executableTarget(
            name: "SatchelCommand", dependencies: ["RPCServer"],
            linkerSettings: [
                .unsafeFlags(
                    ["-static-stdlib", "-L", Context.packageDirectory + "/link"],
                    .when(platforms: [.linux], configuration: .release)),
                .linkedLibrary("_FoundationCShims", .when(platforms: [.linux], configuration: .release)),
                .linkedLibrary("_FoundationCollections", .when(platforms: [.linux], configuration: .release)),
            ]),
        .executableTarget(name: "Benchmarks", dependencies: ["Protocol", "Imaging", "Domain", "SatchelKit"]),
        // The apps' own platform embeds Satchel through SatchelKit (its typed API generated from rpc.discover
        // by satchel-kit-generate).
        .target(name: "SatchelKit", dependencies: ["RPCServer"]),
        .executableTarget(name: "SatchelKitGenerator"),
        .executableTarget(name: "SatchelKitExample", dependencies: ["SatchelKit"]),
        .testTarget(name: "SatchelKitTests", dependencies: ["SatchelKit", "Imaging"]),
        .testTarget(name: "ProtocolTests", dependencies: ["Protocol"]),
        .testTarget(
            name: "ImagingTests", dependencies: ["Imaging", "CTurboJPEG", "CPNG", "CWebP", "CHEIF"],
            linkerSettings: [.linkedLibrary("heif")]),
        .testTarget(name: "DomainTests", dependencies: ["Domain"], exclude: ["Fixtures"]),
        .testTarget(
            name: "ServerTests", dependencies: ["RPCServer", "Protocol", "Domain", "Imaging", "Sync"], exclude: ["Support"]),
    ]
)

// The same strict settings for every target: Swift 6 language mode (complete concurrency checking)
// plus a few upcoming features that keep the code honest.
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    if target.type != .test {
        settings.append(.unsafeFlags(["-warnings-as-errors"], .when(configuration: .debug)))
        // Debug builds (and so every test) check exclusive access at run time; release builds rely on the
        // compiler's static checks: the run-time ones cost a request about 7 % (BENCHMARKS.md, start-up).
        settings.append(.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)))
    }
    target.swiftSettings = settings
}
