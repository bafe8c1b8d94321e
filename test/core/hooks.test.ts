import { inspect } from 'node:util';
import {
  CatalogClient,
  type Hooks,
  ManagementClient,
  NotFoundError,
  RateLimitError,
  redactUrl,
} from 'content-platform-sdk';
import ky from 'ky';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { anItem, ok } from '../catalog/fixtures.js';
import { failure } from '../helpers/failure.js';
import { useMsw } from '../helpers/msw.js';
import { BASE_URL, ROOT, SECRET, showBody, wirePixel } from '../management/fixtures.js';

const msw = useMsw();
const quiet = { logLevel: 'off' as const };
const mgmt = (options: ConstructorParameters<typeof ManagementClient>[0] = {}) =>
  new ManagementClient({ baseUrl: BASE_URL, apiKey: SECRET, ...quiet, ...options });

beforeEach(() => {
  // Backoff waits are drawn at random below the backoff step: pinned to 0 so retries are immediate.
  vi.spyOn(Math, 'random').mockReturnValue(0);
});

/** A pixel answer after `failures` answers of 503. */
function flaky(failures: number) {
  let calls = 0;
  msw.use(
    http.get(`${ROOT}/pixels/1`, () => {
      calls += 1;
      return calls <= failures
        ? HttpResponse.json({ message: 'busy' }, { status: 503 })
        : HttpResponse.json(showBody(wirePixel({ id: 1 })));
    }),
  );
}

describe('hooks (client and call)', () => {
  it('runs the client hooks, then the call hooks, on every request', async () => {
    flaky(0);
    const order: string[] = [];
    const client = mgmt({
      hooks: {
        beforeRequest: [() => void order.push('client beforeRequest')],
        afterResponse: [() => void order.push('client afterResponse')],
      },
    });
    await client.pixels.get(1, {
      hooks: {
        beforeRequest: [() => void order.push('call beforeRequest')],
        afterResponse: [() => void order.push('call afterResponse')],
      },
    });
    await client.pixels.get(1);
    expect(order).toEqual([
      'client beforeRequest',
      'call beforeRequest',
      'client afterResponse',
      'call afterResponse',
      'client beforeRequest',
      'client afterResponse',
    ]);
  });

  it('sees each attempt: retryCount 0 then 1 on a retried GET, with its Request and Response', async () => {
    flaky(1);
    const seen: { retryCount: number; method: string; url: string; status: number }[] = [];
    const retries: number[] = [];
    const hooks: Hooks = {
      afterResponse: [
        ({ request, response, retryCount }) =>
          void seen.push({ retryCount, method: request.method, url: request.url, status: response.status }),
      ],
      beforeRetry: [({ retryCount }) => void retries.push(retryCount)],
    };
    const pixel = await mgmt({ hooks, maxRetries: 2 }).pixels.get(1);
    expect(pixel.id).toBe(1);
    expect(seen).toEqual([
      { retryCount: 0, method: 'GET', url: `${ROOT}/pixels/1`, status: 503 },
      { retryCount: 1, method: 'GET', url: `${ROOT}/pixels/1`, status: 200 },
    ]);
    expect(retries).toEqual([1]);
    expect(msw.captured).toHaveLength(2);
  });

  it('puts a header a hook adds on the wire (tracing, signing)', async () => {
    flaky(0);
    const hooks: Hooks = {
      beforeRequest: [({ request }) => request.headers.set('traceparent', '00-trace-span-01')],
    };
    await mgmt({ hooks }).pixels.get(1);
    expect(msw.captured[0]?.headers).toMatchObject({
      traceparent: '00-trace-span-01',
      authorization: `Bearer ${SECRET}`,
    });
  });

  it("hands a hook's own error to the caller unchanged, and sends nothing after it", async () => {
    flaky(0);
    const mine = new Error('signing key unavailable');
    const hooks: Hooks = {
      beforeRequest: [
        () => {
          throw mine;
        },
      ],
    };
    await expect(mgmt({ hooks }).pixels.get(1)).rejects.toBe(mine);
    expect(msw.captured).toHaveLength(0);
  });

  it("hands a hook's error to the caller unchanged even when the logger throws too", async () => {
    flaky(1);
    const mine = new TypeError('metrics sink is down');
    const down = () => {
      throw new Error('logger down');
    };
    const logger = { error: down, warn: down, info: down, debug: down };
    const hooks: Hooks = {
      afterResponse: [
        () => {
          throw mine;
        },
      ],
    };
    await expect(mgmt({ hooks, logger, logLevel: 'debug' }).pixels.get(1)).rejects.toBe(mine);
    expect(msw.captured).toHaveLength(1);
  });

  it("hands an afterResponse hook's error to the caller unchanged, not retried", async () => {
    flaky(1);
    const mine = new TypeError('metrics sink is down');
    const hooks: Hooks = {
      afterResponse: [
        () => {
          throw mine;
        },
      ],
    };
    await expect(mgmt({ hooks, maxRetries: 2 }).pixels.get(1)).rejects.toBe(mine);
    expect(msw.captured).toHaveLength(1);
  });

  it('still maps the answer to our errors with hooks attached', async () => {
    msw.use(
      http.get(`${ROOT}/pixels/9`, () => HttpResponse.json({ message: 'No query results' }, { status: 404 })),
    );
    const afterResponse = vi.fn();
    const error = await failure(mgmt({ hooks: { afterResponse: [afterResponse] } }).pixels.get(9));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(afterResponse).toHaveBeenCalledTimes(1);
  });

  it('maps an error answer that a hook made itself, body included', async () => {
    flaky(0);
    const hooks: Hooks = {
      afterResponse: [() => Response.json({ message: 'Hidden by the gateway.' }, { status: 404 })],
    };
    const error = await failure(mgmt({ hooks }).pixels.get(1));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe(`GET ${ROOT}/pixels/1 failed with 404: "Hidden by the gateway."`);
    expect((error as NotFoundError).body).toEqual({ message: 'Hidden by the gateway.' });
  });
});

describe('a user ky instance (ky option)', () => {
  it("keeps the instance's headers and hooks, while the SDK's Authorization, Accept and URL win", async () => {
    flaky(0);
    const before = vi.fn();
    const mine = ky.create({
      prefix: 'https://elsewhere.example.com/',
      headers: { 'x-team': 'growth', authorization: 'Bearer not-the-key', accept: 'text/html' },
      hooks: { beforeRequest: [before] },
    });
    await mgmt({ ky: mine }).pixels.get(1);
    expect(msw.captured).toHaveLength(1);
    expect(msw.captured[0]?.url).toBe(`${ROOT}/pixels/1`);
    expect(msw.captured[0]?.headers).toMatchObject({
      'x-team': 'growth',
      authorization: `Bearer ${SECRET}`,
      accept: 'application/json',
    });
    expect(before).toHaveBeenCalledTimes(1);
  });

  it("uses the instance's fetch, and the fetch option over it", async () => {
    const instanceFetch = vi.fn(async () => Response.json(showBody(wirePixel({ id: 1 }))));
    const optionFetch = vi.fn(async () => Response.json(showBody(wirePixel({ id: 2 }))));
    const mine = ky.create({ fetch: instanceFetch });
    expect((await mgmt({ ky: mine }).pixels.get(1)).id).toBe(1);
    expect((await mgmt({ ky: mine, fetch: optionFetch }).pixels.get(2)).id).toBe(2);
    expect(instanceFetch).toHaveBeenCalledTimes(1);
    expect(optionFetch).toHaveBeenCalledTimes(1);
    expect(msw.captured).toHaveLength(0);
  });

  it("keeps the instance's onDownloadProgress working (it reads a copy of each answer's body)", async () => {
    flaky(0);
    const progress = vi.fn();
    const pixel = await mgmt({ ky: ky.create({ onDownloadProgress: progress }) }).pixels.get(1);
    expect(pixel.id).toBe(1);
    expect(progress).toHaveBeenCalled();
    expect(progress.mock.calls.at(-1)?.[0]).toMatchObject({ percent: 1 });
  });

  it("does not multiply retries: an instance's retry: 5 is replaced by the SDK's policy", async () => {
    msw.use(http.get(`${ROOT}/pixels/1`, () => HttpResponse.json({ message: 'busy' }, { status: 503 })));
    const mine = ky.create({ retry: 5, timeout: 1 });
    const error = await failure(mgmt({ ky: mine, maxRetries: 1 }).pixels.get(1));
    expect(error.name).toBe('InternalServerError');
    expect(msw.captured).toHaveLength(2);
  });

  it("does not take the instance's retry rules either (a create is never retried after a 503)", async () => {
    msw.use(http.post(`${ROOT}/pixels`, () => HttpResponse.json({ message: 'busy' }, { status: 503 })));
    const mine = ky.create({ retry: { limit: 5, methods: ['post'], statusCodes: [503] } });
    await failure(mgmt({ ky: mine, maxRetries: 2 }).pixels.create({ name: 'A', type: 'bing', value: '1' }));
    expect(msw.captured).toHaveLength(1);
  });

  it("sends each call's own method and retries, over an instance's default method and limit", async () => {
    // A call passes ky no method for a GET, and its retry object as it is, only where the instance has neither.
    flaky(1);
    const mine = ky.create({ method: 'post', retry: { limit: 0 } });
    const pixel = await mgmt({ ky: mine }).pixels.get(1);
    expect(pixel.id).toBe(1);
    expect(msw.captured.map((c) => [c.method, c.url])).toEqual([
      ['GET', `${ROOT}/pixels/1`],
      ['GET', `${ROOT}/pixels/1`],
    ]);
  });

  it('retries as maxRetries says, whether or not it is the default (a call passes ky a limit only when not)', async () => {
    msw.use(http.get(`${ROOT}/pixels/1`, () => HttpResponse.json({ message: 'busy' }, { status: 503 })));
    expect((await failure(mgmt().pixels.get(1))).name).toBe('InternalServerError');
    expect(msw.captured).toHaveLength(3);
    msw.captured.length = 0;
    expect((await failure(mgmt({ maxRetries: 1 }).pixels.get(1))).name).toBe('InternalServerError');
    expect(msw.captured).toHaveLength(2);
    msw.captured.length = 0;
    expect((await failure(mgmt().pixels.get(1, { maxRetries: 4 }))).name).toBe('InternalServerError');
    expect(msw.captured).toHaveLength(5);
  });

  it('can be shared by both clients, each with its own URL and authentication', async () => {
    flaky(0);
    msw.use(
      http.get('https://market.example.com/api/items/all', () => HttpResponse.json(ok('items', [anItem()]))),
    );
    const shared = ky.create({ headers: { 'x-wrapper': 'acme/1.0' } });
    const catalog = new CatalogClient({
      siteUrl: 'https://market.example.com',
      apiKey: 'cat-key',
      ky: shared,
      ...quiet,
    });
    await mgmt({ ky: shared }).pixels.get(1);
    await catalog.items.list();
    expect(msw.captured.map((c) => [c.url, c.headers['x-wrapper'], c.headers.authorization])).toEqual([
      [`${ROOT}/pixels/1`, 'acme/1.0', `Bearer ${SECRET}`],
      ['https://market.example.com/api/items/all?api_key=cat-key', 'acme/1.0', undefined],
    ]);
  });
});

describe('the options a hook sees', () => {
  it('show no Catalog key: the call the SDK carries in them prints redacted', async () => {
    msw.use(
      http.get('https://market.example.com/api/items/item', () => HttpResponse.json(ok('item', anItem()))),
    );
    const seen: string[] = [];
    const look: NonNullable<Hooks['afterResponse']>[number] = ({ options }) => {
      seen.push(inspect(options, { depth: 20 }), JSON.stringify(options));
    };
    const catalog = new CatalogClient({
      siteUrl: 'https://market.example.com',
      apiKey: 'cat-key-SECRET-0042',
      hooks: { afterResponse: [look] },
      ...quiet,
    });
    await catalog.items.get(42);
    expect(seen).toHaveLength(2);
    for (const text of seen) {
      expect(text).not.toContain('cat-key-SECRET-0042');
      expect(text).toContain('api_key=***');
    }
    expect(seen[0]).toContain(
      'Trace {"operation":"items.get","method":"GET","url":"https://market.example.com/api/items/item?item_id=42&api_key=***","attempts":1}',
    );
  });
});

describe('redactUrl', () => {
  it('masks the api_key parameter a Catalog GET carries, wherever it stands', () => {
    expect(redactUrl('https://m.example.com/api/items/all?api_key=k%2B1')).toBe(
      'https://m.example.com/api/items/all?api_key=***',
    );
    expect(redactUrl('https://m.example.com/api/items/all?x=1&API_KEY=k&y=2#f')).toBe(
      'https://m.example.com/api/items/all?x=1&API_KEY=***&y=2#f',
    );
    expect(redactUrl('https://m.example.com/api/items/all')).toBe('https://m.example.com/api/items/all');
  });

  it('is what a hook should log: the Catalog key is in request.url', async () => {
    msw.use(http.get('https://market.example.com/api/items/all', () => HttpResponse.json(ok('items', []))));
    const urls: string[] = [];
    const catalog = new CatalogClient({
      siteUrl: 'https://market.example.com',
      apiKey: SECRET,
      hooks: { beforeRequest: [({ request }) => void urls.push(request.url, redactUrl(request.url))] },
      ...quiet,
    });
    await catalog.items.list().catch(() => undefined);
    expect(urls[0]).toContain(SECRET);
    expect(urls[1]).toBe('https://market.example.com/api/items/all?api_key=***');
  });
});

describe('the retry line with hooks', () => {
  it('keeps the SDK retry line and the 429 mapping when the user has beforeRetry hooks', async () => {
    msw.use(
      http.get(`${ROOT}/pixels/1`, () =>
        HttpResponse.json(
          { message: 'Too Many Attempts.' },
          { status: 429, headers: { 'retry-after': '0' } },
        ),
      ),
    );
    const info = vi.fn();
    const beforeRetry = vi.fn();
    const logger = { error: vi.fn(), warn: vi.fn(), info, debug: vi.fn() };
    const error = await failure(
      mgmt({ logger, logLevel: 'info', maxRetries: 1, hooks: { beforeRetry: [beforeRetry] } }).pixels.get(1),
    );
    expect(error).toBeInstanceOf(RateLimitError);
    expect(info).toHaveBeenCalledWith(
      `[content-platform-sdk] GET ${ROOT}/pixels/1: retry 1 of 1 in 0 ms after HTTP 429`,
      { method: 'GET', url: `${ROOT}/pixels/1`, attempt: 1, status: 429, retryInMs: 0 },
    );
    expect(beforeRetry).toHaveBeenCalledTimes(1);
  });
});
