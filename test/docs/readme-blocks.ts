import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { format } from 'node:util';
import { afterAll, beforeAll, vi } from 'vitest';
import { type ListeningServer, listen, type ReferenceServer } from '../../src/testing/index.js';

// Runs the samples of the README and of the guides in docs/ verbatim: each as a module of its own, against a
// reference server over 127.0.0.1, configured the way the docs say (through the environment).

/** A fenced `ts` or `js` block of a document. */
export interface DocBlock {
  /** The document, from the package root: `README.md`, `docs/fleets.md`. */
  readonly doc: string;
  /** The nearest heading above the block. */
  readonly heading: string;
  /** `ts` or `js`: a `js` block runs as an `.mjs` file. */
  readonly lang: 'ts' | 'js';
  /** The line of the opening fence (1-based). */
  readonly line: number;
  readonly code: string;
}

const root = new URL('../../', import.meta.url);

/** The README and every guide in docs/. */
export const DOCS: readonly string[] = [
  'README.md',
  ...readdirSync(new URL('docs/', root))
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => `docs/${file}`),
];

/** Every `ts` and `js` block of `doc`, in order. */
export function docBlocks(doc: string): DocBlock[] {
  const lines = readFileSync(new URL(doc, root), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  let heading = '';
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] as string;
    const fence = line.match(/^```(\S*)/);
    if (!fence) {
      if (/^#{1,4} /.test(line)) heading = line.replace(/^#+ /, '');
      continue;
    }
    const end = lines.findIndex((next, i) => i > at && next.startsWith('```'));
    if (end === -1) throw new Error(`${doc}:${at + 1}: a fence that never closes`);
    const lang = fence[1];
    if (lang === 'ts' || lang === 'js')
      blocks.push({ doc, heading, lang, line: at + 1, code: `${lines.slice(at + 1, end).join('\n')}\n` });
    at = end;
  }
  return blocks;
}

/** The `nth` (0-based) `ts` or `js` block under the heading `heading` of `doc` (the README by default). */
export function docBlock(heading: string, doc = 'README.md', nth = 0): string {
  const block = docBlocks(doc).filter((b) => b.heading === heading)[nth];
  if (!block) throw new Error(`${doc}: no block ${nth} under "${heading}"`);
  return block.code;
}

/** The first block under the README heading `heading`. */
export const readmeBlock = (heading: string): string => docBlock(heading);

/**
 * Serves `api` on 127.0.0.1 for the calling test file, with a folder under .ci/out for its blocks; `run` runs a
 * block with `env` set and gives what it printed with `console.log`.
 */
export function blockRunner(api: ReferenceServer, folder: string) {
  const dir = new URL(`../../.ci/out/${folder}/`, import.meta.url);
  let live: ListeningServer | undefined;
  beforeAll(async () => {
    live = await listen(api, { port: 0 });
    await mkdir(dir, { recursive: true });
  });
  afterAll(async () => {
    await live?.close();
    await rm(dir, { recursive: true, force: true });
  });
  return {
    url: () => (live as ListeningServer).url,
    /** Runs `code` as `name.ts` (or `name.mjs` for `lang: 'js'`); resolves to the lines it logged. */
    async run(
      name: string,
      code: string,
      env: Record<string, string>,
      lang: 'ts' | 'js' = 'ts',
    ): Promise<string[]> {
      for (const [variable, value] of Object.entries(env)) vi.stubEnv(variable, value);
      const printed: string[] = [];
      vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(format(...args)));
      const file = new URL(`${name}.${lang === 'js' ? 'mjs' : 'ts'}`, dir);
      await writeFile(file, code);
      await import(file.href);
      return printed;
    },
  };
}
