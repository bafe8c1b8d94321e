import { describe, expect, it } from 'vitest';
import { createReferenceServer } from '../../src/testing/index.js';
import { blockRunner, docBlock } from './readme-blocks.js';

// The scripts guide's pacing example (docs/scripts.md), run verbatim over 127.0.0.1 against the reference server
// limiting each key to 10 requests a second, configured through the environment as the guide says.
const code = docBlock('Pacing', 'docs/scripts.md');
const api = createReferenceServer({ seed: { pixels: 200 }, rateLimit: { limit: 10, windowMs: 1_000 } });
const key = api.keys.management[0] as string;
const blocks = blockRunner(api, 'readme-rate-limit');

describe('guide: scripts at the rate limit', () => {
  it('updates every facebook pixel with one Promise.allSettled, all of them, drawing only a few 429s', async () => {
    const facebook = () => api.store.pixels(key).filter((p) => p.type === 'facebook');
    const count = facebook().length;
    expect(count).toBeGreaterThanOrEqual(20);
    expect(facebook().filter((p) => p.value === '1234567890').length).toBeLessThan(count);
    const printed = await blocks.run('example', code, {
      CONTENT_PLATFORM_BASE_URL: blocks.url(),
      CONTENT_PLATFORM_MANAGEMENT_API_KEY: key,
    });
    expect(printed).toEqual([`${count} updated, 0 failed`]);
    expect(facebook().map((p) => p.value)).toEqual(facebook().map(() => '1234567890'));
    expect(api.requests.filter((r) => r.status === 429).length).toBeLessThanOrEqual(6);
    expect(api.requests.filter((r) => r.status === 200)).toHaveLength(count + 1);
  }, 20_000);
});
