import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createReferenceServer, type ListeningServer, listen } from '../../src/testing/index.js';

// The README's "Running scripts at the rate limit" example, run verbatim over 127.0.0.1 against the reference
// server limiting each key to 10 requests a second, configured through the environment as the README says.
const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
const section = readme.split('\n## Running scripts at the rate limit\n')[1] ?? '';
const code = section.match(/^```ts\n([\s\S]*?)^```/m)?.[1];
const dir = new URL('../../.ci/out/readme-rate-limit/', import.meta.url);

const api = createReferenceServer({ seed: { pixels: 28 }, rateLimit: { limit: 10, windowMs: 1_000 } });
const key = api.keys.management[0] as string;
let live: ListeningServer;
beforeAll(async () => {
  live = await listen(api, { port: 0 });
  await mkdir(dir, { recursive: true });
});
afterAll(async () => {
  await live.close();
  await rm(dir, { recursive: true, force: true });
});

describe('README: running scripts at the rate limit', () => {
  it('renames 40 pixels with one Promise.allSettled, all of them, drawing only a few 429s', async () => {
    expect(code).toBeDefined();
    const names = api.store.pixels(key).map((p) => p.name);
    expect(names).toHaveLength(40);
    vi.stubEnv('CONTENT_PLATFORM_BASE_URL', live.url);
    vi.stubEnv('CONTENT_PLATFORM_MANAGEMENT_API_KEY', key);
    // The retry after each of the few 429s logs a warn line; this run keeps the console to the script's output.
    vi.stubEnv('CONTENT_PLATFORM_LOG', 'error');
    const printed: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
    const file = new URL('example.ts', dir);
    await writeFile(file, code as string);
    await import(file.href);
    expect(printed).toEqual(['40 renamed, 0 failed']);
    expect(api.store.pixels(key).map((p) => p.name)).toEqual(names.map((name) => `${name} (2026)`));
    const limited = api.requests.filter((r) => r.status === 429);
    expect(limited.length).toBeLessThanOrEqual(6);
    expect(api.requests.filter((r) => r.status === 200)).toHaveLength(41);
  }, 20_000);
});
