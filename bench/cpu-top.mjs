// Summarises V8 CPU profiles: one written by `node --cpu-prof --cpu-prof-dir=<dir> bench/profile.ts …`, or the
// blocks `bench/profile.ts … --out <dir>` writes for one variant (every .cpuprofile of the folder, added up):
//   node bench/cpu-top.mjs <dir or file> [rows] [--calls N] [--vs <dir or file>]
// prints the functions with the most self time, then the files with the most inclusive time. With `--calls N` (the
// profiled calls), times are also given in µs a call. With `--vs <dir>`, a baseline profiled over as many calls (bare
// ky's, say), it prints where the first one's extra time goes instead: self time a call by group (the SDK's own code,
// its parsers generated at build time or, in older builds, compiled with `new Function`, zod, ky, undici, node, GC,
// idle) in each and the difference, then the functions whose self time differs most. JSON.parse has no frame of its
// own: it counts in its caller (the SDK's `decodeAnswer`, ky's `json()`).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: { calls: { type: 'string' }, vs: { type: 'string' } },
});
const [dir = '.', rowsArg = '25'] = positionals;
const rows = Number(rowsArg);
const calls = args.calls === undefined ? undefined : Number(args.calls);

/** The profiles at `from` (a file, or every .cpuprofile in a folder), each with its time by node. */
function load(from) {
  const files = statSync(from).isFile()
    ? [from]
    : readdirSync(from)
        .filter((name) => name.endsWith('.cpuprofile'))
        .map((name) => `${from}/${name}`)
        .sort();
  if (files.length === 0) throw new Error(`no .cpuprofile in ${from}`);
  const profiles = files.map((file) => {
    const profile = JSON.parse(readFileSync(file, 'utf8'));
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const parents = new Map();
    for (const n of profile.nodes) for (const child of n.children ?? []) parents.set(child, n.id);
    const timeByNode = new Map();
    for (const [i, id] of profile.samples.entries()) {
      timeByNode.set(id, (timeByNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
    }
    return { nodes, parents, timeByNode };
  });
  let total = 0;
  for (const p of profiles) for (const t of p.timeByNode.values()) total += t;
  const label = files.length === 1 ? files[0] : `${from} (${files.length} profiles)`;
  return { label, profiles, total };
}

const where = (frame) => frame.url.split('/').slice(-2).join('/') || frame.functionName;
const keyOf = (frame) =>
  `${frame.functionName || '(anonymous)'} ${frame.url || frame.lineNumber < 0 ? where(frame) : '(new Function)'}:${frame.lineNumber}`;

/** Which part of the process a frame belongs to. */
function group(frame) {
  const url = frame.url;
  if (!url) {
    if (['(idle)', '(garbage collector)', '(program)'].includes(frame.functionName))
      return frame.functionName;
    // Code made by `new Function` (zod's compiled parsers): a line, but no script.
    if (frame.lineNumber >= 0) return 'generated (new Function)';
    // Natives without a script (string encoding, socket writes, …).
    return '(native)';
  }
  // The profiler's own work as it stops (bench/profile.ts --out), not the calls'.
  if (url === 'node:inspector') return '(profiler)';
  if (url.includes('/node_modules/zod/')) return 'zod';
  if (url.includes('/node_modules/ky/')) return 'ky';
  if (url.includes('/node_modules/openai/')) return 'openai';
  // The parsers zod's generator wrote at build time (scripts/generate-parsers.ts), a chunk per API.
  if (/\/dist\/parsers\.generated-[^/]+\.c?js$/.test(url)) return 'SDK parsers (generated at build)';
  if (/\/dist\/[^/]+\.c?js$/.test(url)) return 'SDK (dist/)';
  if (url.includes('undici')) return 'undici (fetch)';
  if (url.startsWith('node:')) return 'node';
  if (url.includes('/bench/')) return 'bench';
  return 'other';
}

function selfTimes(loaded) {
  const self = new Map();
  const groups = new Map();
  for (const p of loaded.profiles) {
    for (const [id, t] of p.timeByNode) {
      const frame = p.nodes.get(id).callFrame;
      const key = keyOf(frame);
      self.set(key, (self.get(key) ?? 0) + t);
      const g = group(frame);
      groups.set(g, (groups.get(g) ?? 0) + t);
    }
  }
  return { self, groups };
}

const a = load(dir);
const perCall = (t) => (calls ? ` ${(t / calls).toFixed(1).padStart(7)} µs/call` : '');

if (args.vs) {
  if (!calls) throw new Error('--vs needs --calls N (both profiled over N calls)');
  const b = load(args.vs);
  const A = selfTimes(a);
  const B = selfTimes(b);
  const us = (t) => (t / calls).toFixed(1);
  const signed = (t) => `${t >= 0 ? '+' : ''}${us(t)}`;
  console.log(`${a.label}\n  against ${b.label}, ${calls} calls each: self time in µs a call\n`);
  console.log('| group | this | baseline | difference |\n|---|---:|---:|---:|');
  const names = new Set([...A.groups.keys(), ...B.groups.keys()]);
  const diffs = [...names].map((g) => [g, A.groups.get(g) ?? 0, B.groups.get(g) ?? 0]);
  for (const [g, x, y] of diffs.sort((p, q) => q[1] - q[2] - (p[1] - p[2]))) {
    console.log(`| ${g} | ${us(x)} | ${us(y)} | ${signed(x - y)} |`);
  }
  const total = (m) => [...m.values()].reduce((s, t) => s + t, 0);
  const busy = (m) => total(m) - (m.get('(idle)') ?? 0) - (m.get('(profiler)') ?? 0);
  const [x, y] = [busy(A.groups), busy(B.groups)];
  console.log(`| **all but idle and profiler** | ${us(x)} | ${us(y)} | ${signed(x - y)} |`);
  console.log(`\n| function (self time) | this | baseline | difference |\n|---|---:|---:|---:|`);
  const keys = new Set([...A.self.keys(), ...B.self.keys()]);
  const fns = [...keys].map((k) => [k, A.self.get(k) ?? 0, B.self.get(k) ?? 0]);
  for (const [k, x, y] of fns.sort((p, q) => q[1] - q[2] - (p[1] - p[2])).slice(0, rows)) {
    console.log(`| ${k} | ${us(x)} | ${us(y)} | ${signed(x - y)} |`);
  }
} else {
  const inclusive = new Map();
  const { self } = selfTimes(a);
  for (const p of a.profiles) {
    for (const [id, t] of p.timeByNode) {
      const seen = new Set();
      for (let cur = id; cur !== undefined; cur = p.parents.get(cur)) {
        const f = where(p.nodes.get(cur).callFrame);
        if (seen.has(f)) continue;
        seen.add(f);
        inclusive.set(f, (inclusive.get(f) ?? 0) + t);
      }
    }
  }
  const show = (map) => {
    for (const [key, t] of [...map].sort((x, y) => y[1] - x[1]).slice(0, rows)) {
      console.log(`${((t / a.total) * 100).toFixed(1).padStart(5)} %${perCall(t)} ${key}`);
    }
  };
  console.log(`${a.label}: ${(a.total / 1000).toFixed(0)} ms sampled\n-- self time`);
  show(self);
  console.log('-- inclusive time by file');
  show(inclusive);
}
