// What every scenario gets: the repository root, the server's URLs and keys, and whether this is a quick run.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ServerInfo } from './server.ts';

/** The repository root, with a trailing slash. */
export const root = fileURLToPath(new URL('../..', import.meta.url));

export interface Context {
  info: ServerInfo;
  /** `--quick`: fewer rounds, for checking the suite rather than for figures. */
  quick: boolean;
}

/** What a scenario hands back: its figures, and its section of bench/RESULTS.md. */
export interface Section<F> {
  figures: F;
  lines: string[];
}

export function pkgVersion(name: string): string {
  return (JSON.parse(readFileSync(`${root}node_modules/${name}/package.json`, 'utf8')) as { version: string })
    .version;
}
