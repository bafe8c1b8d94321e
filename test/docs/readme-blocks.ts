import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, vi } from 'vitest';
import { type ListeningServer, listen, type ReferenceServer } from '../../src/testing/index.js';

// Runs the README's examples verbatim: each as a module of its own, against a reference server over 127.0.0.1,
// configured the way the README says (through the environment).
const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');

/** The first `ts` block after the README heading `heading` (any level). */
export function readmeBlock(heading: string): string {
  const at = readme
    .split('\n')
    .findIndex((line) => /^#{2,4} /.test(line) && line.replace(/^#+ /, '') === heading);
  const block =
    at === -1
      ? undefined
      : readme
          .split('\n')
          .slice(at)
          .join('\n')
          .match(/^```ts\n([\s\S]*?)^```/m);
  if (!block) throw new Error(`README: no ts block under "${heading}"`);
  return block[1] as string;
}

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
    async run(name: string, code: string, env: Record<string, string>): Promise<string[]> {
      for (const [variable, value] of Object.entries(env)) vi.stubEnv(variable, value);
      const printed: string[] = [];
      vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
      const file = new URL(`${name}.ts`, dir);
      await writeFile(file, code);
      await import(file.href);
      return printed;
    },
  };
}
