// swift-tools-version:6.0
// ocr-cluster: a Swift OCR worker cluster for Linux. Layers, one direction only:
// CZeroMQ/CTesseract/CTIFF/CSQLite -> OCRWire -> OCRTransport, OCRPages -> OCREngine -> OCRCoordinator/OCRWorker -> OCRClient -> executables.
// OCRLog and OCRCommandLine are leaf utilities (logging, option parsing) any layer may use.
import PackageDescription

let package = Package(
    name: "ocr-cluster",
    products: [
        // The API: the client library (which re-exports the wire types it uses) and the wire
        // types themselves. The layers below are `package`: shared by this package's targets.
        .library(name: "OCRClient", targets: ["OCRClient"]),
        .library(name: "OCRWire", targets: ["OCRWire"]),
        .executable(name: "ocr-coordinator", targets: ["ocr-coordinator"]),
        .executable(name: "ocr-worker", targets: ["ocr-worker"]),
        .executable(name: "ocr-submit", targets: ["ocr-submit"]),
        .executable(name: "ocr-bench", targets: ["ocr-bench"]),
    ],
    targets: [
        .systemLibrary(name: "CZeroMQ", pkgConfig: "libzmq", providers: [.apt(["libzmq3-dev"])]),
        .systemLibrary(name: "CTesseract", pkgConfig: "tesseract", providers: [.apt(["libtesseract-dev", "libleptonica-dev"])]),
        .systemLibrary(name: "CTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "OCRLog"),
        .target(name: "OCRCommandLine"),
        .target(name: "OCRWire"),
        .target(name: "OCRTransport", dependencies: ["CZeroMQ", "OCRWire"]),
        .target(name: "OCRPages", dependencies: ["OCRWire", "CTIFF"]),
        .target(name: "OCREngine", dependencies: ["OCRWire", "OCRPages", "CTesseract"]),
        .target(name: "OCRCoordinator", dependencies: ["OCRWire", "OCRTransport", "OCRPages", "OCRLog", "CSQLite"]),
        .target(name: "OCRWorker", dependencies: ["OCRTransport", "OCREngine", "OCRPages", "OCRWire", "OCRLog"]),
        .target(name: "OCRClient", dependencies: ["OCRWire", "OCRTransport"]),
        .target(name: "OCRLocalCluster", dependencies: ["OCRCoordinator", "OCRWorker", "OCRLog"]),
        .executableTarget(name: "ocr-worker", dependencies: ["OCRWorker", "OCREngine", "OCRTransport", "OCRCommandLine", "OCRLog"]),
        .executableTarget(name: "ocr-submit", dependencies: ["OCRClient", "OCRLocalCluster", "OCRWorker", "OCRTransport", "OCRCommandLine", "OCRLog", "OCRWire"]),
        .executableTarget(name: "ocr-coordinator", dependencies: ["OCRCoordinator", "OCRTransport", "OCRCommandLine", "OCRLog"]),
        .executableTarget(name: "ocr-bench", dependencies: ["OCRClient", "OCRTransport", "OCRWire", "OCREngine", "OCRPages"]),
        .executableTarget(name: "ocr-wire-bench", dependencies: ["OCRWire"]),

        .testTarget(name: "OCRWireTests", dependencies: ["OCRWire"]),
        .testTarget(name: "OCRCommandLineTests", dependencies: ["OCRCommandLine", "OCRLog"]),
        .testTarget(name: "OCRTransportTests", dependencies: ["OCRTransport", "OCRWire"]),
        .testTarget(name: "OCREngineTests", dependencies: ["OCREngine", "OCRPages", "OCRWire"]),
        .testTarget(name: "OCRCoordinatorTests", dependencies: ["OCRCoordinator", "OCRPages", "OCRClient", "OCRTransport", "OCRLog"]),
        .testTarget(name: "OCRWorkerTests", dependencies: ["OCRWorker", "OCREngine", "OCRTransport", "OCRWire", "OCRLog"]),
        .testTarget(name: "ClusterTests", dependencies: ["OCRClient", "OCREngine", "OCRPages", "OCRWire"],
                    exclude: ["python_client.py", "python_worker.py"]),
        .testTarget(name: "OCRClientTests", dependencies: ["OCRClient", "OCRWire"]),
        // The README's examples, compiled against OCRClient alone.
        .testTarget(name: "ReadmeExamplesTests", dependencies: ["OCRClient"]),
    ],
    swiftLanguageModes: [.v6]
)
