import { describe, expect, it } from 'vitest';
import { createReferenceServer } from '../../src/testing/index.js';
import { useRedis } from '../helpers/redis.js';
import { blockRunner, docBlock } from './readme-blocks.js';

// The fleet guide's example (docs/fleets.md), run verbatim over 127.0.0.1 against the reference server and a
// real redis-server, configured through the environment as the README says.
const code = docBlock('Fleets: many processes on one key', 'docs/fleets.md');
const api = createReferenceServer({ rateLimit: { limit: 10, windowMs: 1_000 } });
const key = api.keys.management[0] as string;
const blocks = blockRunner(api, 'readme-fleet');
const redis = useRedis();

describe('guide: a fleet on one key', () => {
  it("lists pixels through a store on Redis, and the client says its throttle is the fleet's", async () => {
    const printed = await blocks.run('example', code, {
      CONTENT_PLATFORM_BASE_URL: blocks.url(),
      CONTENT_PLATFORM_MANAGEMENT_API_KEY: key,
      REDIS_URL: redis.url,
    });
    expect(printed).toEqual(['shared']);
    expect(api.requests.map((r) => `${r.method} ${new URL(r.url).pathname} ${r.status}`)).toEqual([
      'GET /api/v1/pixels 200',
    ]);
  }, 20_000);
});
