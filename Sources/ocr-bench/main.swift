// ocr-bench: the measuring tools behind `make bench` (scripts/bench.sh runs them and writes
// BENCHMARKS.md). Each subcommand prints one JSON object per line on stdout; progress on stderr.
import Foundation
import OCRClient

let usage = """
usage: ocr-bench COMMAND [options]
  null        --client EP [--pages N] [--runs R] [--slots S]   page tasks/s through a coordinator (null workers)
  latency     --client EP [--count N] [--slots S]              one-page job round trips, p50/p99
  first-page  --client EP --file F [--runs R] [--slots S]      time to the first page of a long job
  memory      --client EP --pid PID [--sizes 100,1000,5000]    coordinator RSS vs job size
  scale       --client EP --worker EP --pid PID [--connections 50,100,200,400] [--sleep-ms MS] [--pages-per-connection N]
  engines     --file F [--pages N] [--threads T] [--out DIR]  T warm in-process engines, one per core
  engine-vs-cli [--runs R] [--cer-file F --cer-truth T] FILES  engine vs tesseract CLI per page
  structure   [--runs R] FILES                                  structure analysis's cost next to recognition, per page
  capture     --out DIR [--threads T] FILES                     recognise every page once, saved as DIR/NAME.pages
  render      [--format html] DIR                               DIR/NAME.pages as documents of this build (its structure)
  tiny-tiff   --pages N --out FILE                             write a multipage TIFF of tiny pages
"""

// One engine thread per core: Tesseract must not start OpenMP threads of its own.
setenv("OMP_THREAD_LIMIT", "1", 1)

let argv = CommandLine.arguments
guard argv.count >= 2 else { die(usage) }
if argv[1] == "--help" || argv[1] == "-h" {
    print(usage)
    exit(0)
}
if argv[1] == "--version" {
    print("ocr-bench \(OCRClientVersion.current)")
    exit(0)
}
let args = Args(argv.dropFirst(2))
do {
    switch argv[1] {
    case "null": try await ClusterBench.null(args)
    case "latency": try await ClusterBench.latency(args)
    case "first-page": try await ClusterBench.firstPage(args)
    case "memory": try await ClusterBench.memory(args)
    case "scale": try await ClusterBench.scale(args)
    case "engines": try await EngineBench.engines(args)
    case "engine-vs-cli": try await EngineBench.versusCLI(args)
    case "structure": try await EngineBench.structure(args)
    case "capture": try await StructureReplay.capture(args)
    case "render": try StructureReplay.render(args)
    case "wait":  // until the coordinator reports --slots N connected slots
        _ = try await ClusterBench.waitForSlots(try OCRClient(endpoint: args.string("client")), args.int("slots", 1))
    case "tiny-tiff":
        try Data(tinyTIFF(pages: args.int("pages"))).write(to: URL(fileURLWithPath: args.string("out")))
    case "split":  // the pages the coordinator's splitter makes, one file each (for checking)
        let pages = try EngineBench.pages(of: args.string("file"), count: nil)
        for page in pages {
            try Data(page.content).write(to: URL(fileURLWithPath: "\(args.string("out"))/page-\(page.filePage).tif"))
        }
    default: die(usage)
    }
} catch {
    die("\(argv[1]) failed: \(error)")
}
exit(0)
