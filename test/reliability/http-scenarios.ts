import { expect } from 'vitest';
import {
  APIError,
  AuthenticationError,
  InternalServerError,
  RateLimitError,
  ResponseValidationError,
} from '../../src/core/errors/classes.js';
import { ManagementClient } from '../../src/management/index.js';
import { createReferenceServer } from '../../src/testing/index.js';
import {
  attempts,
  capturingLogger,
  failure,
  KEYS,
  linesSince,
  MGMT_KEY,
  mark,
  type Scenario,
  since,
  wallSince,
} from './harness.js';

const BAD_GATEWAY =
  '<html><head><title>502 Bad Gateway</title></head><body><center>nginx</center></body></html>';

/** Status-level faults on the Management API: retries, backoff, Retry-After, the cap, redirects. */
export const httpScenarios: Scenario[] = [
  ...([500, 502, 503, 504] as const).map(
    (status): Scenario => ({
      name: `${status} once, then success: a GET is retried once`,
      via: ['socket', 'msw', 'fetch'],
      within: 2_000,
      async run(rig, via) {
        rig.server.faults.script([
          status === 502
            ? { status, body: BAD_GATEWAY, headers: { 'content-type': 'text/html' } }
            : { status },
        ]);
        await expect(rig.mgmt(via).pixels.get(1)).resolves.toMatchObject({ id: 1, name: 'Facebook Main' });
        expect(attempts(rig)).toBe(2);
      },
    }),
  ),
  {
    name: '5xx forever: InternalServerError after exactly maxRetries + 1 attempts',
    via: ['socket', 'fetch'],
    within: 3_000,
    async run(rig, via) {
      rig.server.faults.set({ failureRate: 1, failureStatuses: [500, 503] });
      const error = await failure(rig.mgmt(via, { maxRetries: 2 }).pixels.get(1));
      expect(error).toBeInstanceOf(InternalServerError);
      expect(attempts(rig)).toBe(3);
    },
  },
  {
    name: '5xx forever with a per-call maxRetries: the call overrides the client',
    within: 2_000,
    async run(rig, via) {
      rig.server.faults.set({ failureRate: 1, failureStatuses: [502] });
      const error = await failure(rig.mgmt(via, { maxRetries: 5 }).domains.list({}, { maxRetries: 1 }));
      expect(error).toBeInstanceOf(InternalServerError);
      expect((error as APIError).status).toBe(502);
      expect(attempts(rig)).toBe(2);
    },
  },
  {
    name: 'one info line per attempt and one per retry, with method, URL, status, duration and retry number',
    within: 2_000,
    async run(rig, via) {
      rig.server.faults.script([{ status: 503, body: { message: 'busy' }, headers: { 'retry-after': '0' } }]);
      const logged = capturingLogger.lines.length;
      await rig.mgmt(via).pixels.get(2);
      const url = `${rig.socketUrl()}/api/v1/pixels/2`;
      // Each captured line ends with its fields object, inspected: the messages are compared here.
      const lines = linesSince(logged)
        .filter((l) => !l.startsWith('debug'))
        .map((l) => l.replace(/ \{[\s\S]*\}$/, ''));
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(
        new RegExp(`^info \\[content-platform-sdk\\] GET ${url} \\(attempt 1\\) → 503 in \\d+ ms$`),
      );
      expect(lines[1]).toBe(`info [content-platform-sdk] GET ${url}: retry 1 of 2 in 0 ms after HTTP 503`);
      expect(lines[2]).toMatch(
        new RegExp(`^info \\[content-platform-sdk\\] GET ${url} \\(attempt 2\\) → 200 in \\d+ ms$`),
      );
    },
  },
  {
    name: '429 with Retry-After in seconds: waits that long, then succeeds',
    within: 3_000,
    async run(rig, via) {
      rig.server.faults.script([
        { status: 429, body: { message: 'Too Many Attempts.' }, headers: { 'retry-after': '1' } },
      ]);
      const started = mark();
      await expect(rig.mgmt(via).pixels.get(1)).resolves.toMatchObject({ id: 1 });
      expect(wallSince(started)).toBeGreaterThanOrEqual(950);
      expect(attempts(rig)).toBe(2);
    },
  },
  {
    name: '429 with Retry-After as an HTTP date: waits until then, then succeeds',
    within: 3_500,
    async run(rig, via) {
      const at = new Date(Date.now() + 2_000).toUTCString();
      rig.server.faults.script([
        { status: 429, body: { message: 'Too Many Attempts.' }, headers: { 'retry-after': at } },
      ]);
      const started = mark();
      await expect(rig.mgmt(via).domains.list()).resolves.toMatchObject({ meta: { current_page: 1 } });
      expect(wallSince(started)).toBeGreaterThanOrEqual(800);
      expect(attempts(rig)).toBe(2);
    },
  },
  {
    name: '429 with only X-RateLimit-Reset (epoch seconds): waits for the reset, then succeeds',
    within: 3_500,
    async run(rig, via) {
      const reset = String(Math.floor(Date.now() / 1000) + 1);
      rig.server.faults.script([
        { status: 429, body: { message: 'Too Many Attempts.' }, headers: { 'x-ratelimit-reset': reset } },
      ]);
      const started = mark();
      await expect(rig.mgmt(via).pixels.get(1)).resolves.toMatchObject({ id: 1 });
      expect(since(started)).toBeLessThan(1_500);
      expect(attempts(rig)).toBe(2);
    },
  },
  {
    name: '429 with a wait over the cap (Retry-After: 3600): RateLimitError at once, with retryAfter',
    via: ['socket', 'msw'],
    within: 1_000,
    async run(rig, via) {
      rig.server.faults.script([
        { status: 429, body: { message: 'Too Many Attempts.' }, headers: { 'retry-after': '3600' } },
      ]);
      const error = await failure(rig.mgmt(via).pixels.get(1));
      expect(error).toBeInstanceOf(RateLimitError);
      expect((error as RateLimitError).retryAfter).toBe(3600);
      expect(attempts(rig)).toBe(1);
    },
  },
  {
    name: '429 with an HTTP date an hour away, or an X-RateLimit-Reset ten minutes away: RateLimitError at once',
    within: 1_000,
    async run(rig, via) {
      rig.server.faults.script([
        { status: 429, headers: { 'retry-after': new Date(Date.now() + 3_600_000).toUTCString() } },
        { status: 429, headers: { 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 600) } },
      ]);
      const byDate = await failure(rig.mgmt(via).pixels.get(1));
      const byReset = await failure(rig.mgmt(via).pixels.get(1));
      expect(byDate).toBeInstanceOf(RateLimitError);
      expect((byDate as RateLimitError).retryAfter).toBeGreaterThan(3590);
      expect(byReset).toBeInstanceOf(RateLimitError);
      expect((byReset as RateLimitError).retryAfter).toBeGreaterThan(590);
      expect(attempts(rig)).toBe(2);
    },
  },
  {
    name: '429 forever with Retry-After: 0: RateLimitError after maxRetries + 1 attempts',
    within: 1_500,
    async run(rig, via) {
      rig.server.faults.script([
        { status: 429, headers: { 'retry-after': '0' } },
        { status: 429, headers: { 'retry-after': '0' } },
        { status: 429, headers: { 'retry-after': '0' } },
      ]);
      const error = await failure(rig.mgmt(via).pixels.list());
      expect(error).toBeInstanceOf(RateLimitError);
      expect((error as RateLimitError).retryAfter).toBe(0);
      expect(attempts(rig)).toBe(3);
    },
  },
  {
    name: "the reference server's own rate limiter: a 429 inside a one-second window is waited out",
    via: ['fetch'],
    within: 3_000,
    async run() {
      const limited = createReferenceServer({
        managementKeys: KEYS.management,
        rateLimit: { limit: 1, windowMs: 1_000 },
      });
      const client = new ManagementClient({
        baseUrl: 'https://limited.test',
        apiKey: MGMT_KEY,
        fetch: limited.fetch,
        logger: capturingLogger,
        logLevel: 'debug',
      });
      await client.pixels.get(1);
      const { response } = await client.pixels.get(2).withResponse();
      expect(response.status).toBe(200);
      expect(limited.requests.map((r) => r.url.endsWith('/2'))).toEqual([false, true, true]);
    },
  },
  {
    name: '429 on a create: the throttle answered before acting, so it is retried after Retry-After and created once',
    within: 3_000,
    async run(rig, via) {
      const before = rig.pixels().length;
      rig.server.faults.script([{ status: 429, headers: { 'retry-after': '1' } }]);
      const started = Date.now();
      const pixel = await rig.mgmt(via).pixels.create({ name: 'Limited', type: 'bing', value: '1' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(pixel.name).toBe('Limited');
      expect(attempts(rig)).toBe(2);
      expect(rig.pixels()).toHaveLength(before + 1);
    },
  },
  {
    name: '429 on every attempt of a create: RateLimitError after the retries, nothing created',
    within: 1_000,
    async run(rig, via) {
      const before = rig.pixels().length;
      const limited = { status: 429, headers: { 'retry-after': '0' } };
      rig.server.faults.script([limited, limited, limited]);
      const error = await failure(rig.mgmt(via).pixels.create({ name: 'Limited', type: 'bing', value: '1' }));
      expect(error).toBeInstanceOf(RateLimitError);
      expect(attempts(rig)).toBe(3);
      expect(rig.pixels()).toHaveLength(before);
    },
  },
  {
    name: '503 on a create: InternalServerError, not retried, nothing created',
    via: ['socket', 'msw'],
    within: 1_000,
    async run(rig, via) {
      const before = rig.pixels().length;
      rig.server.faults.script([{ status: 503, headers: { 'retry-after': '0' } }]);
      const error = await failure(rig.mgmt(via).pixels.create({ name: 'Busy', type: 'bing', value: '1' }));
      expect(error).toBeInstanceOf(InternalServerError);
      expect(attempts(rig)).toBe(1);
      expect(rig.pixels()).toHaveLength(before);
    },
  },
  {
    name: '503 once on an update (PUT) and a delete: both idempotent, both retried',
    within: 2_000,
    async run(rig, via) {
      rig.server.faults.script([{ status: 503, headers: { 'retry-after': '0' } }, 'pass', { status: 500 }]);
      const client = rig.mgmt(via);
      await expect(client.pixels.update(2, { name: 'Renamed' })).resolves.toMatchObject({ name: 'Renamed' });
      await expect(client.pixels.delete(3)).resolves.toEqual({ id: 3, object: 'pixel', deleted: true });
      expect(attempts(rig)).toBe(4);
      expect(rig.pixels().find((p) => p.id === 3)).toBeUndefined();
    },
  },
  {
    name: 'a 503 on page 2 while iterating with for await: retried, every pixel once',
    via: ['socket', 'fetch'],
    within: 2_000,
    async run(rig, via) {
      rig.server.faults.script([{ status: 503, headers: { 'retry-after': '0' } }], {
        match: (r) => new URL(r.url).searchParams.get('page') === '2',
      });
      const ids: number[] = [];
      for await (const pixel of rig.mgmt(via).pixels.list({ per_page: 10 })) ids.push(pixel.id);
      expect(ids).toHaveLength(12);
      expect([...ids].sort((a, b) => a - b)).toEqual(rig.pixels().map((p) => p.id));
      expect(attempts(rig)).toBe(3);
    },
  },
  {
    name: '302 to /login: AuthenticationError that says so, and the login page is never fetched',
    via: ['socket', 'msw', 'fetch'],
    within: 1_000,
    async run(rig, via) {
      rig.server.faults.script([{ status: 302, headers: { location: '/login' } }]);
      const error = await failure(rig.mgmt(via).pixels.list());
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error.message).toMatch(/redirected to a login page: the server rejected the API key/);
      expect(rig.server.requests.map((r) => new URL(r.url).pathname)).toEqual(['/api/v1/pixels']);
    },
  },
  {
    name: '307 to another origin: APIError naming the target; the key is not carried there',
    via: ['socket', 'msw'],
    within: 1_000,
    async run(rig, via) {
      rig.server.faults.script([
        { status: 307, headers: { location: 'https://evil.example.net/api/v1/pixels/1' } },
      ]);
      const error = await failure(rig.mgmt(via).pixels.get(1));
      expect(error.constructor).toBe(APIError);
      expect(error.message).toContain('"https://evil.example.net/api/v1/pixels/1"');
      expect(attempts(rig)).toBe(1);
    },
  },
  {
    name: 'non-JSON error page (nginx 502 HTML) on every attempt: InternalServerError with the raw page',
    via: ['socket', 'msw'],
    within: 2_000,
    async run(rig, via) {
      const page = { status: 502, body: BAD_GATEWAY, headers: { 'content-type': 'text/html' } };
      rig.server.faults.script([page, page, page]);
      const error = await failure(rig.mgmt(via).domains.get(1));
      expect(error).toBeInstanceOf(InternalServerError);
      expect((error as APIError).body).toBe(BAD_GATEWAY);
      expect(error.message).toContain('the body was an HTML page (text/html');
      expect(attempts(rig)).toBe(3);
    },
  },
  {
    name: 'HTML 200 (the login page a followed redirect gives): ResponseValidationError that says it is HTML',
    via: ['socket', 'msw', 'fetch'],
    within: 1_000,
    async run(rig, via) {
      rig.server.faults.script(['html']);
      const error = await failure(rig.mgmt(via).pixels.get(1));
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error.message).toMatch(/answered 200 but not with JSON: the body was an HTML page \(text\/html/);
      expect(attempts(rig)).toBe(1);
    },
  },
  {
    name: 'empty 200: ResponseValidationError "the body was empty", not retried',
    via: ['socket', 'fetch'],
    within: 1_000,
    async run(rig, via) {
      rig.server.faults.script([{ status: 200, headers: { 'content-type': 'application/json' } }]);
      const error = await failure(rig.mgmt(via).pixels.get(1));
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error.message).toMatch(
        /^GET \S+\/api\/v1\/pixels\/1 answered 200 but not with JSON: the body was empty$/,
      );
      expect(attempts(rig)).toBe(1);
    },
  },
  {
    name: 'truncated JSON (200): ResponseValidationError keeping the raw text, not retried',
    via: ['socket', 'msw', 'fetch'],
    within: 1_000,
    async run(rig, via) {
      rig.server.faults.script(['truncated']);
      const error = await failure(rig.mgmt(via).pixels.get(1));
      expect(error).toBeInstanceOf(ResponseValidationError);
      const body = (error as ResponseValidationError).body;
      expect(typeof body).toBe('string');
      expect(() => JSON.parse(body as string)).toThrow(SyntaxError);
      expect(attempts(rig)).toBe(1);
    },
  },
  {
    name: 'truncated JSON error body (500, maxRetries 0): InternalServerError keeping the raw text',
    within: 1_000,
    async run(rig, via) {
      const cut = '{"message": "Server Err';
      rig.server.faults.script([{ status: 500, body: cut, headers: { 'content-type': 'application/json' } }]);
      const error = await failure(rig.mgmt(via).pixels.get(1, { maxRetries: 0 }));
      expect(error).toBeInstanceOf(InternalServerError);
      expect((error as APIError).body).toBe(cut);
    },
  },
  {
    name: 'an HTML body labelled application/json: ResponseValidationError, not a zod dump',
    within: 1_000,
    async run(rig, via) {
      rig.server.faults.script([
        {
          status: 200,
          body: '<!DOCTYPE html><p>Maintenance</p>',
          headers: { 'content-type': 'application/json' },
        },
      ]);
      const error = await failure(rig.mgmt(via).domains.list());
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).issues).toEqual([]);
      expect(error.message).toContain('an HTML page (application/json');
    },
  },
];
