import { inspect } from 'node:util';
import { expect } from 'vitest';
import {
  ContentPlatformError,
  InvalidParamsError,
  NotFoundError,
  RateLimitError,
  ResponseValidationError,
} from '../../src/core/errors/classes.js';
import type { Logger } from '../../src/core/transport/index.js';
import {
  attempts,
  collected,
  editJson,
  failure,
  type Middleware,
  mark,
  type Scenario,
  since,
  TOKEN,
  wallSince,
} from './harness.js';

const down = () => {
  throw new Error('the logging backend is down');
};
/** A logger every method of which throws, as one whose transport has failed. */
const throwingLogger: Logger = { error: down, warn: down, info: down, debug: down };

/** A header value that would split the request, carrying a secret that must never be echoed. */
const SPLITTING = `Bearer ${TOKEN}-header\r\nX-Injected: 1`;

/** Every text of an error a user could see. */
function texts(error: Error): string {
  return [
    error.message,
    String(error.stack),
    JSON.stringify(error),
    inspect(error, { showHidden: true }),
  ].join('\n');
}

type Json = Record<string, unknown>;

/** The purchase of a validation answer: under `data.purchase` (the spec) or `item` (the real server's code). */
function purchaseOf(body: unknown): Json {
  const envelope = body as Json;
  return ((envelope.data as Json | undefined)?.purchase ?? envelope.item) as Json;
}

/** A code the server was never asked about. */
const OTHER_CODE = '9a8b7c6d-1d2e-4f6a-9b8c-00000000beef';

/** The server deletes as asked, then answers 204 No Content, as a Laravel `response()->noContent()` does. */
const noContentDeletes: Middleware = async (request, next) => {
  const response = await next(request);
  if (request.method !== 'DELETE' || !response.ok) return response;
  await response.arrayBuffer();
  const headers = new Headers(response.headers);
  headers.delete('content-type');
  headers.delete('content-length');
  return new Response(null, { status: 204, headers });
};

/** Page `page` of a list request, and the same request for page 1 (what a cache that ignores `?page` serves). */
function firstPageOf(request: Request): { asked: number; first: Request } {
  const url = new URL(request.url);
  const asked = Number(url.searchParams.get('page') ?? '1');
  url.searchParams.delete('page');
  return { asked, first: new Request(url, request) };
}

/**
 * A list that never advances: every page answers page 1's items, its meta saying it is the page asked for and that
 * one more follows (up to page 30, so that a walk that does not notice still ends).
 */
const stuckPages: Middleware = async (request, next) => {
  if (request.method !== 'GET' || !new URL(request.url).pathname.endsWith('/pixels')) return next(request);
  const { asked, first } = firstPageOf(request);
  return editJson((body) => {
    const page = body as Json;
    page.meta = { ...(page.meta as Json), current_page: asked, last_page: Math.min(asked + 1, 30) };
    return page;
  })(first, next);
};

let inserted = 0;

/** Before page 2 is served, a pixel is created, pushing the last item of page 1 onto page 2. */
const insertBeforePage2: Middleware = async (request, next) => {
  const url = new URL(request.url);
  if (request.method === 'GET' && url.searchParams.get('page') === '2') {
    const created = await next(
      new Request(new URL('/api/v1/pixels', url), {
        method: 'POST',
        headers: {
          authorization: request.headers.get('authorization') ?? '',
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ name: `Inserted mid-walk ${++inserted}`, type: 'x', value: '1' }),
      }),
    );
    expect(created.status).toBe(201);
  }
  return next(request);
};

const rejects = () => Promise.reject(new Error('the async logging backend is down'));
/** An async logger every method of which returns a rejected promise. */
const rejectingLogger: Logger = { error: rejects, warn: rejects, info: rejects, debug: rejects };

/**
 * Answers that are not about what was asked, and bystanders that fail: a logger that throws, header values that
 * would split a request, a purchase answer about another code, a 204 delete, paging meta as strings, reset
 * headers read as ky reads them, and pages that never advance.
 */
export const hostileAnswerScenarios: Scenario[] = [
  {
    name: 'a logger that throws from every method: a 503 then 200 still succeeds after its retry',
    via: ['socket', 'fetch'],
    within: 2_000,
    async run(rig, via) {
      rig.server.faults.script([{ status: 503, headers: { 'retry-after': '0' } }]);
      const client = rig.mgmt(via, { logger: throwingLogger, logLevel: 'debug' });
      await expect(client.pixels.get(1)).resolves.toMatchObject({ id: 1, name: 'Facebook Main' });
      expect(attempts(rig)).toBe(2);
    },
  },
  {
    name: 'a logger that throws from every method: a 404 still rejects with NotFoundError, not the logger error',
    via: ['socket', 'fetch'],
    within: 1_000,
    async run(rig, via) {
      const client = rig.mgmt(via, { logger: throwingLogger, logLevel: 'debug' });
      const error = await failure(client.pixels.get(999_999));
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).status).toBe(404);
      expect((error as NotFoundError).attempts).toBe(1);
    },
  },
  {
    name: 'an async logger whose methods reject: the call succeeds after its retry, no rejection goes unhandled',
    within: 2_000,
    async run(rig, via) {
      const unhandled = collected.unhandled.length;
      rig.server.faults.script([{ status: 503, headers: { 'retry-after': '0' } }]);
      const client = rig.mgmt(via, { logger: rejectingLogger, logLevel: 'debug' });
      await expect(client.pixels.get(1)).resolves.toMatchObject({ id: 1 });
      expect(attempts(rig)).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(collected.unhandled.slice(unhandled)).toEqual([]);
    },
  },
  {
    name: 'a CR or LF in a header value or in the key is refused at construction, naming the header, never the value',
    via: ['socket', 'msw'],
    within: 1_000,
    async run(rig, via) {
      const built: (() => unknown)[] = [
        () => rig.mgmt(via, { headers: { 'x-trace-id': SPLITTING } }),
        () => rig.catalog(via, { headers: { 'x-trace-id': SPLITTING } }),
        () => rig.mgmt(via, { headers: { 'x-trace-id': `${TOKEN}\0` } }),
      ];
      for (const build of built) {
        const error = await failure(Promise.resolve().then(build));
        expect(error).toBeInstanceOf(InvalidParamsError);
        expect((error as InvalidParamsError).param).toBe('headers');
        expect(error.message).toBe(
          'headers: the value of "x-trace-id" has a CR, LF or NUL, or a character beyond U+00FF, which no HTTP ' +
            'request can carry (not shown: it may be a secret).',
        );
        expect(texts(error)).not.toContain(TOKEN);
      }
      const name = await failure(
        Promise.resolve().then(() => rig.mgmt(via, { headers: { 'x-a\r\nb': '1' } })),
      );
      expect(name).toBeInstanceOf(InvalidParamsError);
      expect(name.message).toBe('headers: header name 1 of 1 is not an HTTP token (not shown).');
      const keyed: (() => unknown)[] = [
        () => rig.mgmt(via, { apiKey: `mk_${TOKEN}\nx` }),
        () => rig.catalog(via, { apiKey: `ck_${TOKEN}\r\nx` }),
      ];
      for (const build of keyed) {
        const error = await failure(Promise.resolve().then(build));
        expect(error).toBeInstanceOf(InvalidParamsError);
        expect((error as InvalidParamsError).param).toBe('apiKey');
        expect(error.message).toBe(
          'apiKey has a CR, LF or NUL, or a character beyond U+00FF, which no HTTP request can carry (not shown).',
        );
        expect(texts(error)).not.toContain(TOKEN);
      }
      expect(attempts(rig)).toBe(0);
    },
  },
  {
    name: 'a CR or LF in a per-call header is refused before anything is sent (attempts 0), on both APIs',
    via: ['socket', 'fetch'],
    within: 1_000,
    async run(rig, via) {
      const headers = { 'x-trace-id': SPLITTING };
      const calls = [
        rig.mgmt(via).pixels.get(1, { headers }),
        rig.catalog(via).purchases.validate(rig.server.fixtures.purchaseCodes.supported, { headers }),
      ];
      for (const call of calls) {
        const error = await failure(call);
        expect(error).toBeInstanceOf(InvalidParamsError);
        expect((error as InvalidParamsError).param).toBe('headers');
        expect((error as InvalidParamsError).attempts).toBe(0);
        expect(error.message).toContain('"x-trace-id"');
        expect(texts(error)).not.toContain(TOKEN);
      }
      expect(attempts(rig)).toBe(0);
    },
  },
  {
    name: 'Catalog: a validation answer about another purchase code is ResponseValidationError showing neither code',
    via: ['socket', 'msw', 'fetch'],
    within: 1_000,
    async run(rig, via) {
      const asked = rig.server.fixtures.purchaseCodes.supported;
      rig.use(
        editJson((body, request) => {
          if (request.method === 'POST') purchaseOf(body).purchase_code = OTHER_CODE;
          return body;
        }),
      );
      const error = await failure(rig.catalog(via).purchases.validate(asked));
      expect(error).toBeInstanceOf(ResponseValidationError);
      const invalid = error as ResponseValidationError;
      expect(invalid.message).toMatch(
        /^POST \S+\/api\/purchases\/validation: the answer is about purchase code \*\*\*beef, not \*\*\*0001\.$/,
      );
      expect(invalid.status).toBe(200);
      expect(invalid.attempts).toBe(1);
      expect(invalid.issues).toEqual([{ path: ['purchase_code'], message: 'expected ***0001, got ***beef' }]);
      expect(invalid.body).toMatchObject({ purchase_code: '***beef', item: { id: 101 } });
      for (const code of [asked, OTHER_CODE]) {
        expect(texts(invalid)).not.toContain(code);
        expect(inspect(invalid.toJSON(), { depth: 12 })).not.toContain(code);
      }
      expect(attempts(rig)).toBe(1);
    },
  },
  {
    name: 'Catalog: a validation answer that spells the asked code in capitals is about that code: accepted, with the code as asked',
    within: 1_000,
    async run(rig, via) {
      const asked = rig.server.fixtures.purchaseCodes.supported;
      rig.use(
        editJson((body, request) => {
          if (request.method === 'POST') purchaseOf(body).purchase_code = asked.toUpperCase();
          return body;
        }),
      );
      // A code matches in any letter case; the result carries the caller's spelling (trimmed), on every path.
      await expect(rig.catalog(via).purchases.validate(` ${asked} `)).resolves.toMatchObject({
        purchase_code: asked,
        item: { id: 101 },
      });
    },
  },
  {
    name: 'Management: a DELETE answered 204 with no body resolves to the receipt, for pixels and domains',
    via: ['socket', 'msw', 'fetch'],
    within: 1_000,
    async run(rig, via) {
      rig.use(noContentDeletes);
      const client = rig.mgmt(via);
      const domain = (await client.domains.list()).data[0]?.id as number;
      const { data, response } = await client.pixels.delete(3).withResponse();
      expect(data).toEqual({ id: 3, object: 'pixel', deleted: true });
      expect(response.status).toBe(204);
      await expect(client.domains.delete(domain)).resolves.toEqual({
        id: domain,
        object: 'domain',
        deleted: true,
      });
      expect(rig.pixels().find((p) => p.id === 3)).toBeUndefined();
      await expect(client.domains.get(domain)).rejects.toBeInstanceOf(NotFoundError);
      expect(rig.server.requests.map((r) => r.method)).toEqual(['GET', 'DELETE', 'DELETE', 'GET']);
    },
  },
  {
    name: 'Management: paging meta as numeric strings (a PHP setup) is read as numbers, and the walk completes',
    via: ['socket', 'fetch'],
    within: 1_000,
    async run(rig, via) {
      rig.use(
        editJson((body) => {
          const meta = (body as Json).meta as Json | undefined;
          for (const [name, value] of Object.entries(meta ?? {}))
            if (typeof value === 'number' && meta) meta[name] = String(value);
          return body;
        }),
      );
      const list = rig.mgmt(via).pixels.list({ per_page: 10 });
      const page = await list;
      expect(page.meta).toEqual({ current_page: 1, last_page: 2, per_page: 10, total: 12, from: 1, to: 10 });
      const second = await page.getNextPage();
      expect(second.meta).toEqual({
        current_page: 2,
        last_page: 2,
        per_page: 10,
        total: 12,
        from: 11,
        to: 12,
      });
      expect(second.hasNextPage()).toBe(false);
      const ids: number[] = [];
      for await (const pixel of list) ids.push(pixel.id);
      expect([...ids].sort((a, b) => a - b)).toEqual(rig.pixels().map((p) => p.id));
    },
  },
  {
    name: '429 with X-RateLimit-Reset: 1000000000 (10^9, a Unix time long past): retried at once, no pause',
    via: ['socket', 'msw', 'fetch'],
    within: 1_500,
    async run(rig, via) {
      rig.server.faults.script([
        {
          status: 429,
          body: { message: 'Too Many Attempts.' },
          headers: { 'x-ratelimit-reset': '1000000000' },
        },
      ]);
      const client = rig.mgmt(via);
      const started = mark();
      await expect(client.pixels.get(1)).resolves.toMatchObject({ id: 1 });
      expect(since(started)).toBeLessThan(1_000);
      expect(attempts(rig)).toBe(2);
      expect(client.rateLimit.pausedUntil).toBeUndefined();
    },
  },
  {
    name: '429 with X-RateLimit-Reset: 1 (below 10^9, seconds from now): waits about a second, then succeeds',
    within: 2_500,
    async run(rig, via) {
      rig.server.faults.script([
        { status: 429, body: { message: 'Too Many Attempts.' }, headers: { 'x-ratelimit-reset': '1' } },
      ]);
      const started = mark();
      await expect(rig.mgmt(via).pixels.get(1)).resolves.toMatchObject({ id: 1 });
      expect(wallSince(started)).toBeGreaterThanOrEqual(950);
      expect(attempts(rig)).toBe(2);
    },
  },
  {
    name: '429 with only RateLimit-Reset: 3600 (a header ky waits on too): RateLimitError at once, retryAfter 3600',
    via: ['socket', 'fetch'],
    within: 1_000,
    async run(rig, via) {
      rig.server.faults.script([
        { status: 429, body: { message: 'Too Many Attempts.' }, headers: { 'ratelimit-reset': '3600' } },
      ]);
      const error = await failure(rig.mgmt(via).pixels.get(1));
      expect(error).toBeInstanceOf(RateLimitError);
      expect((error as RateLimitError).retryAfter).toBe(3600);
      expect((error as RateLimitError).attempts).toBe(1);
    },
  },
  {
    name: '429 whose Retry-After cannot be read: backed off and retried as ky does, the X-RateLimit-Reset behind it unread',
    via: ['socket', 'fetch'],
    within: 2_000,
    async run(rig, via) {
      const inTenMinutes = String(Math.floor(Date.now() / 1000) + 600);
      rig.server.faults.script([
        {
          status: 429,
          body: { message: 'Too Many Attempts.' },
          headers: { 'retry-after': 'soon', 'x-ratelimit-reset': inTenMinutes },
        },
      ]);
      await expect(rig.mgmt(via).pixels.get(1)).resolves.toMatchObject({ id: 1 });
      expect(attempts(rig)).toBe(2);
    },
  },
  {
    name: 'pagination: a server that sends the same items on every page while claiming a next one stops the walk at page 2',
    via: ['socket', 'fetch'],
    within: 2_000,
    async run(rig, via) {
      rig.use(stuckPages);
      const list = rig.mgmt(via).pixels.list({ per_page: 10 });
      const ids: number[] = [];
      const error = await failure(
        (async () => {
          for await (const pixel of list) ids.push(pixel.id);
        })(),
      );
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error.message).toBe(
        'List page 2 repeats only ids already seen on earlier pages, yet says page 3 follows: the pages do not ' +
          'advance, so the list walk stops here rather than loop.',
      );
      expect((error as ResponseValidationError).status).toBe(200);
      expect(ids).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
      const pages: number[] = [];
      const again = await failure(
        (async () => {
          for await (const page of list.pages()) pages.push(page.meta.current_page);
        })(),
      );
      expect(again).toBeInstanceOf(ResponseValidationError);
      expect(pages).toEqual([1]);
      // Page 1 once (the promise holds it), page 2 once per walk; never a page 3.
      expect(attempts(rig)).toBe(3);
    },
  },
  {
    name: 'pagination: a page that repeats some ids (a pixel created during the walk) still completes, every pixel once',
    via: ['socket', 'fetch'],
    within: 2_000,
    async run(rig, via) {
      const client = rig.mgmt(via);
      for (let n = 1; n <= 13; n += 1)
        await client.pixels.create({ name: `Extra ${n}`, type: 'x', value: '1' });
      const before = rig.pixels().map((p) => p.id);
      expect(before).toHaveLength(25);
      rig.use(insertBeforePage2);
      const ids: number[] = [];
      const pages: number[][] = [];
      for await (const page of client.pixels.list({ per_page: 10 }).pages())
        pages.push(page.data.map((p) => p.id));
      for await (const pixel of client.pixels.list({ per_page: 10 })) ids.push(pixel.id);
      // The pages() walk saw the insert: page 2 repeats the last id of page 1, and a third page follows.
      expect(pages.map((p) => p.length)).toEqual([10, 10, 6]);
      expect(pages[1]?.[0]).toBe(pages[0]?.[9]);
      expect([...ids].sort((a, b) => a - b)).toEqual(
        rig
          .pixels()
          .map((p) => p.id)
          .slice(0, 26),
      );
      expect(new Set(ids).size).toBe(ids.length);
    },
  },
  {
    name: 'pagination: an answer for page 1 when page 2 was asked (a cache ignoring ?page) stops the walk',
    via: ['socket', 'fetch'],
    within: 1_000,
    async run(rig, via) {
      rig.use((request, next) => next(firstPageOf(request).first));
      const ids: number[] = [];
      const error = await failure(
        (async () => {
          for await (const pixel of rig.mgmt(via).pixels.list({ per_page: 10 })) ids.push(pixel.id);
        })(),
      );
      expect(error).toBeInstanceOf(ContentPlatformError);
      expect(error.message).toMatch(
        /^GET \S+\/api\/v1\/pixels\?per_page=10&page=2: asked for page 2, the answer is page 1 \(meta\.current_page\)\. A proxy or cache may be answering with one page again; the list walk stops here rather than loop\.$/,
      );
      expect(ids).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
      expect(attempts(rig)).toBe(2);
    },
  },
];
