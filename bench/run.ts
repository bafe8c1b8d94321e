// The benchmark suite (`npm run bench`): the built SDK (dist/, plain node) side by side with bare ky and raw
// fetch against the reference server's node:http adapter on 127.0.0.1, in a separate process. Prints a table
// and writes bench/RESULTS.md. Never part of `npm test`.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { CatalogClient, ManagementClient } from 'content-platform-sdk';
import { createReferenceServer } from 'content-platform-sdk/testing';
import { build } from 'esbuild';
import ky from 'ky';
import { measure } from 'mitata';
import { safeParse, type $ZodType as ZodType } from 'zod/v4/core';

const root = fileURLToPath(new URL('..', import.meta.url));
const quick = process.argv.includes('--quick');
const scale = quick ? 0.2 : 1;

// ---------- statistics ----------
const median = (xs: readonly number[]) => quantile(xs, 0.5);
function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return (s[lo] as number) + ((s[hi] as number) - (s[lo] as number)) * (pos - lo);
}
const fx = (n: number, d = 2) => n.toFixed(d);
const us = (ms: number) => `${fx(ms * 1000, 0)} µs`;

// ---------- the server, in its own process ----------
interface ServerInfo {
  small: string;
  big: string;
  managementKey: string;
  catalogKey: string;
  purchaseCode: string;
  walkTotal: number;
}

async function startServer(): Promise<{ info: ServerInfo; child: ChildProcess }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('server.ts', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) return { info: JSON.parse(line) as ServerInfo, child };
  throw new Error('the benchmark server exited before it listened');
}

// ---------- 1. per-call latency, interleaved ----------
interface Variant {
  name: string;
  call: () => Promise<unknown>;
}
interface LatencyResult {
  name: string;
  wall: number[];
  cpu: number[];
}

/**
 * Calls each variant once per round, in an order that rotates every round, so drift on a noisy machine hits
 * every variant alike. Records wall time and this process's CPU time (user + system) of every call.
 */
async function interleaved(variants: Variant[], rounds: number, warmup: number): Promise<LatencyResult[]> {
  const results = variants.map((v) => ({ name: v.name, wall: [] as number[], cpu: [] as number[] }));
  for (let round = -warmup; round < rounds; round += 1) {
    for (let k = 0; k < variants.length; k += 1) {
      const i = (((round + k) % variants.length) + variants.length) % variants.length;
      const variant = variants[i] as Variant;
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await variant.call();
      const wall = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      if (round >= 0) {
        (results[i] as LatencyResult).wall.push(wall);
        (results[i] as LatencyResult).cpu.push((cpu.user + cpu.system) / 1000);
      }
    }
  }
  return results;
}

/** Median of the per-round ratios a[i] / b[i] (the two calls of one round ran back to back). */
function pairedRatio(a: readonly number[], b: readonly number[]): number {
  return median(a.map((x, i) => x / (b[i] as number)));
}

// ---------- 2. throughput ----------
/** Requests per second with `concurrency` calls in flight for `ms`, and this process's CPU µs per request. */
async function throughput(call: () => Promise<unknown>, concurrency: number, ms: number) {
  let done = 0;
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const end = started + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await call();
        done += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return {
    rps: done / seconds,
    cpuPerRequest: (cpu.user + cpu.system) / done,
    busy: (cpu.user + cpu.system) / 1e6 / seconds,
  };
}

// ---------- 1b. the layers alone ----------
/**
 * Per-call cost of each layer with no socket and no server work: every variant gets the same canned answer
 * from an in-memory fetch. Batches of 100 calls, variants interleaved, medians.
 */
async function layers(rounds: number) {
  const server = createReferenceServer({ seed: { pixels: 188, items: 50 } });
  const base = 'http://127.0.0.1:9';
  const key = server.keys.management[0] as string;
  const ckey = server.keys.catalog[0] as string;
  const code = server.fixtures.purchaseCodes.supported;
  const h = { accept: 'application/json', authorization: `Bearer ${key}` };
  const canned = new Map<string, { text: string; headers: [string, string][]; status: number }>();
  const grab = async (path: string, init: RequestInit = {}) => {
    const r = await server.fetch(new Request(`${base}${path}`, init));
    canned.set(path.split('?')[0] as string, {
      text: await r.text(),
      headers: [...r.headers],
      status: r.status,
    });
  };
  await grab('/api/v1/pixels/1', { headers: h });
  await grab('/api/v1/pixels?per_page=100', { headers: h });
  await grab(`/api/items/all?api_key=${ckey}`);
  const validation = JSON.stringify({ purchase_code: code, api_key: ckey });
  await grab('/api/purchases/validation', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: validation,
  });
  const fake = async (input: Request | string | URL) => {
    const c = canned.get(new URL(input instanceof Request ? input.url : String(input)).pathname);
    if (!c) throw new Error(`no canned answer for ${String(input)}`);
    return new Response(c.text, { status: c.status, headers: c.headers });
  };
  const json = (p: Promise<Response>) => p.then((r) => r.json());
  const mgmt = new ManagementClient({ baseUrl: base, apiKey: key, fetch: fake });
  const catalog = new CatalogClient({ siteUrl: base, apiKey: ckey, fetch: fake });
  const kyM = ky.create({ prefix: `${base}/api/v1/`, headers: h, fetch: fake });
  const kyC = ky.create({ prefix: `${base}/api/`, headers: { accept: 'application/json' }, fetch: fake });
  const ops: [string, (() => Promise<unknown>)[]][] = [
    [
      'pixels.get',
      [
        () => mgmt.pixels.get(1),
        () => kyM.get('pixels/1').json(),
        () => json(fake(`${base}/api/v1/pixels/1`)),
      ],
    ],
    [
      'pixels.list (100)',
      [
        () => mgmt.pixels.list({ per_page: 100 }),
        () => kyM.get('pixels', { searchParams: { per_page: 100 } }).json(),
        () => json(fake(`${base}/api/v1/pixels?per_page=100`)),
      ],
    ],
    [
      'items.list (59)',
      [
        () => catalog.items.list(),
        () => kyC.get('items/all', { searchParams: { api_key: ckey } }).json(),
        () => json(fake(`${base}/api/items/all?api_key=${ckey}`)),
      ],
    ],
    [
      'purchases.validate',
      [
        () => catalog.purchases.validate(code),
        () => kyC.post('purchases/validation', { json: { purchase_code: code, api_key: ckey } }).json(),
        () => json(fake(`${base}/api/purchases/validation`)),
      ],
    ],
  ];
  const out: { name: string; sdk: number; ky: number; fetch: number }[] = [];
  for (const [name, calls] of ops) {
    const times = calls.map(() => [] as number[]);
    for (let round = -3; round < rounds; round += 1) {
      for (const [i, call] of calls.entries()) {
        const t = performance.now();
        for (let k = 0; k < 100; k += 1) await call();
        if (round >= 0) times[i]?.push((performance.now() - t) / 100);
      }
    }
    const [sdk, kyT, fetchT] = times.map(median) as [number, number, number];
    out.push({ name, sdk, ky: kyT, fetch: fetchT });
  }
  return out;
}

// ---------- 3. validation alone ----------

/**
 * Bundles the SDK's schema modules from src (zod left external, so it is the installed zod) for timing.
 * `plainMini`: the same schemas with zod/mini's own object instead of src/core/schema.ts's fast one.
 */
/** The response schemas and `compiled()` of src, bundled (zod external) and imported. */
async function loadSchemas(): Promise<{
  PixelPageSchema: ZodType;
  ItemsEnvelopeSchema: ZodType;
  compiled: (schema: ZodType) => ZodType;
}> {
  const out = await build({
    stdin: {
      contents:
        "export { PixelPageSchema } from './src/management/schemas.ts';\n" +
        "export { ItemsEnvelopeSchema } from './src/catalog/schemas.ts';\n" +
        "export { compiled } from './src/core/schema.ts';",
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    write: false,
  });
  const code = out.outputFiles[0]?.text ?? '';
  // Written inside the repository, so `zod` resolves to the project's own copy.
  mkdirSync(`${root}node_modules/.cache`, { recursive: true });
  const file = `${root}node_modules/.cache/content-platform-bench-schemas.mjs`;
  writeFileSync(file, code);
  return import(pathToFileURL(file).href);
}

async function micro(fn: () => unknown): Promise<number> {
  const stats = await measure(fn);
  return stats.p50 / 1000; // ns → µs
}

// ---------- 5. cold start ----------
function importMs(specifiers: string[]): { importMs: number; processMs: number } {
  const code =
    'const t = performance.now();' +
    specifiers.map((s) => `await import(${JSON.stringify(s)});`).join('') +
    'process.stdout.write(String(performance.now() - t));';
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  const processMs = performance.now() - t;
  if (r.status !== 0) throw new Error(`cold start child failed: ${r.stderr}`);
  return { importMs: Number(r.stdout), processMs };
}

// ---------- 6. size ----------
async function bundleSize(contents: string) {
  const out = await build({
    stdin: { contents, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    metafile: true,
  });
  const bytes = out.outputFiles[0]?.contents ?? new Uint8Array();
  const byPackage: Record<string, number> = {};
  for (const output of Object.values(out.metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const pkg = /node_modules\/(@[^/]+\/[^/]+|[^/]+)/.exec(input)?.[1] ?? 'content-platform-sdk';
      byPackage[pkg] = (byPackage[pkg] ?? 0) + bytesInOutput;
    }
  }
  return {
    minified: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    byPackage,
  };
}

// ---------- the run ----------
async function main() {
  const started = new Date();
  const { info, child } = await startServer();
  const lines: string[] = [];
  const say = (line = '') => {
    console.log(line);
    lines.push(line);
  };
  try {
    const mgmtHeaders = {
      accept: 'application/json',
      'user-agent': 'content-platform-sdk/bench',
      authorization: `Bearer ${info.managementKey}`,
    };
    const catHeaders = { accept: 'application/json', 'user-agent': 'content-platform-sdk/bench' };
    const mgmt = new ManagementClient({ baseUrl: info.small, apiKey: info.managementKey });
    const catalog = new CatalogClient({ siteUrl: info.small, apiKey: info.catalogKey });
    const kyMgmt = ky.create({ prefix: `${info.small}/api/v1/`, headers: mgmtHeaders });
    const kyCat = ky.create({ prefix: `${info.small}/api/`, headers: catHeaders });
    const raw = async (url: string, init: RequestInit) => {
      const res = await fetch(url, init);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return res.json();
    };
    const validateBody = () => JSON.stringify({ purchase_code: info.purchaseCode, api_key: info.catalogKey });
    const postJson = { ...catHeaders, 'content-type': 'application/json' };

    const cases: { name: string; rounds: number; variants: Variant[]; check: (r: unknown[]) => boolean }[] = [
      {
        name: 'pixels.get',
        rounds: 3000,
        variants: [
          { name: 'sdk', call: () => mgmt.pixels.get(1) },
          { name: 'ky', call: () => kyMgmt.get('pixels/1').json() },
          { name: 'fetch', call: () => raw(`${info.small}/api/v1/pixels/1`, { headers: mgmtHeaders }) },
        ],
        check: (r) => (r[0] as { id: number }).id === 1,
      },
      {
        name: 'pixels.list (100)',
        rounds: 1500,
        variants: [
          { name: 'sdk', call: () => mgmt.pixels.list({ per_page: 100 }) },
          { name: 'ky', call: () => kyMgmt.get('pixels', { searchParams: { per_page: 100 } }).json() },
          {
            name: 'fetch',
            call: () => raw(`${info.small}/api/v1/pixels?per_page=100`, { headers: mgmtHeaders }),
          },
        ],
        check: (r) => (r[0] as { data: unknown[] }).data.length === 100,
      },
      {
        name: 'items.list (59)',
        rounds: 1500,
        variants: [
          { name: 'sdk', call: () => catalog.items.list() },
          {
            name: 'ky',
            call: () => kyCat.get('items/all', { searchParams: { api_key: info.catalogKey } }).json(),
          },
          {
            name: 'fetch',
            call: () =>
              raw(`${info.small}/api/items/all?api_key=${info.catalogKey}`, { headers: catHeaders }),
          },
        ],
        check: (r) => (r[0] as unknown[]).length >= 50,
      },
      {
        name: 'purchases.validate',
        rounds: 3000,
        variants: [
          { name: 'sdk', call: () => catalog.purchases.validate(info.purchaseCode) },
          {
            name: 'ky',
            call: () =>
              kyCat
                .post('purchases/validation', {
                  json: { purchase_code: info.purchaseCode, api_key: info.catalogKey },
                })
                .json(),
          },
          {
            name: 'fetch',
            call: () =>
              raw(`${info.small}/api/purchases/validation`, {
                method: 'POST',
                headers: postJson,
                body: validateBody(),
              }),
          },
        ],
        check: (r) => (r[0] as { purchase_code: string }).purchase_code === info.purchaseCode,
      },
    ];

    say(`# content-platform-sdk benchmark`);
    say();
    const cpu = os.cpus();
    const machine = {
      cpu: `${cpu[0]?.model.trim() ?? 'unknown'} × ${cpu.length} (${os.availableParallelism()} available)`,
      node: process.version,
      os: `${os.type()} ${os.release()} ${os.arch()}`,
      date: started.toISOString(),
    };
    say(`- CPU: ${machine.cpu}`);
    say(
      `- Node: ${machine.node} (${machine.os}); ky ${pkgVersion('ky')}, zod ${pkgVersion('zod')}, mitata ${pkgVersion('mitata')}`,
    );
    say(`- Date: ${machine.date}${quick ? ' (quick run: fewer rounds)' : ''}`);
    say(
      `- The SDK under test is the built ESM entry (dist/index.js) run by plain node; the reference server runs`,
    );
    say(`  in a child process on 127.0.0.1 (node:http), so client timings and heap are the client's own.`);
    say();

    // 1. latency
    say('## 1. Per-call latency (interleaved, rotating order, medians)');
    say();
    say("Wall = full round trip (server included); client CPU = this process's CPU time for the call.");
    say();
    say(
      '| call | SDK | bare ky | raw fetch | SDK / ky | SDK / ky (paired) | ky / fetch | client CPU SDK · ky · fetch |',
    );
    say('|---|---:|---:|---:|---:|---:|---:|---:|');
    const latency: Record<string, { sdkKy: number; pairedSdkKy: number; kyFetch: number }> = {};
    for (const c of cases) {
      const answers = await Promise.all(c.variants.map((v) => v.call()));
      if (!c.check(answers))
        throw new Error(`${c.name}: unexpected answer ${JSON.stringify(answers[0]).slice(0, 200)}`);
      const rounds = Math.max(100, Math.round(c.rounds * scale));
      const [sdk, kyR, fetchR] = (await interleaved(c.variants, rounds, Math.round(rounds / 10))) as [
        LatencyResult,
        LatencyResult,
        LatencyResult,
      ];
      const m = (r: LatencyResult) => median(r.wall);
      const sdkKy = m(sdk) / m(kyR);
      const pairedSdkKy = pairedRatio(sdk.wall, kyR.wall);
      const kyFetch = m(kyR) / m(fetchR);
      latency[c.name] = { sdkKy, pairedSdkKy, kyFetch };
      say(
        `| ${c.name} | ${us(m(sdk))} | ${us(m(kyR))} | ${us(m(fetchR))} | ${fx(sdkKy)}× | ${fx(pairedSdkKy)}× | ${fx(kyFetch)}× | ` +
          `${us(median(sdk.cpu))} · ${us(median(kyR.cpu))} · ${us(median(fetchR.cpu))} |`,
      );
    }
    say();

    // 1b. layers
    say('## 1b. The layers alone: the same canned answer from an in-memory fetch (no socket, no server)');
    say();
    say('Batches of 100 calls, variants interleaved, medians. What each layer costs this process per call.');
    say();
    say('| call | SDK | bare ky | fetch + res.json() | SDK − ky |');
    say('|---|---:|---:|---:|---:|');
    for (const r of await layers(quick ? 8 : 25)) {
      say(`| ${r.name} | ${us(r.sdk)} | ${us(r.ky)} | ${us(r.fetch)} | ${us(r.sdk - r.ky)} |`);
    }
    say();

    // 2. throughput
    say('## 2. Throughput at concurrency 64 (1 s rounds, order rotating, medians)');
    say();
    say("Client CPU = this process's CPU time per request; busy = share of one core this process used.");
    say();
    say(
      '| call | SDK req/s | bare ky req/s | raw fetch req/s | SDK / fetch (paired) | ky / fetch (paired) | client CPU per request SDK · ky · fetch | busy SDK · ky · fetch |',
    );
    say('|---|---:|---:|---:|---:|---:|---:|---:|');
    const tput: Record<string, number> = {};
    const tputCases: [string, (() => Promise<unknown>)[]][] = [
      [
        'pixels.get',
        [
          () => mgmt.pixels.get(1),
          () => kyMgmt.get('pixels/1').json(),
          () => raw(`${info.small}/api/v1/pixels/1`, { headers: mgmtHeaders }),
        ],
      ],
      [
        'pixels.list (100)',
        [
          () => mgmt.pixels.list({ per_page: 100 }),
          () => kyMgmt.get('pixels', { searchParams: { per_page: 100 } }).json(),
          () => raw(`${info.small}/api/v1/pixels?per_page=100`, { headers: mgmtHeaders }),
        ],
      ],
    ];
    const tputRounds = quick ? 2 : 6;
    for (const [name, calls] of tputCases) {
      for (const call of calls) await throughput(call, 64, 500);
      const runs = calls.map(() => [] as { rps: number; cpuPerRequest: number; busy: number }[]);
      for (let round = 0; round < tputRounds; round += 1) {
        for (let k = 0; k < calls.length; k += 1) {
          const i = (round + k) % calls.length;
          runs[i]?.push(await throughput(calls[i] as () => Promise<unknown>, 64, 1000));
        }
      }
      const [s, k, f] = runs as [(typeof runs)[0], (typeof runs)[0], (typeof runs)[0]];
      const rps = (r: typeof s) => r.map((x) => x.rps);
      tput[name] = pairedRatio(rps(s), rps(f));
      const kyRatio = pairedRatio(rps(k), rps(f));
      const cpu = (r: typeof s) => us(median(r.map((x) => x.cpuPerRequest)) / 1000);
      const busy = (r: typeof s) => `${fx(median(r.map((x) => x.busy)) * 100, 0)}%`;
      say(
        `| ${name} | ${fx(median(rps(s)), 0)} | ${fx(median(rps(k)), 0)} | ${fx(median(rps(f)), 0)} | ${fx(tput[name] as number)}× | ${fx(kyRatio)}× | ` +
          `${cpu(s)} · ${cpu(k)} · ${cpu(f)} | ${busy(s)} · ${busy(k)} · ${busy(f)} |`,
      );
    }
    say();

    // 3. validation
    say('## 3. Validation alone (mitata, p50; the schemas bundled from src)');
    say();
    const pageText = await (
      await fetch(`${info.small}/api/v1/pixels?per_page=100`, { headers: mgmtHeaders })
    ).text();
    const itemsText = await (
      await fetch(`${info.small}/api/items/all?api_key=${info.catalogKey}`, { headers: catHeaders })
    ).text();
    const pageBody = JSON.parse(pageText) as { data: unknown[] };
    const itemsBody = JSON.parse(itemsText) as { items: unknown[] };
    say(
      '| body | SDK: compiled schema (`z.compile`) | the same schema, zod/mini runtime parser | JSON.parse of the same text |',
    );
    say('|---|---:|---:|---:|');
    const validation: Record<string, number> = {};
    const schemas = await loadSchemas();
    for (const [label, key, body, text] of [
      [
        `${pageBody.data.length} pixels (${fx(pageText.length / 1024, 1)} KB)`,
        'PixelPageSchema',
        pageBody,
        pageText,
      ],
      [
        `${itemsBody.items.length} items (${fx(itemsText.length / 1024, 1)} KB)`,
        'ItemsEnvelopeSchema',
        itemsBody,
        itemsText,
      ],
    ] as const) {
      const runtime = schemas[key];
      const fast = schemas.compiled(runtime);
      if (fast === runtime) throw new Error(`${key} did not compile`);
      if (!safeParse(fast, body).success || !safeParse(runtime, body).success) {
        throw new Error(`${key} rejects the server's body`);
      }
      const t = {
        fast: await micro(() => safeParse(fast, body)),
        plain: await micro(() => safeParse(runtime, body)),
        json: await micro(() => JSON.parse(text)),
      };
      validation[key] = t.fast;
      say(`| ${label} | ${fx(t.fast, 1)} µs | ${fx(t.plain, 1)} µs | ${fx(t.json, 1)} µs |`);
    }
    say();

    // 4. walk
    say(
      `## 4. \`for await\` over ${info.walkTotal.toLocaleString('en')} pixels (per_page 100, separate process)`,
    );
    say();
    const walkRun = spawnSync(
      process.execPath,
      ['--expose-gc', fileURLToPath(new URL('walk.ts', import.meta.url)), info.big, info.managementKey],
      { encoding: 'utf8', maxBuffer: 1 << 20 },
    );
    if (walkRun.status !== 0) throw new Error(`walk failed: ${walkRun.stderr}`);
    type Walk = {
      count: number;
      itemsPerSecond: number;
      heapBeforeMb: number;
      retainedGrowthMb: number;
      peakGrowthMb: number;
      samplesMb: number[];
    };
    const walk = JSON.parse(walkRun.stdout) as { sdk: Walk; raw: Walk };
    say('| walk | items | items/s | heap at start | retained growth (post-GC max) | peak growth (pre-GC) |');
    say('|---|---:|---:|---:|---:|---:|');
    for (const [name, w] of [
      ['SDK for await', walk.sdk],
      ['raw fetch pages', walk.raw],
    ] as const) {
      say(
        `| ${name} | ${w.count.toLocaleString('en')} | ${fx(w.itemsPerSecond, 0)} | ${fx(w.heapBeforeMb, 1)} MB | ${fx(w.retainedGrowthMb, 1)} MB | ${fx(w.peakGrowthMb, 1)} MB |`,
      );
    }
    say();
    say(
      `SDK heap after GC every 20 000 items: ${walk.sdk.samplesMb.map((x) => `${fx(x, 1)}`).join(' → ')} MB.`,
    );
    say();

    // 5. cold start
    say('## 5. Cold start: importing in a fresh process (medians)');
    say();
    const resolve = (s: string) => import.meta.resolve(s);
    const entry = pathToFileURL(`${root}dist/index.js`).href;
    const zodEntries = zodSpecifiers();
    const cold: Record<string, string[]> = {
      'content-platform-sdk (dist/index.js)': [entry],
      [`${zodEntries.join(' + ')} alone (the SDK's only dependency)`]: zodEntries.map(resolve),
      [`ky + ${zodEntries.join(' + ')} alone`]: ['ky', ...zodEntries].map(resolve),
      'ky alone': [resolve('ky')],
      'node, importing nothing': [],
    };
    const coldRuns = quick ? 8 : 30;
    const coldResults: Record<string, { importMs: number[]; processMs: number[] }> = {};
    for (const name of Object.keys(cold)) coldResults[name] = { importMs: [], processMs: [] };
    for (let i = 0; i < coldRuns + 2; i += 1) {
      for (const [name, specs] of Object.entries(cold)) {
        const r = importMs(specs);
        if (i < 2) continue; // warm the disk cache
        coldResults[name]?.importMs.push(r.importMs);
        coldResults[name]?.processMs.push(r.processMs);
      }
    }
    say('| import | import time | whole process (spawn to exit) |');
    say('|---|---:|---:|');
    for (const [name, r] of Object.entries(coldResults)) {
      say(`| ${name} | ${fx(median(r.importMs), 1)} ms | ${fx(median(r.processMs), 1)} ms |`);
    }
    const sdkCold = median(coldResults['content-platform-sdk (dist/index.js)']?.importMs ?? []);
    const depsCold = median(Object.values(coldResults)[1]?.importMs ?? []);
    say();
    say(`The SDK's own modules add ${fx(sdkCold - depsCold, 1)} ms over importing its dependencies.`);
    say();

    // 6. size
    say('## 6. Size: the ESM entry with its dependencies (esbuild --bundle --minify, brotli q11)');
    say();
    const sdkSize = await bundleSize(`export * from ${JSON.stringify(`${root}dist/index.js`)};`);
    const kySize = await bundleSize("export * from 'ky'; export { default } from 'ky';");
    say('| bundle | minified | gzip | brotli |');
    say('|---|---:|---:|---:|');
    say(
      `| dist/index.js + zod (every export) | ${kb(sdkSize.minified)} | ${kb(sdkSize.gzip)} | ${kb(sdkSize.brotli)} |`,
    );
    say(
      `| ky alone (every export; not a dependency, for scale) | ${kb(kySize.minified)} | ${kb(kySize.gzip)} | ${kb(kySize.brotli)} |`,
    );
    say();
    say(
      `Minified bytes by package in the SDK bundle: ${Object.entries(sdkSize.byPackage)
        .map(([k, v]) => `${k} ${kb(v)}`)
        .join(', ')}.`,
    );
    say();

    // targets
    const get = latency['pixels.get'] as { sdkKy: number };
    const list = latency['pixels.list (100)'] as { sdkKy: number };
    const targets: [string, string, boolean][] = [
      ['SDK / bare ky, pixels.get', `${fx(get.sdkKy)}× (≤ 1.05×)`, get.sdkKy <= 1.05],
      ['SDK / bare ky, pixels.list 100', `${fx(list.sdkKy)}× (≤ 1.10×)`, list.sdkKy <= 1.1],
      ...Object.entries(tput).map(
        ([name, r]) =>
          [`throughput c=64 SDK / fetch, ${name}`, `${fx(r)}× (≥ 0.85×)`, r >= 0.85] as [
            string,
            string,
            boolean,
          ],
      ),
      [
        `heap growth over ${info.walkTotal.toLocaleString('en')} pixels`,
        `${fx(walk.sdk.retainedGrowthMb, 1)} MB retained, ${fx(walk.sdk.peakGrowthMb, 1)} MB peak (< 20 MB)`,
        walk.sdk.retainedGrowthMb < 20 && walk.sdk.peakGrowthMb < 20,
      ],
      ['ESM entry + deps, brotli', `${kb(sdkSize.brotli)} (≤ 30 KB)`, sdkSize.brotli <= 30 * 1024],
    ];
    say('## Targets');
    say();
    say('| target | this run | met |');
    say('|---|---:|:---:|');
    for (const [name, value, ok] of targets) say(`| ${name} | ${value} | ${ok ? 'yes' : '**no**'} |`);
    say();

    // The decisions and their before/after figures are kept by hand next to this file.
    const decisionsText = readFileSync(new URL('decisions.md', import.meta.url), 'utf8');
    writeFileSync(
      new URL('RESULTS.md', import.meta.url),
      `${lines.join('\n')}\n${decisionsText}\n## Reproduce\n\n\`npm run bench\` (builds dist/ with tsup, then runs \`node bench/run.ts\`; about two minutes).\n`,
    );
    // The repository's formatter owns Markdown layout (aligned tables); the numbers are untouched.
    spawnSync(`${root}node_modules/.bin/biome`, [
      'format',
      '--write',
      fileURLToPath(new URL('RESULTS.md', import.meta.url)),
    ]);
    console.log('\nwrote bench/RESULTS.md');
  } finally {
    child.kill('SIGTERM');
  }
}

function kb(bytes: number): string {
  return `${fx(bytes / 1024, 1)} KB`;
}

function pkgVersion(name: string): string {
  return (JSON.parse(readFileSync(`${root}node_modules/${name}/package.json`, 'utf8')) as { version: string })
    .version;
}

/** The zod entry points the built SDK imports (zod classic, zod/mini, zod/v4/core…), read from dist. */
function zodSpecifiers(): string[] {
  const code = readFileSync(`${root}dist/index.js`, 'utf8');
  return [...new Set([...code.matchAll(/from ['"](zod[^'"]*)['"]/g)].map((m) => m[1] as string))];
}

await main();
