// `npm run test:consumers`: the packed tarball, installed into fresh projects outside the repo, used the
// ways a user uses it: ESM `import`, CommonJS `require`, TypeScript under `nodenext` and `bundler` (with
// misuses that must not compile, checked by the latest TypeScript and the oldest that works), the msw adapter,
// the bin (installed, and through `npx -p` from an empty folder), the shipped examples under plain `node`, and a
// short-lived function bundled by esbuild as the fleet guide says (with the `/redis` store on node-redis and ioredis,
// against a real redis-server). Each runs against the reference server from the tarball's `/testing` subpath, over
// 127.0.0.1.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { build } from 'esbuild';
import { startRedis } from '../test/helpers/redis.ts';
import { createProject, mustRun, type Project, run, secs, tarball } from './lib/packaging.js';

/** The TypeScript the consumers compile with: the misuse checks and the emitted build use it. */
const TYPESCRIPT_LATEST = '6.0.3';
/**
 * The oldest TypeScript that type-checks a consumer (strict, skipLibCheck off), the first 5.8 release: 5.8 is
 * the first to let a CommonJS file under `module: nodenext` import an ESM-only package, as the `.d.cts` does
 * (ky); 5.7 fails there with TS1479. (zod alone needs 5.4; top-level `for await` under `module: preserve`, 5.6.)
 */
export const TYPESCRIPT_FLOOR = '5.8.2';
const TYPESCRIPTS = {
  latest: {
    pkg: `typescript@${TYPESCRIPT_LATEST}`,
    dir: 'typescript',
    label: `${TYPESCRIPT_LATEST} (latest)`,
  },
  // An npm alias, so both compilers install side by side in one project.
  floor: {
    pkg: `typescript-floor@npm:typescript@${TYPESCRIPT_FLOOR}`,
    dir: 'typescript-floor',
    label: `${TYPESCRIPT_FLOOR} (floor)`,
  },
} as const;
const TYPES_NODE = '@types/node@22.20.5';
const MSW = 'msw@3.0.5';
// The Redis clients a bundled function is tried with: the versions the repository's own fleet tests run.
const REDIS_CLIENTS = ['@redis/client@6.3.1', 'ioredis@6.0.0'];
// The fleet guide's esbuild banner ("Short-lived processes"): the CommonJS Redis clients `require` Node's modules.
const REQUIRE_BANNER =
  "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";
// What examples/observability.ts needs beside the package (a user installs them to run it).
const OTEL = [
  '@opentelemetry/api@1.9.1',
  '@opentelemetry/sdk-trace-base@2.12.1',
  '@opentelemetry/context-async-hooks@2.12.0',
];

/** Each misuse must fail `tsc` on its own line with the error matched, and nothing else may fail. */
const MISUSES: readonly { code: string; error: RegExp }[] = [
  { code: `await mgmt.pixels.list({ per_page: 30 });`, error: /TS2322: Type '30' is not assignable/ },
  {
    code: `await mgmt.pixels.create({ name: 'FB', type: 'facebok', value: '1' });`,
    error: /TS(2322|2820): Type '"facebok"' is not assignable/,
  },
  {
    code: `new CatalogClient({ siteUrl: 'https://market.example.com', apiKey: 'k', timeout: '5s' });`,
    error: /TS2322: Type 'string' is not assignable to type 'number'/,
  },
  {
    // An unknown option is a compile error too (the Catalog's URL option is siteUrl), not only a runtime one.
    code: `new CatalogClient({ baseUrl: 'https://market.example.com', apiKey: 'k' });`,
    error: /TS2353: Object literal may only specify known properties, and 'baseUrl' does not exist/,
  },
  {
    code: `await mgmt.pixels.get(1, { timout: 5_000 });`,
    error: /TS(2353|2561): Object literal may only specify known properties, .*'timout' does not exist/,
  },
  {
    code: `mgmt.pixels.get(1).catch((e) => e instanceof NotFoundError && e.fieldErrors);`,
    error: /TS2339: Property 'fieldErrors' does not exist on type 'NotFoundError'/,
  },
];
const MISUSE_HEADER = [
  `import { CatalogClient, ManagementClient, NotFoundError } from 'content-platform-sdk';`,
  `const mgmt = new ManagementClient({ baseUrl: 'https://links.example.com', apiKey: 'k' });`,
];
const misuseFile = `${[...MISUSE_HEADER, ...MISUSES.map((m) => m.code)].join('\n')}\n`;

const strict = {
  target: 'es2023',
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  // Check the shipped declarations too, not only the consumer's files.
  skipLibCheck: false,
};
const tsconfigs = {
  // A Node service: declarations through the exports map's `import` and `require` conditions, Node's types.
  nodenext: {
    compilerOptions: {
      ...strict,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      lib: ['es2023'],
      types: ['node'],
      outDir: 'out',
      rootDir: '.',
    },
    include: ['consumer.ts', 'consumer-cjs.cts'],
  },
  // A bundled app: `bundler` resolution, DOM types and no Node types at all.
  bundler: {
    compilerOptions: {
      ...strict,
      module: 'preserve',
      moduleResolution: 'bundler',
      lib: ['es2023', 'dom', 'dom.iterable'],
      types: [],
      noEmit: true,
    },
    include: ['consumer.ts'],
  },
};
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const misuseConfig = json({ extends: './tsconfig.json', include: [], files: ['misuse.ts'] });

/** `tsc` must reject misuse.ts with exactly the expected errors, each on its own line. */
async function checkMisuses(project: Project): Promise<string[]> {
  const tsc = join(project.dir, 'node_modules/typescript/bin/tsc');
  const result = await run('node', [tsc, '-p', 'tsconfig.misuse.json', '--noEmit', '--pretty', 'false'], {
    cwd: project.dir,
  });
  if (result.code === 0) throw new Error('misuse.ts compiled, but it must not');
  const errors = result.output.split('\n').filter((line) => /error TS\d+/.test(line));
  const problems: string[] = [];
  const rejected: string[] = [];
  MISUSES.forEach((misuse, i) => {
    const line = MISUSE_HEADER.length + i + 1;
    const hit = errors.find((e) => e.startsWith(`misuse.ts(${line},`) && misuse.error.test(e));
    if (hit) rejected.push(`rejects ${hit.slice(0, 150)}`);
    else problems.push(`line ${line} (${misuse.code}) did not fail with ${misuse.error}`);
  });
  if (errors.length !== MISUSES.length)
    problems.push(`expected ${MISUSES.length} errors, got ${errors.length}`);
  if (problems.length > 0) throw new Error(`${problems.join('\n')}\ntsc said:\n${result.output.trim()}`);
  return rejected;
}

/** Starts the installed bin on a free port, asks it for pixels, stops it with SIGTERM (exit 0). */
async function checkBin(project: Project): Promise<string> {
  const bin = join(project.dir, 'node_modules/.bin/content-platform-reference-server');
  const child = spawn(bin, ['--port', '0', '--flavor', 'spec'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const { url, key } = await new Promise<{ url: string; key: string }>((found, fail) => {
      let out = '';
      const timer = setTimeout(() => fail(new Error(`the bin printed no URL:\n${out}`)), 15_000);
      const read = (chunk: Buffer) => {
        out += chunk;
        const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
        const key = /Management API: .* keys: ([^,\s]+)/.exec(out)?.[1];
        if (url && key) {
          clearTimeout(timer);
          found({ url, key });
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.once('exit', (code) => fail(new Error(`the bin exited ${code}:\n${out}`)));
    });
    const res = await fetch(`${url}/api/v1/pixels`, {
      headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
    });
    if (res.status !== 200) throw new Error(`the bin answered ${res.status}: ${await res.text()}`);
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    child.kill('SIGTERM');
    const code = await exited;
    if (code !== 0) throw new Error(`the bin exited ${code} on SIGTERM`);
    return `bin served ${url}`;
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

/** The environment variables that point the examples at a real server: unset, so each starts its own. */
const NO_SERVER = {
  CONTENT_PLATFORM_BASE_URL: undefined,
  CONTENT_PLATFORM_MANAGEMENT_API_KEY: undefined,
  CONTENT_PLATFORM_SITE_URL: undefined,
  CONTENT_PLATFORM_CATALOG_API_KEY: undefined,
};

/**
 * The shipped examples run with plain `node` from node_modules, where Node strips no types: each `examples/<name>.ts`
 * ships as `dist/examples/<name>.js`, starts its own reference server and exits 0. The README's command is
 * `node node_modules/content-platform-sdk/dist/examples/demo.js`.
 */
async function checkExamples(project: Project): Promise<string[]> {
  const pkg = join(project.dir, 'node_modules/content-platform-sdk');
  const sources = readdirSync(join(pkg, 'examples')).filter((f) => f.endsWith('.ts'));
  const built = readdirSync(join(pkg, 'dist/examples')).sort();
  const expected = sources.map((f) => f.replace(/\.ts$/, '.js')).sort();
  if (built.join() !== expected.join())
    throw new Error(
      `dist/examples has ${built.join(', ')}; the shipped examples need ${expected.join(', ')}`,
    );
  const lines: string[] = [];
  for (const file of built) {
    const path = `node_modules/content-platform-sdk/dist/examples/${file}`;
    const { output, ms } = await mustRun('node', [path], {
      cwd: project.dir,
      env: NO_SERVER,
      timeoutMs: 60_000,
    });
    if (file === 'demo.js' && !output.includes('Tour complete.'))
      throw new Error(`node ${path} did not complete the tour:\n${output}`);
    lines.push(`node ${path} exits 0 (${secs(ms)})`);
  }
  return lines;
}

/**
 * The README's command runs the package's own bin from an empty folder: `npx -p content-platform-sdk
 * content-platform-reference-server` (here `-p <tarball>`, `--offline`: only what the npm cache holds). `--version`
 * prints the installed package's version; a run serves, and Ctrl+C (SIGINT to the process group, as a terminal
 * sends it) prints the one-line summary. The tarball is copied to a path of its own, so npx (which keys its cache
 * on the spec) installs this build and not one it cached for a same-named file; its cache entry is removed after.
 */
async function checkNpx(project: Project, tarballPath: string): Promise<string[]> {
  const installed = join(project.dir, 'node_modules/content-platform-sdk/package.json');
  const { version } = JSON.parse(readFileSync(installed, 'utf8')) as { version: string };
  const home = mkdtempSync(join(tmpdir(), 'cpsdk-npx-'));
  const spec = join(home, 'pkg', basename(tarballPath));
  const empty = join(home, 'empty');
  mkdirSync(join(home, 'pkg'));
  mkdirSync(empty);
  copyFileSync(tarballPath, spec);
  const npx = ['--yes', '--offline', '-p', spec, 'content-platform-reference-server'];
  const shown = `npx --yes --offline -p <tarball> content-platform-reference-server`;
  try {
    const asked = await mustRun('npx', [...npx, '--version'], { cwd: empty, timeoutMs: 120_000 });
    if (!asked.output.split('\n').includes(version))
      throw new Error(`\`${shown} --version\` did not print ${version}:\n${asked.output}`);
    const served = await npxRun(npx, empty);
    if (readdirSync(empty).length > 0)
      throw new Error(`npx left files in the empty folder: ${readdirSync(empty)}`);
    return [
      `${shown} --version (empty folder): ${version} (${secs(asked.ms)})`,
      `${shown} --port 0 --json: ${served}`,
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
    await removeNpxEntry(spec);
  }
}

/** Starts the bin through npx, asks it for pixels, sends Ctrl+C's SIGINT to the group, reads the summary line. */
async function npxRun(npx: readonly string[], cwd: string): Promise<string> {
  const child = spawn('npx', [...npx, '--port', '0', '--json'], {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const closed = new Promise<number | null>((done) => child.once('close', (code) => done(code)));
  const group = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // The group is gone already.
    }
  };
  try {
    const info = await new Promise<{ management: { apiRoot: string; keys: string[] } }>((found, fail) => {
      const timer = setTimeout(
        () => fail(new Error(`npx printed no JSON line in 60 s:\n${out}${err}`)),
        60_000,
      );
      child.stdout.on('data', () => {
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (line && out.includes('\n')) {
          clearTimeout(timer);
          found(JSON.parse(line));
        }
      });
      void closed.then((code) => fail(new Error(`npx exited ${code}:\n${out}${err}`)));
    });
    const res = await fetch(`${info.management.apiRoot}/pixels`, {
      headers: { authorization: `Bearer ${info.management.keys[0]}`, accept: 'application/json' },
    });
    if (res.status !== 200) throw new Error(`the bin answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
    group('SIGINT');
    const code = await Promise.race([closed, new Promise((done) => setTimeout(done, 15_000, 'timeout'))]);
    const last = out.trim().split('\n').at(-1) ?? '';
    const summary = last.startsWith('{"stopped"') ? JSON.parse(last) : undefined;
    if (summary?.stopped !== 'SIGINT' || summary.requests !== 1 || summary.rateLimited !== 0)
      throw new Error(`no summary after Ctrl+C (npx: ${code}):\n${out}${err}`);
    return `served, then on Ctrl+C ${last}`;
  } finally {
    group('SIGKILL');
  }
}

/** Removes the npx cache entry of `spec` (npx names it by the spec's hash), after checking it is that entry. */
async function removeNpxEntry(spec: string): Promise<void> {
  const { createHash } = await import('node:crypto');
  const cache = (await mustRun('npm', ['config', 'get', 'cache'])).output.trim().split('\n').at(-1) ?? '';
  const entry = join(cache, '_npx', createHash('sha512').update(spec).digest('hex').slice(0, 16));
  const manifest = join(entry, 'package.json');
  if (!existsSync(manifest)) return;
  const { _npx } = JSON.parse(readFileSync(manifest, 'utf8')) as { _npx?: { packages?: string[] } };
  if (_npx?.packages?.includes(spec)) rmSync(entry, { recursive: true, force: true });
}

interface Consumer {
  name: string;
  project: () => Project;
  extra: readonly string[];
  /** Runs the checks in order, logging a line for each that passed. */
  steps: (p: Project, log: (...lines: string[]) => void) => Promise<void>;
}

const node = (p: Project, file: string) =>
  mustRun('node', [file], { cwd: p.dir, timeoutMs: 60_000 }).then((r) => r.output.trim());
/**
 * The SDK entry declarations each mode must load: the ones its exports conditions name. typesVersions (for
 * node10) must never be used here, or `bundler` would load the `.d.cts`.
 */
const ENTRY_DECLARATIONS = {
  nodenext: ['index.d.cts', 'index.d.ts', 'testing/index.d.cts', 'testing/index.d.ts'],
  bundler: ['index.d.ts', 'testing/index.d.ts'],
};
/** Runs `tsc -p .` with the latest TypeScript or the floor, and checks which SDK declarations it loaded. */
async function tsc(
  p: Project,
  which: keyof typeof TYPESCRIPTS,
  mode: keyof typeof ENTRY_DECLARATIONS,
  ...args: string[]
) {
  const { dir, label } = TYPESCRIPTS[which];
  const bin = join(p.dir, 'node_modules', dir, 'bin/tsc');
  const { code, output } = await run('node', [bin, '-p', '.', '--pretty', 'false', '--listFiles', ...args], {
    cwd: p.dir,
  });
  if (code !== 0) {
    // Without the --listFiles lines: a file name alone, no spaces.
    const errors = output.split('\n').filter((line) => line && !/^\S+\.[cm]?ts$/.test(line));
    throw new Error(
      [`typescript ${label}: tsc -p .`, ...args, `exited ${code}:\n${errors.join('\n')}`].join(' '),
    );
  }
  const loaded = [...output.matchAll(/content-platform-sdk\/dist\/((?:testing\/)?(?:index|msw)\.d\.c?ts)$/gm)]
    .map((m) => m[1])
    .sort();
  if (loaded.join() !== ENTRY_DECLARATIONS[mode].join())
    throw new Error(
      `typescript ${label} loaded ${loaded.join(', ')}, not ${ENTRY_DECLARATIONS[mode].join(', ')}`,
    );
  return [`typescript ${label}: tsc -p .`, ...args, `ok (${mode} declarations)`].join(' ');
}

const consumers: Consumer[] = [
  {
    name: 'esm',
    project: () => createProject('esm', 'module', ['smoke.mjs', 'esm/main.mjs', 'esm/msw.mjs']),
    extra: [MSW, ...OTEL],
    steps: async (p, log) => {
      log(await node(p, 'main.mjs'));
      log(await node(p, 'msw.mjs'));
      log(await checkBin(p));
      log(...(await checkExamples(p)));
      log(...(await checkNpx(p, pkg)));
    },
  },
  {
    name: 'cjs',
    project: () => createProject('cjs', 'commonjs', ['smoke.mjs', 'cjs/main.cjs']),
    extra: [MSW],
    steps: async (p, log) => log(await node(p, 'main.cjs')),
  },
  {
    name: 'ts-nodenext',
    project: () =>
      createProject('ts-nodenext', 'module', ['typescript/consumer.ts', 'typescript/consumer-cjs.cts'], {
        'tsconfig.json': json(tsconfigs.nodenext),
        'misuse.ts': misuseFile,
        'tsconfig.misuse.json': misuseConfig,
      }),
    extra: [TYPESCRIPTS.latest.pkg, TYPESCRIPTS.floor.pkg, TYPES_NODE],
    steps: async (p, log) => {
      log(await tsc(p, 'latest', 'nodenext', '--noEmit'));
      log(await tsc(p, 'floor', 'nodenext', '--noEmit'));
      log(...(await checkMisuses(p)));
      log(await tsc(p, 'latest', 'nodenext'));
      log(await node(p, 'out/consumer.js'));
    },
  },
  {
    name: 'ts-bundler',
    project: () =>
      createProject('ts-bundler', 'module', ['typescript/consumer.ts'], {
        'tsconfig.json': json(tsconfigs.bundler),
        'misuse.ts': misuseFile,
        'tsconfig.misuse.json': misuseConfig,
      }),
    extra: [TYPESCRIPTS.latest.pkg, TYPESCRIPTS.floor.pkg],
    steps: async (p, log) => {
      log(await tsc(p, 'latest', 'bundler'));
      log(await tsc(p, 'floor', 'bundler'));
      log(...(await checkMisuses(p)));
      await build({
        absWorkingDir: p.dir,
        entryPoints: ['consumer.ts'],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node22',
        outfile: 'out/consumer.mjs',
        logLevel: 'error',
      });
      log('esbuild bundle ok');
      log(await node(p, 'out/consumer.mjs'));
    },
  },
  {
    name: 'bundled',
    project: () => createProject('bundled', 'module', ['bundled/handler.mjs']),
    extra: REDIS_CLIENTS,
    steps: async (p, log) => {
      // The fleet guide's esbuild command, through esbuild's API.
      await build({
        absWorkingDir: p.dir,
        entryPoints: ['handler.mjs'],
        bundle: true,
        platform: 'node',
        format: 'esm',
        minify: true,
        outfile: 'out/handler.mjs',
        banner: { js: REQUIRE_BANNER },
        logLevel: 'error',
      });
      // Run from a folder with nothing else in it: the bundle must need no node_modules.
      const alone = mkdtempSync(join(tmpdir(), 'cpsdk-bundled-run-'));
      copyFileSync(join(p.dir, 'out/handler.mjs'), join(alone, 'handler.mjs'));
      const redis = await startRedis();
      try {
        const env = { REDIS_URL: redis.url };
        const { output } = await mustRun('node', ['handler.mjs'], { cwd: alone, env, timeoutMs: 60_000 });
        log("esbuild bundle (the fleet guide's options), run alone ok", output.trim());
      } finally {
        await redis.stop();
        rmSync(alone, { recursive: true, force: true });
      }
    },
  },
];

const only = process.env.CONSUMERS?.split(',');
const selected = consumers.filter((c) => !only || only.includes(c.name));
const started = performance.now();
const pkg = await tarball();
console.log(`consumers of ${pkg}`);

const results = await Promise.all(
  selected.map(async (consumer) => {
    const t0 = performance.now();
    const project = consumer.project();
    const lines: string[] = [];
    try {
      const installed = await project.install(pkg, consumer.extra);
      lines.push(`npm install ${secs(installed.ms)}`);
      await consumer.steps(project, (...more) => lines.push(...more));
      return { name: consumer.name, ok: true, lines, ms: performance.now() - t0 };
    } catch (error) {
      lines.push(String(error instanceof Error ? error.message : error));
      return { name: consumer.name, ok: false, lines, ms: performance.now() - t0 };
    } finally {
      project.remove();
    }
  }),
);

for (const r of results) {
  console.log(`\n${r.ok ? 'PASS' : 'FAIL'} ${r.name} (${secs(r.ms)})`);
  for (const line of r.lines) console.log(`  ${line.replaceAll('\n', '\n  ')}`);
}
const failed = results.filter((r) => !r.ok).length;
const total = secs(performance.now() - started);
console.log(
  `\nconsumers: ${failed === 0 ? `all ${results.length} pass` : `${failed} of ${results.length} FAIL`} (${total})`,
);
process.exitCode = failed > 0 ? 1 : 0;
