import Foundation
import OCRTestSupport
import Testing

/// The deploy files, checked with the tools their platforms use, and their command lines run:
/// `kubernetes-validate --strict` on the manifests, `docker-compose config` on the compose file,
/// `systemd-analyze verify` and `systemd-analyze security` (exposure 3.0 or less) on the units;
/// then the coordinator and worker command lines of each (Kubernetes, compose, systemd) are
/// started as written, with only their paths and ports replaced, and must come up with CURVE
/// on both links, a worker joined, `/readyz` ready and HTTP behind its tokens.
@Suite(.serialized, .blocking)
struct DeployTests {
    static let deploy = Binaries.repoRoot.appendingPathComponent("deploy")

    @Test(.enabled(if: commandExists("kubernetes-validate"), "needs kubernetes-validate from PyPI: run `make deps`"))
    func kubernetesManifestsValidate() async throws {
        let files = ["ocr-cluster.yaml", "autoscale-cpu.yaml", "autoscale-keda.yaml"].map { Self.deploy.appendingPathComponent("kubernetes/\($0)").path }
        let run = try await runAsync(["kubernetes-validate", "--strict"] + files)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        for resource in ["service/ocr-coordinator", "service/ocr-coordinator-workers", "networkpolicy/ocr-coordinator",
                         "deployment/ocr-coordinator", "deployment/ocr-worker", "horizontalpodautoscaler/ocr-worker"] {
            #expect(run.stdout.contains("passed for resource \(resource)"), "\(resource): \(run.stdout)")
        }
        let manifest = try String(contentsOf: Self.deploy.appendingPathComponent("kubernetes/ocr-cluster.yaml"), encoding: .utf8)
        for needed in ["path: /healthz", "path: /readyz", "fsGroup: 10001", "runAsNonRoot: true", "readOnlyRootFilesystem: true",
                       "secretName: ocr-coordinator-keys", "limits: { cpu: \"2\", memory: 2Gi }"] {
            #expect(manifest.contains(needed), "the manifest has \(needed)")
        }
        #expect(!manifest.contains("NodePort") && !manifest.contains("LoadBalancer"), "nothing is published outside the cluster")
        // KEDA's CRD is not in kubernetes-validate's schemas: check what the ScaledObject names.
        let keda = try String(contentsOf: Self.deploy.appendingPathComponent("kubernetes/autoscale-keda.yaml"), encoding: .utf8)
        #expect(keda.contains("kind: ScaledObject") && keda.contains("scaleTargetRef: { name: ocr-worker }"))
        #expect(keda.contains("query: sum(ocr_queue_depth) + sum(ocr_pages_running)"))
    }

    /// Failover: two coordinators on one PostgreSQL journal, on each platform.
    @Test(.enabled(if: commandExists("kubernetes-validate"), "needs kubernetes-validate from PyPI: run `make deps`"))
    func failoverManifestsValidate() async throws {
        let run = try await runAsync(["kubernetes-validate", "--strict", Self.deploy.appendingPathComponent("kubernetes/ocr-cluster-failover.yaml").path])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        for resource in ["service/ocr-coordinator", "service/ocr-coordinator-workers", "networkpolicy/ocr-coordinator",
                         "deployment/ocr-coordinator", "deployment/ocr-worker"] {
            #expect(run.stdout.contains("passed for resource \(resource)"), "\(resource): \(run.stdout)")
        }
        let manifest = try String(contentsOf: Self.deploy.appendingPathComponent("kubernetes/ocr-cluster-failover.yaml"), encoding: .utf8)
        for needed in ["replicas: 2", "strategy: { type: Recreate }", "path: /readyz", "--journal\", \"postgresql://",
                       "secretKeyRef: { name: ocr-journal-app, key: password }", "podAntiAffinity"] {
            #expect(manifest.contains(needed), "the failover manifest has \(needed)")
        }
        #expect(!manifest.contains("PersistentVolumeClaim") && !manifest.contains("journal.db"), "no journal volume: the journal is the database")
        // CloudNativePG's CRD is not in kubernetes-validate's schemas: check what the Cluster says.
        let cnpg = try String(contentsOf: Self.deploy.appendingPathComponent("kubernetes/postgresql-cnpg.yaml"), encoding: .utf8)
        #expect(cnpg.contains("kind: Cluster") && cnpg.contains("name: ocr-journal") && cnpg.contains("instances: 3"))
        #expect(cnpg.contains("initdb: { database: app, owner: app }"), "the app user the coordinators' URI names")
    }

    @Test(.enabled(if: commandExists("docker-compose"), "needs docker-compose: run `make deps`"))
    func failoverComposeFileIsValid() async throws {
        let run = try await runAsync(["docker-compose", "-f", Self.deploy.appendingPathComponent("compose-failover.yaml").path, "config"])
        #expect(run.status == 0, "\(run.stderr)")
        let services = ["postgres", "ocr-coordinator-a", "ocr-coordinator-b", "ocr-worker"]
        for service in services { #expect(run.stdout.contains("  \(service):"), "\(service) in \(run.stdout)") }
        #expect(run.stdout.contains("tcp://ocr-coordinator-a:5556,tcp://ocr-coordinator-b:5556"), "workers get both coordinators")
        #expect(run.stdout.components(separatedBy: "postgresql://ocr@postgres:5432/ocr").count == 3, "both coordinators on the database")
        #expect(run.stdout.contains("127.0.0.1:5555:5555/tcp") && run.stdout.contains("127.0.0.1:5565:5555/tcp"), "clients on loopback only")
        #expect(!run.stdout.contains("5556:5556"), "the worker port is not published")
    }

    @Test(.enabled(if: commandExists("docker-compose"), "needs docker-compose: run `make deps`"))
    func composeFileIsValid() async throws {
        let run = try await runAsync(["docker-compose", "-f", Self.deploy.appendingPathComponent("compose.yaml").path, "config"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("condition: service_healthy"))
        #expect(run.stdout.contains("http://127.0.0.1:8081/readyz"), "the health check uses the probe listener")
        #expect(run.stdout.contains("127.0.0.1:8080:8080/tcp"), "HTTP on the host's loopback only: \(run.stdout)")
        #expect(run.stdout.contains("127.0.0.1:5555:5555/tcp"), "clients on the host's loopback only: \(run.stdout)")
        #expect(!run.stdout.contains("5556:5556"), "the worker port is not published")
    }

    /// The compose file's key setup, run as written in a scratch directory: the secrets are
    /// readable by the containers' group (10001) and by nobody else.
    @Test func composeKeySetupKeepsSecretsPrivate() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch.appendingPathComponent("deploy"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let text = try String(contentsOf: Self.deploy.appendingPathComponent("compose.yaml"), encoding: .utf8)
        let setup = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("#   ") }.map { String($0.dropFirst(4)) }
            .filter { ["mkdir", "for k", "cp ", "printf", "chgrp"].contains(where: $0.hasPrefix) }
        #expect(setup.count == 4, "\(setup)")
        #expect(!text.contains("a+r"), "no instruction makes the keys readable by others")
        let binaries = Binaries.buildDirectory.path
        let run = try await runAsync(["bash", "-euo", "pipefail", "-c", "export PATH=\(binaries):$PATH; cd \(scratch.path); " + setup.joined(separator: "\n")])
        #expect(run.status == 0, "\(run.stderr)")
        let keys = scratch.appendingPathComponent("deploy/keys")
        let names = try FileManager.default.contentsOfDirectory(atPath: keys.path).sorted()
        #expect(names == ["client.key", "client.key.pub", "clients.keys", "coordinator.key", "coordinator.key.pub", "http.tokens",
                          "worker.key", "worker.key.pub", "workers.keys"], "\(names)")
        for name in ["", "coordinator.key", "worker.key", "client.key", "http.tokens"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: keys.appendingPathComponent(name).path)
            let mode = try #require(attributes[.posixPermissions] as? Int)
            #expect(mode & 0o007 == 0, "\(name.isEmpty ? "keys/" : name): mode \(String(mode, radix: 8)) lets others in")
            #expect(mode & 0o040 != 0, "\(name.isEmpty ? "keys/" : name): the group can read it")
            #expect(attributes[.groupOwnerAccountID] as? Int == 10001, "\(name): group 10001")
        }
    }

    /// The image's language packs are Debian packages that exist (TESSERACT_LANGS build argument).
    @Test func containerLanguagePacksAreRealPackages() async throws {
        let text = try String(contentsOf: Self.deploy.appendingPathComponent("Containerfile"), encoding: .utf8)
        let expansion = try #require(text.firstMatch(of: /\$\(for l in \$TESSERACT_LANGS; do printf '([^']+)' "\$l"; done\)/), "the install line expands the argument")
        #expect(text.contains("ARG TESSERACT_LANGS=\"eng osd por fra deu spa\""))
        for language in ["eng", "osd", "por", "fra", "deu", "spa", "ita"] {
            let package = String(expansion.1).replacingOccurrences(of: "%s ", with: language)
            let shown = try await runAsync(["apt-cache", "show", package])
            #expect(shown.status == 0 && shown.stdout.contains("Package: \(package)"), "\(package): \(shown.stderr)")
        }
        let ignore = try String(contentsOf: Binaries.repoRoot.appendingPathComponent(".dockerignore"), encoding: .utf8).split(separator: "\n")
        for entry in [".build", ".git", "deploy/keys"] { #expect(ignore.contains(Substring(entry)), "\(entry) is not in the build context") }
    }

    @Test(.enabled(if: commandExists("systemd-analyze"), "needs systemd-analyze"))
    func systemdUnitsVerifyAndAreHardened() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-units-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        // The failover drop-in, verified with the coordinator's unit.
        let dropIn = scratch.appendingPathComponent("ocr-coordinator.service.d")
        try FileManager.default.createDirectory(at: dropIn, withIntermediateDirectories: true)
        let postgres = try String(contentsOf: Self.deploy.appendingPathComponent("systemd/ocr-coordinator.service.d/postgresql.conf"), encoding: .utf8)
        #expect(postgres.contains("ExecStart=\nExecStart=") && postgres.contains("--journal postgresql://"))
        try postgres.replacingOccurrences(of: "/usr/local/bin/", with: Binaries.buildDirectory.path + "/")
            .write(to: dropIn.appendingPathComponent("postgresql.conf"), atomically: true, encoding: .utf8)
        for unit in ["ocr-coordinator.service", "ocr-worker.service"] {
            let text = try String(contentsOf: Self.deploy.appendingPathComponent("systemd/\(unit)"), encoding: .utf8)
            // verify needs ExecStart's binary where the unit says: point it at the built one.
            let copy = scratch.appendingPathComponent(unit)
            try text.replacingOccurrences(of: "/usr/local/bin/", with: Binaries.buildDirectory.path + "/").write(to: copy, atomically: true, encoding: .utf8)
            let verify = try await runAsync(["systemd-analyze", "verify", copy.path])
            #expect(verify.status == 0, "\(unit): \(verify.stderr)")
            let security = try await runAsync(["systemd-analyze", "security", "--offline=true", copy.path])
            let score = security.stdout.firstMatch(of: /Overall exposure level for \S+: (\d+\.\d+)/).flatMap { Double($0.1) }
            #expect(try #require(score, "\(security.stdout)\(security.stderr)") <= 3.0, "\(unit): exposure \(score ?? -1)")
        }
    }

    /// The command lines as the deploy files write them, run here.
    @Test(arguments: ["kubernetes", "compose", "systemd"])
    func commandLinesStartACluster(_ flavour: String) async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-deploy-\(flavour)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let keys = scratch.appendingPathComponent("keys"), state = scratch.appendingPathComponent("state")
        for directory in [keys, state] { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        for key in ["coordinator", "worker", "client"] {
            let keygen = try await runAsync([Binaries.path("ocr-coordinator"), "keygen", keys.appendingPathComponent("\(key).key").path])
            #expect(keygen.status == 0)
        }
        try FileManager.default.copyItem(at: keys.appendingPathComponent("worker.key.pub"), to: keys.appendingPathComponent("workers.keys"))
        try FileManager.default.copyItem(at: keys.appendingPathComponent("client.key.pub"), to: keys.appendingPathComponent("clients.keys"))
        try "ops ops-token-for-deploy-tests-0123 admin\n".write(to: keys.appendingPathComponent("http.tokens"), atomically: true, encoding: .utf8)

        let printed = try await runAsync(["python3", Binaries.repoRoot.appendingPathComponent("Tests/ClusterTests/deploy_commands.py").path, Self.deploy.path])
        let commands = try #require(try JSONSerialization.jsonObject(with: printed.stdoutData) as? [String: [String]], "\(printed.stderr)")
        func localised(_ words: [String], coordinator: String = "") -> [String] {
            words.dropFirst().map { word in
                var word = word
                if word.hasPrefix("/keys/") { word = keys.path + word.dropFirst("/keys".count) }
                if word.hasPrefix("/var/lib/ocr-cluster/") { word = state.path + word.dropFirst("/var/lib/ocr-cluster".count) }
                return word.replacingOccurrences(of: "${CREDENTIALS_DIRECTORY}", with: keys.path)
                    .replacingOccurrences(of: "${STATE_DIRECTORY}", with: state.path)
                    .replacingOccurrences(of: "${OCR_WORKER_COORDINATOR}", with: coordinator)
                    .replacingOccurrences(of: "tcp://*:5555", with: "tcp://127.0.0.1:*")
                    .replacingOccurrences(of: "tcp://*:5556", with: "tcp://127.0.0.1:*")
                    .replacingOccurrences(of: "tcp://ocr-coordinator-workers:5556", with: coordinator)
                    .replacingOccurrences(of: "tcp://ocr-coordinator:5556", with: coordinator)
                    .replacingOccurrences(of: "*:8080", with: "127.0.0.1:0")
                    .replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:0")
                    .replacingOccurrences(of: "*:8081", with: "127.0.0.1:0")
                    .replacingOccurrences(of: "127.0.0.1:8081", with: "127.0.0.1:0")
            }
        }
        var coordinatorArguments = localised(try #require(commands["\(flavour)-coordinator"]))
        // systemd's units name no endpoints (CURVE makes them tcp://*): bind loopback here.
        if !coordinatorArguments.contains("--client-endpoint") {
            coordinatorArguments += ["--client-endpoint", "tcp://127.0.0.1:*", "--worker-endpoint", "tcp://127.0.0.1:*"]
        }
        let coordinator = try ChildProcess("ocr-coordinator", coordinatorArguments)
        let endpoints = try await coordinator.waitForStderr(#"coordinator listening" clients=(\S+) workers=(\S+)"#)
        let url = try #require(coordinator.stderr.firstMatch(of: /"http listening" url=(\S+) auth=bearer/).map { String($0.1) },
                               "\(coordinator.stderr)")
        var workerArguments = localised(try #require(commands["\(flavour)-worker"]), coordinator: endpoints[1])
        if let engine = workerArguments.firstIndex(of: "tesseract") { workerArguments[engine] = "null" }  // a quick engine
        let worker = try ChildProcess("ocr-worker", workerArguments)
        _ = try await coordinator.waitForStderr("worker ready")
        let curl = Curl(scratch: scratch)
        #expect(try await curl.run([url + "/readyz"]).status == 200)
        #expect(try await curl.run([url + "/v1/jobs"]).status == 401, "HTTP needs the token")
        #expect(try await curl.run(["-H", "Authorization: Bearer ops-token-for-deploy-tests-0123", url + "/v1/cluster"]).status == 200)
        // CURVE on the client link: the allow-listed key is served, a plain client is not.
        let submit = Binaries.path("ocr-submit")
        let allowed = try await runAsync([submit, "--coordinator", endpoints[0], "--curve-server-key", keys.appendingPathComponent("coordinator.key.pub").path,
                                          "--curve-secret-key", keys.appendingPathComponent("client.key").path, "status"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout.contains("workers 1"))
        let plain = try await runAsync([submit, "--coordinator", endpoints[0], "status"])
        #expect(plain.status == 69, "\(plain.stderr)")
        worker.signal(SIGTERM)
        _ = await worker.wait(timeout: .seconds(20))
        coordinator.signal(SIGTERM)
        #expect(await coordinator.wait(timeout: .seconds(20)) == 0)
    }
}
