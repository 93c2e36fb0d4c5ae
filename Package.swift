// swift-tools-version:6.0
// ocr-cluster: a Swift OCR worker cluster for Linux. Layers, one direction only:
// C libraries -> OCRWire -> OCRZeroMQ -> OCRRPC; OCRPDF -> OCRPages, OCRPageModel -> OCRLeptonica -> OCREngine; OCRPageEngine -> OCRWorker and OCREngine;
// then OCRCoordinator, OCRWorker, OCRClient -> executables (docs/architecture.md).
// OCRLog and OCRCommandLine are leaf utilities (logging, option parsing) any layer may use.
import PackageDescription

let package = Package(
    name: "ocr-cluster",
    products: [
        // The API: the client library (which re-exports the wire types it uses) and the wire
        // types themselves. The layers below are `package`: shared by this package's targets.
        .library(name: "OCRClient", targets: ["OCRClient"]),
        // MathSolver: printed arithmetic read by the cluster and computed exactly, over OCRClient.
        .library(name: "OCRMath", targets: ["OCRMath"]),
        .library(name: "OCRWire", targets: ["OCRWire"]),
        .executable(name: "ocr-coordinator", targets: ["ocr-coordinator"]),
        .executable(name: "ocr-worker", targets: ["ocr-worker"]),
        .executable(name: "ocr-submit", targets: ["ocr-submit"]),
        .executable(name: "ocr-bench", targets: ["ocr-bench"]),
    ],
    targets: [
        // No pkgConfig: libzmq.pc adds `-isystem /usr/include/mit-krb5`, which SwiftPM refuses with a
        // warning; zmq.h is in /usr/include and the module map links libzmq.
        .systemLibrary(name: "CZeroMQ", providers: [.apt(["libzmq3-dev"])]),
        .systemLibrary(name: "CLeptonica", pkgConfig: "lept", providers: [.apt(["libleptonica-dev"])]),
        .systemLibrary(name: "CTesseract", pkgConfig: "tesseract", providers: [.apt(["libtesseract-dev"])]),
        .systemLibrary(name: "CTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CQPDF", pkgConfig: "libqpdf", providers: [.apt(["libqpdf-dev"])]),
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        // libpq's one wrapper is the coordinator's PostgreSQL journal (`--journal postgresql://...`).
        .systemLibrary(name: "CPostgreSQL", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "OCRLog"),
        .target(name: "OCRBasics"),
        .target(name: "OCRCommandLine", dependencies: ["OCRBasics", "OCRLog"]),
        .target(name: "OCRWire"),
        // libmicrohttpd's one wrapper: an HTTP/1.1 server, a thread per connection.
        .target(name: "OCRHTTP", dependencies: ["OCRBasics", "CMicroHTTPD"]),
        // libcurl's one wrapper: webhooks, signed and retried on threads of their own.
        .target(name: "OCRWebhook", dependencies: ["OCRBasics", "CCurl", "CSodium"]),
        .target(name: "OCRZeroMQ", dependencies: ["OCRBasics", "CZeroMQ"]),
        // The API's JSON shapes (a job, the cluster's status, a status): one for the HTTP API,
        // webhooks and `ocr-submit --json`.
        .target(name: "OCRAPIJSON", dependencies: ["OCRBasics", "OCRWire"]),
        .target(name: "OCRRPC", dependencies: ["OCRBasics", "OCRZeroMQ", "OCRWire"]),
        // qpdf's one wrapper: reading, cutting and writing PDFs (the coordinator cuts pages, the
        // worker returns them, the client writes searchable PDFs).
        .target(name: "OCRPDF", dependencies: ["OCRWire", "CQPDF"]),
        .target(name: "OCRPages", dependencies: ["OCRBasics", "OCRWire", "OCRPDF", "CTIFF", "CSodium"]),
        // What an engine is to the worker (`PageEngine`, `PageControl`) and the engines that need
        // no OCR library: the worker links no Tesseract through this.
        .target(name: "OCRPageEngine", dependencies: ["OCRBasics", "OCRWire"]),
        // The page as recognition reports it and the pure work over it (geometry, gray-level
        // analysis, word combination, the result's hierarchy): no C library, tests need none.
        .target(name: "OCRPageModel", dependencies: ["OCRBasics", "OCRWire"]),
        // Leptonica's one wrapper: `Pix` and the image operations the pipeline uses.
        .target(name: "OCRLeptonica", dependencies: ["OCRWire", "OCRPageModel", "CLeptonica"]),
        .target(name: "OCREngine", dependencies: ["OCRBasics", "OCRWire", "OCRPages", "OCRPDF", "OCRPageEngine", "OCRPageModel", "OCRStructure", "OCRLeptonica", "CLeptonica", "CTesseract"]),
        .target(name: "OCRCoordinator", dependencies: ["OCRBasics", "OCRWire", "OCRAPIJSON", "OCRZeroMQ", "OCRRPC", "OCRPages", "OCRLog", "OCRWebhook", "CSQLite", "CPostgreSQL"]),
        .target(name: "OCRWorker", dependencies: ["OCRBasics", "OCRZeroMQ", "OCRPageEngine", "OCRWire", "OCRLog"]),
        .target(name: "OCRClient", dependencies: ["OCRBasics", "OCRWire", "OCRZeroMQ", "OCRRPC", "OCRPDF", "OCRStructure"]),
        .target(name: "OCRMath", dependencies: ["OCRClient", "OCRWire"]),
        // The coordinator's HTTP face: probes, metrics, REST API and status page over its RPCs.
        .target(name: "OCRGateway", dependencies: ["OCRBasics", "OCRAPIJSON", "OCRHTTP", "OCRCoordinator", "OCRClient", "OCRWire", "OCRLog"]),
        .target(name: "OCRStructure", dependencies: ["OCRBasics", "OCRWire"]),
        .target(name: "OCRLocalCluster", dependencies: ["OCRBasics", "OCRCoordinator", "OCRWorker", "OCRClient", "OCRPageEngine", "OCRZeroMQ", "OCRLog"]),
        .executableTarget(name: "ocr-worker", dependencies: ["OCRWorker", "OCREngine", "OCRPageEngine", "OCRZeroMQ", "OCRCommandLine", "OCRLog"]),
        .executableTarget(name: "ocr-submit", dependencies: ["OCRBasics", "OCRAPIJSON", "OCRClient", "OCRMath", "OCRLocalCluster", "OCRWorker", "OCREngine", "OCRPageEngine", "OCRZeroMQ", "OCRCommandLine", "OCRLog", "OCRWire", "OCRPages"]),
        .executableTarget(name: "ocr-coordinator", dependencies: ["OCRBasics", "OCRCoordinator", "OCRWebhook", "OCRGateway", "OCRHTTP", "OCRZeroMQ", "OCRCommandLine", "OCRLog"]),
        .executableTarget(name: "ocr-bench", dependencies: ["OCRBasics", "OCRClient", "OCRCommandLine", "OCRZeroMQ", "OCRWire", "OCREngine", "OCRPages"]),
        .executableTarget(name: "ocr-wire-bench", dependencies: ["OCRWire", "OCRCommandLine"]),
        // libFuzzer harnesses (`make fuzz`), and in a plain build their corpus replayer.
        .executableTarget(name: "ocr-fuzz", dependencies: ["OCRWire", "OCRRPC", "OCRPages", "OCREngine"]),

        .testTarget(name: "OCRWireTests", dependencies: ["OCRWire", "OCRTestSupport"]),
        .testTarget(name: "OCRCommandLineTests", dependencies: ["OCRCommandLine", "OCRLog"]),
        .testTarget(name: "OCRBasicsTests", dependencies: ["OCRBasics"]),
        .testTarget(name: "OCRAPIJSONTests", dependencies: ["OCRAPIJSON", "OCRBasics", "OCRWire"]),
        .testTarget(name: "OCRPDFTests", dependencies: ["OCRPDF"]),
        .testTarget(name: "OCRWebhookTests", dependencies: ["OCRWebhook", "OCRBasics", "OCRTestSupport"]),
        .testTarget(name: "OCRHTTPTests", dependencies: ["OCRHTTP", "OCRTestSupport"]),
        .testTarget(name: "OCRGatewayTests", dependencies: ["OCRGateway", "OCRHTTP", "OCRWire", "OCRTestSupport"]),
        .testTarget(name: "OCRPageEngineTests", dependencies: ["OCRPageEngine", "OCRWire", "OCRTestSupport"]),
        .testTarget(name: "OCRLeptonicaTests", dependencies: ["OCRLeptonica", "OCRPageModel", "OCRWire"]),
        .testTarget(name: "OCRPagesTests", dependencies: ["OCRPages", "OCRWire", "OCRTestSupport"]),
        .testTarget(name: "OCRLogTests", dependencies: ["OCRLog"]),
        // Helpers every test tier shares: bounded waits, shared values, processes.
        .target(name: "OCRTestSupport", dependencies: ["OCRBasics", "OCRZeroMQ", "OCRPageModel", "OCRWire"], path: "Tests/OCRTestSupport"),
        .testTarget(name: "OCRZeroMQTests", dependencies: ["OCRZeroMQ", "OCRTestSupport"]),
        .testTarget(name: "OCRRPCTests", dependencies: ["OCRBasics", "OCRRPC", "OCRZeroMQ", "OCRWire", "OCRTestSupport"]),
        // The pure page model's tests: no C library behind them.
        .testTarget(name: "OCRPageModelTests", dependencies: ["OCRPageModel", "OCRWire", "OCRTestSupport"]),
        .testTarget(name: "OCREngineTests", dependencies: ["OCREngine", "OCRPageEngine", "OCRPageModel", "OCRPages", "OCRPDF", "OCRWire", "OCRTestSupport"]),
        .testTarget(name: "OCRCoordinatorTests", dependencies: ["OCRBasics", "OCRTestSupport", "OCRCoordinator", "OCRPages", "OCRClient", "OCRZeroMQ", "OCRLog"],
                    exclude: ["pg_commit_cutter.py"]),
        .testTarget(name: "OCRStructureTests", dependencies: ["OCRStructure", "OCRWire", "OCRTestSupport"]),
        .testTarget(name: "OCRLocalClusterTests", dependencies: ["OCRLocalCluster", "OCRClient", "OCRPageEngine", "OCRTestSupport", "OCRLog"]),
        .testTarget(name: "OCRWorkerTests", dependencies: ["OCRBasics", "OCRWorker", "OCRPageEngine", "OCRZeroMQ", "OCRTestSupport", "OCRWire", "OCRLog"]),
        .testTarget(name: "ClusterTests", dependencies: ["OCRClient", "OCRMath", "OCREngine", "OCRPages", "OCRWire", "OCRTestSupport"],
                    exclude: ["python_client.py", "python_worker.py", "webhook_receiver.py", "deploy_commands.py", "slow_http_clients.py", "mixed_pdf.py"]),
        .testTarget(name: "OCRClientTests", dependencies: ["OCRClient", "OCRWire", "OCRTestSupport"]),
        .testTarget(name: "OCRMathTests", dependencies: ["OCRMath", "OCRClient", "OCRWire", "OCRTestSupport"]),
        // The Swift examples of README and docs/usage.md, compiled against OCRClient alone, and the layer table checked
        // against this file. No other dependency: that is the point of the examples.
        .testTarget(name: "ReadmeTests", dependencies: ["OCRClient"]),
    ],
    swiftLanguageModes: [.v6]
)
