import { describe, expect, it } from 'vitest';
import { createReferenceServer } from '../../src/testing/index.js';
import { blockRunner, readmeBlock } from './readme-blocks.js';

// The README's "Running scripts at the rate limit" example, run verbatim over 127.0.0.1 against the reference
// server limiting each key to 10 requests a second, configured through the environment as the README says.
const code = readmeBlock('Running scripts at the rate limit');
const api = createReferenceServer({ seed: { pixels: 28 }, rateLimit: { limit: 10, windowMs: 1_000 } });
const key = api.keys.management[0] as string;
const blocks = blockRunner(api, 'readme-rate-limit');

describe('README: running scripts at the rate limit', () => {
  it('renames 40 pixels with one Promise.allSettled, all of them, drawing only a few 429s', async () => {
    const names = api.store.pixels(key).map((p) => p.name);
    expect(names).toHaveLength(40);
    const printed = await blocks.run('example', code, {
      CONTENT_PLATFORM_BASE_URL: blocks.url(),
      CONTENT_PLATFORM_MANAGEMENT_API_KEY: key,
      // The retry after each of the few 429s logs a warn line; this run keeps the console to the script's output.
      CONTENT_PLATFORM_LOG: 'error',
    });
    expect(printed).toEqual(['40 renamed, 0 failed']);
    expect(api.store.pixels(key).map((p) => p.name)).toEqual(names.map((name) => `${name} (2026)`));
    const limited = api.requests.filter((r) => r.status === 429);
    expect(limited.length).toBeLessThanOrEqual(6);
    expect(api.requests.filter((r) => r.status === 200)).toHaveLength(41);
  }, 20_000);
});
