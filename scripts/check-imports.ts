// The import rules of src/ (CONTRIBUTING, "Where code goes"), checked by `npm run lint` and by
// test/core/boundaries.test.ts:
//   1. no import circle anywhere in src/, type-only imports and re-exports included;
//   2. a room of src/core/ is entered through its index.ts: a file outside the room never imports another of its files.
// Run: node scripts/check-imports.ts [srcDir]   (prints each finding, exits 1 when there is one)
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** File (relative to the source folder, `/`-separated) → the files it imports, same form. */
export type ImportGraph = Map<string, string[]>;

// `import … from '…'`, `export … from '…'`, `import '…'`, `import('…')`, `import type …` alike.
const IMPORT = /\b(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(?\s*['"]([^'"]+)['"]/g;

/** Source text without comments, so an `@example` that shows an import is not read as one. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** Every `.ts` file under `srcDir` and the relative imports it makes, resolved to files. */
export function importGraph(srcDir: string): ImportGraph {
  const files = (readdirSync(srcDir, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts'))
    .map((file) => file.split(sep).join('/'));
  const known = new Set(files);
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const targets = new Set<string>();
    for (const match of code(readFileSync(join(srcDir, file), 'utf8')).matchAll(IMPORT)) {
      const spec = match[1] ?? match[2] ?? '';
      if (!spec.startsWith('.')) continue;
      const target = relative(srcDir, resolve(srcDir, dirname(file), spec))
        .split(sep)
        .join('/')
        .replace(/\.js$/, '.ts');
      const resolved = [target, `${target}.ts`, `${target}/index.ts`].find((t) => known.has(t));
      targets.add(resolved ?? target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** The import circles: each group of files that reach one another, in a stable order (Tarjan's algorithm). */
export function importCircles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file) as number, index.get(target) as number));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      group.push(member);
      if (member === file) break;
    }
    if (group.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(group.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return circles.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

/** `core/<room>/` of a file, or `undefined` for a file outside the core's rooms. */
function roomOf(file: string): string | undefined {
  const match = /^core\/([^/]+)\//.exec(file);
  return match ? `core/${match[1]}/` : undefined;
}

/** Imports that enter a room of `core/` other than through its `index.ts`: `from -> to`. */
export function sideDoors(graph: ImportGraph): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) {
      const room = roomOf(target);
      if (room === undefined || roomOf(file) === room || target === `${room}index.ts`) continue;
      found.push(`${file} -> ${target}`);
    }
  }
  return found.sort();
}

/** Every breach of the rules above, one line each; empty when there is none. */
export function importFindings(srcDir: string): string[] {
  const graph = importGraph(srcDir);
  return [
    ...importCircles(graph).map((group) => `import circle: ${group.join(' -> ')}`),
    ...sideDoors(graph).map((edge) => `room entered other than through its index.ts: ${edge}`),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const srcDir = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '../src');
  const findings = importFindings(srcDir);
  for (const line of findings) console.error(line);
  if (findings.length > 0) {
    console.error(`check-imports: ${findings.length} finding(s) in ${relative(process.cwd(), srcDir)}`);
    process.exit(1);
  }
  console.log('check-imports: no import circle, every room entered through its index.ts');
}
