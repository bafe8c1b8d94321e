// `npm run test:runtimes`: the packed tarball, installed once into a fresh project outside the repo, runs
// the same smoke test (test/consumers/smoke.mjs: both clients, the page iterator and typed errors against
// the reference server from the tarball's `/testing` subpath) on every runtime below. Node, Bun and Deno
// serve the reference server on 127.0.0.1 with `listen()`; workerd has no node:http server, so its worker
// (bundled by esbuild) hands the clients the server's fetch handler in-process.
// Each runtime is a pinned binary from an npm package, fetched once into the user cache like scripts/node.sh.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { cacheDir, createProject, mustRun, type Project, run, secs, tarball } from './lib/packaging.js';

type Os = 'linux' | 'darwin';
type Arch = 'x64' | 'arm64';

interface Runtime {
  name: string;
  version: string;
  /** The npm package that ships the binary, per platform. Only linux-x64 is exercised by CI. */
  pkg: (os: Os, arch: Arch) => string;
  /** The binary's path inside the package. */
  bin: string;
  transport: 'http' | 'in-process';
  /** Command, arguments and environment that run the smoke test in `project`. */
  command: (bin: string, project: Project) => Promise<[string, string[], Record<string, string>]>;
}

const nodeRuntime = (version: string): Runtime => ({
  name: `node${version.split('.')[0]}`,
  version,
  pkg: (os, arch) => `node-${os}-${arch}`,
  bin: 'bin/node',
  transport: 'http',
  command: async (bin) => [bin, ['main.mjs'], {}],
});

const RUNTIMES: readonly Runtime[] = [
  nodeRuntime('22.23.3'),
  nodeRuntime('24.21.0'),
  {
    name: 'bun',
    version: '1.4.5',
    pkg: (os, arch) => `@oven/bun-${os}-${arch === 'x64' ? 'x64' : 'aarch64'}`,
    bin: 'bin/bun',
    transport: 'http',
    // No transpiler cache on disk and no telemetry.
    command: async (bin) => [
      bin,
      ['main.mjs'],
      { BUN_RUNTIME_TRANSPILER_CACHE_PATH: '0', DO_NOT_TRACK: '1' },
    ],
  },
  {
    name: 'deno',
    version: '2.9.6',
    pkg: (os, arch) => (os === 'linux' ? `@deno/linux-${arch}-glibc` : `@deno/darwin-${arch}`),
    bin: 'deno',
    transport: 'http',
    // Loopback only, and no env permission: the clients, given every option, must not need one. Deno's cache
    // stays in ours.
    command: async (bin) => [
      bin,
      ['run', '--no-prompt', '--allow-net=127.0.0.1', 'main.mjs'],
      { DENO_DIR: join(cacheDir, 'deno'), DENO_NO_UPDATE_CHECK: '1' },
    ],
  },
  {
    name: 'workerd',
    version: '1.20261117.1',
    pkg: (os, arch) => `@cloudflare/workerd-${os}-${arch === 'x64' ? '64' : 'arm64'}`,
    bin: 'bin/workerd',
    transport: 'in-process',
    command: async (bin, project) => {
      // What wrangler does: one ES module, resolved with the worker conditions; node: stays external and is
      // only imported by listen(), which the worker never calls. No nodejs_compat flag.
      await build({
        absWorkingDir: project.dir,
        entryPoints: ['worker.mjs'],
        outfile: 'worker.bundle.mjs',
        bundle: true,
        format: 'esm',
        platform: 'neutral',
        conditions: ['workerd', 'worker', 'browser'],
        mainFields: ['module', 'main'],
        target: 'es2022',
        external: ['node:*'],
        logLevel: 'error',
      });
      // Workers refuse `new Function`: the worker proves it, and its bundle has the parsers generated at build time
      // (`withParser`'s sentinel) and none of zod's generator, so every answer takes the generated fast path.
      const bundled = readFileSync(join(project.dir, 'worker.bundle.mjs'), 'utf8');
      if (!bundled.includes('zod.compile.invalid') || bundled.includes('generated code failed to evaluate')) {
        throw new Error("the worker bundle lacks the generated parsers, or holds zod's code generator");
      }
      writeFileSync(join(project.dir, 'config.capnp'), WORKERD_CONFIG);
      return [bin, ['test', 'config.capnp'], {}];
    },
  },
];

const WORKERD_CONFIG = `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "main", worker = .smoke)],
);

const smoke :Workerd.Worker = (
  modules = [(name = "worker", esModule = embed "worker.bundle.mjs")],
  compatibilityDate = "2025-09-01",
);
`;

function platform(): [Os, Arch] {
  const os = process.platform === 'linux' || process.platform === 'darwin' ? process.platform : undefined;
  const arch = process.arch === 'x64' || process.arch === 'arm64' ? process.arch : undefined;
  if (!os || !arch) throw new Error(`no pinned runtimes for ${process.platform}-${process.arch}`);
  return [os, arch];
}

/** The runtime's binary, installed from the registry into the cache the first time (no install scripts). */
async function fetchRuntime(runtime: Runtime): Promise<{ bin: string; fetched: boolean }> {
  if (runtime.name.startsWith('node') && process.versions.node === runtime.version) {
    return { bin: process.execPath, fetched: false }; // already running it (scripts/node.sh's pinned Node)
  }
  const pkg = runtime.pkg(...platform());
  const dir = join(cacheDir, 'runtimes', `${pkg.replace('/', '+')}@${runtime.version}`);
  const bin = join(dir, 'node_modules', pkg, runtime.bin);
  if (existsSync(bin)) return { bin, fetched: false };
  mkdirSync(join(cacheDir, 'runtimes'), { recursive: true });
  const tmp = mkdtempSync(join(cacheDir, 'runtimes', '.fetch-'));
  try {
    await mustRun(
      'npm',
      [
        'install',
        '--prefix',
        tmp,
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--loglevel=error',
        `${pkg}@${runtime.version}`,
      ],
      { timeoutMs: 300_000 },
    );
    // Another run may have finished first; either copy is the same pinned binary.
    if (!existsSync(dir)) renameSync(tmp, dir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  if (!existsSync(bin)) throw new Error(`${pkg}@${runtime.version} has no ${runtime.bin}`);
  return { bin, fetched: true };
}

interface Outcome {
  runtime: Runtime;
  ok: boolean;
  line: string;
  ms: number;
}

const only = process.env.RUNTIMES?.split(',');
const selected = RUNTIMES.filter((r) => !only || only.includes(r.name));
const started = performance.now();

const [pkgPath, bins] = await Promise.all([
  tarball(),
  Promise.all(selected.map((r) => fetchRuntime(r).catch((error: unknown) => error as Error))),
]);
const project = createProject('runtimes', 'module', ['smoke.mjs', 'esm/main.mjs', 'workerd/worker.mjs']);
const outcomes: Outcome[] = [];
try {
  const installed = await project.install(pkgPath);
  console.log(`runtimes: ${pkgPath} installed in ${secs(installed.ms)} into ${project.dir}`);
  for (const [i, runtime] of selected.entries()) {
    const t0 = performance.now();
    const bin = bins[i];
    let result: { ok: boolean; line: string };
    if (bin === undefined || bin instanceof Error) {
      result = { ok: false, line: `could not fetch: ${bin?.message}` };
    } else {
      try {
        const [command, args, env] = await runtime.command(bin.bin, project);
        const out = await run(command, args, { cwd: project.dir, env, timeoutMs: 120_000 });
        // A run counts only when the smoke test said so: a runtime that exits 0 without running it fails.
        const ok = out.code === 0 ? out.output.split('\n').find((l) => l.startsWith('ok: ')) : undefined;
        result = ok ? { ok: true, line: ok } : { ok: false, line: `exit ${out.code}:\n${out.output.trim()}` };
      } catch (error) {
        result = { ok: false, line: error instanceof Error ? error.message : String(error) };
      }
    }
    outcomes.push({ runtime, ...result, ms: performance.now() - t0 });
  }
} finally {
  project.remove();
}

console.log('\n| runtime | version | transport | result | time |\n|---|---|---|---|---|');
for (const o of outcomes) {
  const { name, version, transport } = o.runtime;
  console.log(`| ${name} | ${version} | ${transport} | ${o.ok ? 'pass' : 'FAIL'} | ${secs(o.ms)} |`);
}
for (const o of outcomes)
  console.log(`${o.ok ? 'PASS' : 'FAIL'} ${o.runtime.name}: ${o.line.replaceAll('\n', '\n  ')}`);
const failed = outcomes.filter((o) => !o.ok).length;
const total = secs(performance.now() - started);
console.log(
  `\nruntimes: ${failed === 0 ? `all ${outcomes.length} pass` : `${failed} of ${outcomes.length} FAIL`} (${total})`,
);
process.exitCode = failed > 0 ? 1 : 0;
