// Runs one of the benchmark's calls in a loop for a CPU profile of the client alone (the server runs in a child
// process, bench/server.ts: the answers of sections 1–3, the real servers' shapes):
//
//   node bench/profile.ts <variants> <get|list|items|validate> [calls] [--concurrency N] [--replay | --canned]
//     [--out <dir>] [--blocks N]
//
// `<variants>` is one of sdk, ky, fetch, openai, or several joined by commas (`sdk,ky`). The calls are section 1's
// (bench/lib/calls.ts), 64 at a time by default; `--concurrency 1` makes them one at a time, as section 1 does.
// `--replay` calls the replay server (the same bytes, next to no server work); `--canned` answers from memory, as
// section 1b does (no socket, no server). `calls` is per variant.
//
// `--out <dir>` profiles the timed calls only (after a warm-up of a tenth of them), through node:inspector: the calls
// run in `--blocks` blocks (default 10), the variants' blocks alternating, each block its own profile in
// `<dir>/<variant>/`, so drift on a shared machine reaches every variant alike. Without it, `node --cpu-prof`
// profiles the whole process. Summarise with
//   node bench/cpu-top.mjs <dir>/sdk 25 --calls <calls> --vs <dir>/ky
//
// `--heap` samples what the timed calls allocate instead (V8's sampling heap profiler, every 512 bytes on average,
// objects a minor or major GC collected included), in `--blocks` blocks as for `--out`, and prints each variant's
// bytes a call, then the functions whose allocations differ most between the first two variants: where the extra
// garbage collection of one comes from.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Call, operations, VARIANTS } from './lib/calls.ts';
import { answerer, benchServer, keysOf, record } from './lib/reference.ts';
import type { ServerInfo } from './lib/server.ts';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    concurrency: { type: 'string', default: '64' },
    replay: { type: 'boolean', default: false },
    canned: { type: 'boolean', default: false },
    out: { type: 'string' },
    blocks: { type: 'string', default: '10' },
    heap: { type: 'boolean', default: false },
  },
});
const [variantsArg = 'sdk', op = 'get', callsArg = '20000'] = positionals;
const variants = variantsArg.split(',');
const calls = Number(callsArg);
const concurrency = Number(args.concurrency);
const blocks = args.out || args.heap ? Number(args.blocks) : 1;
const OPS: Record<string, string> = {
  get: 'pixels.get',
  list: 'pixels.list (100)',
  items: 'items.list (59)',
  validate: 'purchases.validate',
};
const unknown = variants.find((v) => !(VARIANTS as readonly string[]).includes(v));
if (unknown !== undefined || !OPS[op])
  throw new Error(`unknown ${variantsArg} ${op}: <${VARIANTS.join('|')}>[,…] <get|list|items|validate>`);

/** The server's URL and keys (a child process), or a canned fetch with its answers. */
async function endpoint() {
  if (args.canned) {
    const server = benchServer();
    const base = 'http://127.0.0.1:8';
    const answer = answerer(await record(server, base));
    const fetch = async (input: Request | string | URL) => {
      const response = answer(input instanceof Request ? input.url : String(input));
      if (!response) throw new Error(`no canned answer for ${String(input)}`);
      return response;
    };
    return { endpoint: { base, ...keysOf(server), fetch }, stop: () => {} };
  }
  const child = spawn(process.execPath, [fileURLToPath(new URL('server.ts', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  let line = '';
  for await (const l of createInterface({ input: child.stdout as NodeJS.ReadableStream })) {
    line = l;
    break;
  }
  const info = JSON.parse(line) as ServerInfo;
  const base = args.replay ? info.replay : info.small;
  const { managementKey, catalogKey, purchaseCode } = info;
  return { endpoint: { base, managementKey, catalogKey, purchaseCode }, stop: () => child.kill('SIGTERM') };
}

const { endpoint: target, stop } = await endpoint();
const operation = operations(target).find((o) => o.name === OPS[op]);
const callOf = (variant: string) =>
  operation?.calls[(VARIANTS as readonly string[]).indexOf(variant)] as Call;
const loop = async (call: Call, n: number) => {
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      for (let i = w; i < n; i += concurrency) await call();
    }),
  );
};

/** A sampling heap profile's node: what its function allocated itself, and its callees. */
interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}
// With --heap: bytes allocated by function (`name file:line`), by variant, over the timed calls.
const allocated = new Map(variants.map((v) => [v, new Map<string, number>()]));
const addHeap = (into: Map<string, number>, node: HeapNode) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const key = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
  into.set(key, (into.get(key) ?? 0) + node.selfSize);
  for (const child of node.children) addHeap(into, child);
};

let session: Session | undefined;
if (args.out || args.heap) {
  for (const v of variants) await loop(callOf(v), Math.round(calls / 10));
  session = new Session();
  session.connect();
}
if (args.out) {
  for (const v of variants) mkdirSync(`${args.out}/${v}`, { recursive: true });
  await session?.post('Profiler.enable');
}
const spent = new Map(variants.map((v) => [v, { cpu: 0, ms: 0 }]));
for (let block = 0; block < blocks; block += 1) {
  for (let k = 0; k < variants.length; k += 1) {
    const variant = variants[(block + k) % variants.length] as string;
    const n = Math.round(calls / blocks);
    if (args.out) await session?.post('Profiler.start');
    if (args.heap)
      await session?.post('HeapProfiler.startSampling', {
        samplingInterval: 512,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      } as never);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await loop(callOf(variant), n);
    const cpu = process.cpuUsage(cpu0);
    const ms = performance.now() - t0;
    if (session && args.heap) {
      const { profile } = await session.post('HeapProfiler.stopSampling');
      addHeap(allocated.get(variant) as Map<string, number>, profile.head as unknown as HeapNode);
    }
    if (session && args.out) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(`${args.out}/${variant}/${block}.cpuprofile`, JSON.stringify(profile));
    }
    const s = spent.get(variant) as { cpu: number; ms: number };
    s.cpu += cpu.user + cpu.system;
    s.ms += ms;
  }
}
session?.disconnect();
const where = args.replay ? ' (replayed)' : args.canned ? ' (canned)' : '';
for (const [variant, s] of spent) {
  console.log(
    `${variant} ${op}${where}: ${calls} calls at concurrency ${concurrency}, ${Math.round(calls / (s.ms / 1000))} ` +
      `req/s, client CPU ${(s.cpu / calls) | 0} µs/call${args.out || args.heap ? ' (profiled)' : ''}`,
  );
}
if (args.heap) {
  const perCall = (bytes: number) => Math.round(bytes / calls);
  const total = (v: string) =>
    [...(allocated.get(v) as Map<string, number>).values()].reduce((a, b) => a + b, 0);
  for (const v of variants) console.log(`${v}: ${perCall(total(v))} bytes allocated a call`);
  const [a, b] = variants as [string, string | undefined];
  if (b !== undefined) {
    const mine = allocated.get(a) as Map<string, number>;
    const theirs = allocated.get(b) as Map<string, number>;
    const rows = [...new Set([...mine.keys(), ...theirs.keys()])]
      .map((k) => [k, perCall(mine.get(k) ?? 0), perCall(theirs.get(k) ?? 0)] as const)
      .sort((x, y) => Math.abs(y[1] - y[2]) - Math.abs(x[1] - x[2]))
      .slice(0, 25);
    console.log(`\n| function (bytes a call) | ${a} | ${b} | difference |\n|---|---:|---:|---:|`);
    for (const [k, x, y] of rows) console.log(`| ${k} | ${x} | ${y} | ${x - y > 0 ? '+' : ''}${x - y} |`);
  }
}
stop();
