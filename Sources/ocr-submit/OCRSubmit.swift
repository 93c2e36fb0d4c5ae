// ocr-submit: submit scans to an ocr-cluster (or an embedded one) and print the document.
// Option parsing and wiring only: the client logic is OCRClient, the embedded cluster
// OCRLocalCluster.
import Foundation
import OCRClient
import OCRCommandLine
import OCRLog
import OCRWire

let spec = CommandSpec(
    name: "ocr-submit",
    summary: "OCR scans (multipage TIFF, PDF, images, directories) on an ocr-cluster",
    usage: """
    ocr-submit [--coordinator tcp://HOST:5555 | --local [--workers N]] [-o FILE] [--format txt|json|hocr|alto|tsv] [recognition options] FILES...
           ocr-submit [--coordinator ...] status | jobs | cancel JOB | watch JOB
    """,
    options: [
        .option("--coordinator", short: "-c", value: "ENDPOINT", help: "Coordinator client endpoint (else $OCR_COORDINATOR; with neither, runs --local)."),
        .flag("--local", help: "Start an embedded coordinator and workers in this process."),
        .option("--workers", value: "N", help: "With --local: engine threads (default: the number of cores)."),
        .option("--engine", value: "ENGINE", default: "tesseract", help: "With --local: the workers' engine (tesseract; null or sleep:MS for measurements)."),
        .option("--output", short: "-o", value: "FILE", help: "Write the document here (default: standard output)."),
        .option("--format", short: "-f", value: "FORMAT", default: "txt", help: "txt, json, hocr, alto or tsv."),
        .option("--timeout", value: "SECONDS", help: "Whole-job deadline."),
        .option("--priority", value: "N", default: "0", help: "Higher runs first."),
        .option("--job-key", value: "KEY", help: "Idempotency key: resubmitting with it returns the same job."),
        .flag("--quiet", short: "-q", help: "No progress bar."),
        .option("--log-level", value: "LEVEL", default: "warning", help: "Log level of the embedded cluster (stderr)."),
    ] + RecognitionFlags.options,
    footer: """
    Subcommands: status (cluster view), jobs (recent jobs), cancel JOB, watch JOB (follow a job).
    A progress bar is drawn on stderr when it is a terminal. Errors go to stderr.
    Exit codes: 0 every page recognised; 2 some pages failed (the others are written); 3 the job
    failed, was cancelled or refused; 64 usage error; 66 an input file cannot be read;
    69 coordinator unreachable; 70 internal error.
    """)

@main
struct OCRSubmit {
    static func main() async {
        let arguments: ParsedArguments
        let command: SubmitCommand
        do {
            arguments = try spec.parse(Array(CommandLine.arguments.dropFirst()))
            if arguments.wantsHelp {
                print(spec.helpText, terminator: "")
                exit(ExitCode.success.rawValue)
            }
            command = try SubmitCommand(arguments)
        } catch {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            exit(ExitCode.usage.rawValue)
        }
        let code = await command.run()
        exit(code.rawValue)
    }
}
