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
    ocr-submit [--coordinator tcp://HOST:5555 | --local [--workers N]] [-o FILE] [--format txt|json|hocr|alto|tsv|page|pdf|markdown|html] [recognition options] FILES...
           ocr-submit [--coordinator ... | --local] --math [--all-lines] FILES...
           ocr-submit [--coordinator ...] --detach [options] FILES...     (prints the job id and returns)
           ocr-submit [--coordinator ...] result JOB [-f FORMAT] [-o FILE]
           ocr-submit [--coordinator ...] status | jobs [--json] | cancel JOB | delete JOB | watch JOB
    """,
    options: [
        .option("--coordinator", short: "-c", value: "ENDPOINT", help: "Coordinator client endpoint (else $OCR_COORDINATOR; with neither, runs --local); coordinators that share a PostgreSQL journal separated by commas: calls go to the leader, jobs are followed across a failover."),
        .flag("--local", help: "Start an embedded coordinator and workers in this process."),
        .option("--workers", value: "N", help: "With --local: engine threads (default: the number of cores)."),
        .option("--engine", value: "ENGINE", default: "tesseract", help: "With --local: the workers' engine (tesseract; null or sleep:MS for measurements)."),
        .option("--output", short: "-o", value: "FILE", help: "Write the document here ('-' or none: standard output); checked before any work, replaced atomically."),
        .option("--format", short: "-f", value: "FORMAT", default: "txt", help: "txt, json, hocr, alto, tsv, page (PAGE XML: one file per page, FILE-0001.xml ... with -o), pdf (searchable PDF), markdown or html (the document's structure: headings, lists, tables); several joined by commas (-f pdf,txt -o BASE writes BASE.pdf and BASE.txt from one recognition)."),
        .option("--sidecar", value: "FILE", help: "Also write the plain text here (as OCRmyPDF's --sidecar), from the same recognition."),
        .option("--timeout", value: "SECONDS", help: "Whole-job deadline."),
        .option("--priority", value: "N", default: "0", help: "Higher runs first."),
        .option("--job-key", value: "KEY", help: "Idempotency key: resubmitting with it returns the same job."),
        .flag("--detach", short: "-d", help: "Submit, print the job id on stdout and return (fetch the document later with 'result JOB'; the pages' images are kept for -f pdf)."),
        .option("--callback-url", value: "URL", help: "When the job finishes, the coordinator POSTs its summary here (must be on its --webhook-allow list)."),
        .flag("--json", help: "status, jobs: JSON instead of text (the shapes of the HTTP API's /v1/cluster and /v1/jobs)."),
        .flag("--quiet", short: "-q", help: "No progress bar."),
        .flag("--pdfa", help: "With --format pdf: PDF/A-2b identification, sRGB output intent, embedded font (not validated; see docs/usage.md)."),
        .option("--curve-server-key", value: "KEY", help: "CURVE: the coordinator's public key (file or Z85 text; else $OCR_CURVE_SERVER_KEY)."),
        .option("--curve-secret-key", value: "FILE", help: "CURVE: this client's secret key (default: a fresh key; else $OCR_CURVE_SECRET_KEY)."),
        .flag("--math", help: "MathSolver: read the arithmetic on each page and print 'expression = value'."),
        .flag("--all-lines", help: "With --math: every line is an expression (default: the largest text region)."),
        .option("--log-level", value: "LEVEL", help: "Log level of the embedded cluster (stderr; default warning, error with --quiet: page failures are reported once, by ocr-submit)."),
    ] + RecognitionFlags.options,
    footer: """
    Subcommands (they need a coordinator: --coordinator or $OCR_COORDINATOR): status (cluster view),
    jobs (recent jobs with times and durations), cancel JOB, delete JOB (a finished job and its data), watch JOB (follow a job), result JOB (the
    document of a finished job). The job id is printed on stderr when the job is accepted; Ctrl-C then
    cancels the job (unless --detach) and says so.
    FILES may include '-': one file read from standard input (named 'stdin' in the document).
    A progress bar is drawn on stderr when it is a terminal. Errors go to stderr.
    --math prints one 'expression = value' line per page (per line with --all-lines), prefixed
    'FILE page N: ' when the job has several pages: (1+2)*3/5 = 1.8, 1/3 = 1/3 (0.3333...).
    Expressions: decimals, + - * / ^, parentheses, unary minus; exact rational arithmetic.
    Exit codes: 0 every page recognised (--math: and every expression solved); 2 some pages
    failed (the others are written); 3 the job failed, was cancelled or refused; 64 usage error;
    65 --math: an expression is invalid, divides by zero or is missing (named on stderr with its
    file and page; the others are printed); 66 an input file cannot be read (the file and the
    system's reason named); 69 coordinator unreachable (or at its connection limit); 70 internal
    error; 73 the output file cannot be created (before anything is submitted); 75 result: the job
    has not finished yet; 77 the coordinator refused this client's CURVE key; 130 interrupted by
    Ctrl-C (the job cancelled).
    """)

@main
struct OCRSubmit {
    static func main() async {
        let arguments: ParsedArguments
        let command: SubmitCommand
        do {
            arguments = try spec.parse(Array(CommandLine.arguments.dropFirst()))
            arguments.answerHelpOrVersion()
            command = try SubmitCommand(arguments)
        } catch {
            Diagnostics.write(usage: error)
            exit(ExitCode.usage.rawValue)
        }
        let code = await command.run()
        exit(code.rawValue)
    }
}
