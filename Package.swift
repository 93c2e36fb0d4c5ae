// swift-tools-version:6.0
// ocr-cluster: a Swift OCR worker cluster for Linux. Layers, one direction only:
// CZeroMQ/CTesseract -> OCRWire -> OCRTransport -> OCREngine -> OCRCoordinator/OCRWorker -> OCRClient -> executables.
import PackageDescription

let package = Package(
    name: "ocr-cluster",
    products: [
        .library(name: "OCRWire", targets: ["OCRWire"]),
        .library(name: "OCRTransport", targets: ["OCRTransport"]),
        .library(name: "OCRWorker", targets: ["OCRWorker"]),
        .executable(name: "ocr-worker", targets: ["ocr-worker"]),
    ],
    targets: [
        .systemLibrary(name: "CZeroMQ", pkgConfig: "libzmq", providers: [.apt(["libzmq3-dev"])]),
        .systemLibrary(name: "CTesseract", pkgConfig: "tesseract", providers: [.apt(["libtesseract-dev", "libleptonica-dev"])]),
        .target(name: "OCRLog"),
        .target(name: "OCRWire"),
        .target(name: "OCRCommandLine"),
        .testTarget(name: "OCRWireTests", dependencies: ["OCRWire"]),
        .testTarget(name: "OCRCommandLineTests", dependencies: ["OCRCommandLine", "OCRLog"]),
        .target(name: "OCRTransport", dependencies: ["CZeroMQ", "OCRWire"]),
        .testTarget(name: "OCRTransportTests", dependencies: ["OCRTransport", "OCRWire"]),
        .target(name: "OCRWorker", dependencies: ["OCRTransport", "OCRWire", "OCRLog"]),
        .executableTarget(name: "ocr-worker", dependencies: ["OCRWorker", "OCRCommandLine", "OCRLog"]),
        .testTarget(name: "OCRWorkerTests", dependencies: ["OCRWorker", "OCRTransport", "OCRWire", "OCRLog"]),
    ],
    swiftLanguageModes: [.v6]
)
