// Summarises a V8 CPU profile written by `node --cpu-prof --cpu-prof-dir=<dir> bench/profile.ts …`:
//   node bench/cpu-top.mjs <dir> [rows]
// prints the functions with the most self time, then the files with the most inclusive time.
import { readdirSync, readFileSync } from 'node:fs';

const [dir = '.', rowsArg = '25'] = process.argv.slice(2);
const rows = Number(rowsArg);
const file = readdirSync(dir)
  .filter((name) => name.endsWith('.cpuprofile'))
  .map((name) => `${dir}/${name}`)
  .sort()[0];
if (!file) throw new Error(`no .cpuprofile in ${dir}`);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parents = new Map();
for (const n of profile.nodes) for (const child of n.children ?? []) parents.set(child, n.id);

const timeByNode = new Map();
for (const [i, id] of profile.samples.entries()) {
  timeByNode.set(id, (timeByNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
let total = 0;
for (const t of timeByNode.values()) total += t;

const where = (frame) => frame.url.split('/').slice(-2).join('/') || frame.functionName;
const self = new Map();
const inclusive = new Map();
for (const [id, t] of timeByNode) {
  const frame = nodes.get(id).callFrame;
  const key = `${frame.functionName || '(anonymous)'} ${where(frame)}:${frame.lineNumber}`;
  self.set(key, (self.get(key) ?? 0) + t);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parents.get(cur)) {
    const f = where(nodes.get(cur).callFrame);
    if (seen.has(f)) continue;
    seen.add(f);
    inclusive.set(f, (inclusive.get(f) ?? 0) + t);
  }
}
const show = (map) => {
  for (const [key, t] of [...map].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    console.log(`${((t / total) * 100).toFixed(1).padStart(5)} % ${key}`);
  }
};
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled\n-- self time`);
show(self);
console.log('-- inclusive time by file');
show(inclusive);
