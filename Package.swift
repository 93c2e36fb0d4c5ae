// swift-tools-version:6.0
// ocr-cluster: a Swift OCR worker cluster for Linux. Layers, one direction only:
// CZeroMQ/CTesseract -> OCRWire -> OCRTransport -> OCREngine -> OCRCoordinator/OCRWorker -> OCRClient -> executables.
import PackageDescription

let package = Package(
    name: "ocr-cluster",
    products: [
        .library(name: "OCRWire", targets: ["OCRWire"]),
    ],
    targets: [
        .systemLibrary(name: "CZeroMQ", pkgConfig: "libzmq", providers: [.apt(["libzmq3-dev"])]),
        .systemLibrary(name: "CTesseract", pkgConfig: "tesseract", providers: [.apt(["libtesseract-dev", "libleptonica-dev"])]),
        .target(name: "OCRWire"),
        .executableTarget(name: "ocr-wire-bench", dependencies: ["OCRWire"]),
        .testTarget(name: "OCRWireTests", dependencies: ["OCRWire"]),
    ],
    swiftLanguageModes: [.v6]
)
