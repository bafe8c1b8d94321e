import { inspect } from 'node:util';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type AnyContentPlatformError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  CatalogClient,
  ContentPlatformError,
  InternalServerError,
  InvalidParamsError,
  isContentPlatformError,
  ManagementClient,
  NotFoundError,
  RateLimitError,
} from '../../src/index.js';
import { wirePixel } from '../management/fixtures.js';

const BASE = 'https://links.example.com';
const ROOT = `${BASE}/api/v1`;
const KEY = 'mk_live_WRAPPERKEY_123';
const CATALOG_KEY = 'ck_live_CATALOGKEY_456';

type Step = (request: Request) => Promise<Response>;

/** A fetch that plays `steps` in order (the last repeats) and records each request's method and URL. */
function script(...steps: Step[]) {
  const sent: string[] = [];
  const fetch = async (request: Request) => {
    sent.push(`${request.method} ${request.url}`);
    return (steps[Math.min(sent.length - 1, steps.length - 1)] as Step)(request);
  };
  return { fetch, sent };
}
const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Step =>
  async () =>
    Response.json(body, { status, headers });
/** A fetch failure carrying a system code, as undici throws it. */
const broken =
  (code: string, message = 'fetch failed'): Step =>
  async () => {
    throw new TypeError(message, { cause: Object.assign(new Error(`${code} on the socket`), { code }) });
  };
const hang: Step = (request) =>
  new Promise((_, reject) => {
    request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
  });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error as ContentPlatformError,
  );
const mgmt = (fetch: (request: Request) => Promise<Response>, options = {}) =>
  new ManagementClient({ baseUrl: BASE, apiKey: KEY, fetch, logLevel: 'off', ...options });

describe('attempts, requestId and the full URL on every call error', () => {
  it('a 404 on the first attempt: attempts 1, the X-Request-Id, the method and full URL in the message', async () => {
    const { fetch, sent } = script(
      json(404, { message: 'No query results.' }, { 'x-request-id': 'req-404' }),
    );
    const error = await failure(mgmt(fetch, { maxRetries: 2 }).pixels.get(7));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ attempts: 1, requestId: 'req-404', status: 404 });
    expect(error.message).toBe(`GET ${ROOT}/pixels/7 failed with 404: "No query results."`);
    expect(sent).toEqual([`GET ${ROOT}/pixels/7`]);
  });

  it("a 503 on every attempt: attempts counts the retries, requestId is the last answer's", async () => {
    const { fetch, sent } = script(
      json(503, { message: 'busy' }, { 'x-request-id': 'first', 'retry-after': '0' }),
      json(503, { message: 'busy' }, { 'x-request-id': 'last', 'retry-after': '0' }),
    );
    const error = await failure(mgmt(fetch, { maxRetries: 2 }).pixels.list({ per_page: 10 }));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ attempts: 3, requestId: 'last', retryAfter: 0 });
    expect(sent).toHaveLength(3);
    expect(error.message).toContain(`GET ${ROOT}/pixels?per_page=10 failed with 503`);
  });

  it('a Catalog GET names its full URL with the key masked, never the key', async () => {
    const { fetch } = script(json(404, { status: 'خطأ', msg: 'المنتج غير موجود' }));
    const catalog = new CatalogClient({ siteUrl: 'https://market.example.com', apiKey: CATALOG_KEY, fetch });
    const error = await failure(catalog.items.get(5));
    expect(error.message).toMatch(
      /^GET https:\/\/market\.example\.com\/api\/items\/item\?item_id=5&api_key=\*\*\*: /,
    );
    expect(JSON.stringify(error)).not.toContain(CATALOG_KEY);
  });

  it('bad input fails before anything is sent: attempts 0', async () => {
    const { fetch, sent } = script(json(200, {}));
    const error = await failure(mgmt(fetch).pixels.get('../x'));
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect(error.attempts).toBe(0);
    expect(sent).toEqual([]);
  });
});

describe('cause, code and mayHaveSucceeded on connection errors', () => {
  it("a refused connection: nothing was sent, code ECONNREFUSED, fetch's error as cause", async () => {
    const { fetch } = script(broken('ECONNREFUSED'));
    const error = (await failure(
      mgmt(fetch, { maxRetries: 1 }).pixels.create({ name: 'A', type: 'x', value: '1' }),
    )) as APIConnectionError;
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).toMatchObject({ code: 'ECONNREFUSED', mayHaveSucceeded: false, attempts: 2 });
    expect(error.message).toBe(`POST ${ROOT}/pixels failed: could not reach the server (ECONNREFUSED).`);
    expect(error.cause).toBeInstanceOf(TypeError);
    expect((error.cause as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('a create cut mid-flight: mayHaveSucceeded, not retried, and the message says to check first', async () => {
    const { fetch, sent } = script(broken('ECONNRESET'));
    const error = (await failure(
      mgmt(fetch, { maxRetries: 2 }).pixels.create({ name: 'A', type: 'x', value: '1' }),
    )) as APIConnectionError;
    expect(error).toMatchObject({ code: 'ECONNRESET', mayHaveSucceeded: true, attempts: 1 });
    expect(error.message).toBe(
      `POST ${ROOT}/pixels failed: the connection was lost before an answer (ECONNRESET). The server may have acted on it: check before sending it again.`,
    );
    expect(sent).toHaveLength(1);
  });

  it("scrubs the key out of fetch's error before keeping it as the cause", async () => {
    const { fetch } = script(async (request) => {
      throw new TypeError(`proxy refused ${request.url}`);
    });
    const catalog = new CatalogClient({
      siteUrl: 'https://market.example.com',
      apiKey: CATALOG_KEY,
      fetch,
      maxRetries: 0,
    });
    const error = await failure(catalog.items.list());
    const cause = error.cause as Error;
    expect(cause).toBeInstanceOf(Error);
    expect(cause.name).toBe('TypeError');
    expect(cause.message).toBe('proxy refused https://market.example.com/api/items/all?api_key=***');
    for (const text of [error.message, cause.message, String(cause.stack), inspect(error, { depth: 5 })])
      expect(text).not.toContain(CATALOG_KEY);
  });

  it("a timeout after an error answer keeps that answer's error as its cause", async () => {
    const { fetch } = script(
      json(503, { message: 'warming up' }, { 'retry-after': '0', 'x-request-id': 'r1' }),
      hang,
    );
    const error = (await failure(
      mgmt(fetch, { maxRetries: 1, timeout: 100 }).pixels.get(1),
    )) as APIConnectionTimeoutError;
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error).toMatchObject({ attempts: 2, mayHaveSucceeded: true, requestId: 'r1' });
    expect(error.cause).toBeInstanceOf(InternalServerError);
    expect((error.cause as InternalServerError).status).toBe(503);
  });
});

describe('waits a server asks for (maxRetryAfter, totalTimeout)', () => {
  it('a 429 asking for more than maxRetryAfter fails at once with RateLimitError and its retryAfter', async () => {
    const { fetch, sent } = script(json(429, { message: 'slow down' }, { 'retry-after': '3' }));
    const error = await failure(mgmt(fetch, { maxRetries: 2, maxRetryAfter: 2_000 }).pixels.get(1));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfter: 3, attempts: 1 });
    expect(sent).toHaveLength(1);
  });

  it('a 503 within maxRetryAfter is waited for and retried', async () => {
    const { fetch, sent } = script(
      json(503, { message: 'busy' }, { 'retry-after': '1' }),
      json(200, { data: wirePixel({ id: 1 }) }),
    );
    await expect(mgmt(fetch, { maxRetries: 1, maxRetryAfter: 1_000 }).pixels.get(1)).resolves.toMatchObject({
      id: 1,
    });
    expect(sent).toHaveLength(2);
  });

  it('the default maxRetryAfter is 60 s: a 503 asking for 61 s fails at once with retryAfter', async () => {
    const { fetch, sent } = script(json(503, { message: 'maintenance' }, { 'retry-after': '61' }));
    const error = await failure(mgmt(fetch, { maxRetries: 2 }).pixels.get(1));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 503, retryAfter: 61, attempts: 1 });
    expect(sent).toHaveLength(1);
  });

  it('a 429 whose wait would pass totalTimeout fails at once with the RateLimitError, not a timeout', async () => {
    const { fetch, sent } = script(json(429, { message: 'slow down' }, { 'retry-after': '2' }));
    const error = await failure(mgmt(fetch, { maxRetries: 2, totalTimeout: 1_000 }).pixels.get(1));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfter: 2, attempts: 1 });
    expect(sent).toHaveLength(1);
  });

  it('refuses a maxRetryAfter that is not a number of milliseconds', () => {
    expect(() => mgmt(script().fetch, { maxRetryAfter: -1 })).toThrow(InvalidParamsError);
    expect(() => mgmt(script().fetch, { maxRetryAfter: 0 })).not.toThrow();
  });
});

describe('DELETE after an attempt that got no answer', () => {
  const gone = json(404, { message: 'No query results for model [Pixel] 9' });

  it('resolves as deleted when the retry finds it gone after a reset', async () => {
    const { fetch, sent } = script(broken('ECONNRESET'), gone);
    await expect(mgmt(fetch, { maxRetries: 2 }).pixels.delete(9)).resolves.toEqual({
      id: 9,
      object: 'pixel',
      deleted: true,
    });
    expect(sent).toEqual([`DELETE ${ROOT}/pixels/9`, `DELETE ${ROOT}/pixels/9`]);
  });

  it('resolves as deleted when the retry finds it gone after a timeout (domains too)', async () => {
    const { fetch } = script(hang, gone);
    await expect(mgmt(fetch, { maxRetries: 1, timeout: 100 }).domains.delete('4')).resolves.toEqual({
      id: 4,
      object: 'domain',
      deleted: true,
    });
  });

  it('is still NotFoundError on a first attempt, and after an earlier answer that was an error', async () => {
    await expect(mgmt(script(gone).fetch).pixels.delete(9)).rejects.toBeInstanceOf(NotFoundError);
    const { fetch } = script(json(503, { message: 'busy' }, { 'retry-after': '0' }), gone);
    const error = await failure(mgmt(fetch, { maxRetries: 1 }).pixels.delete(9));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.attempts).toBe(2);
  });
});

describe('instanceof across copies of the SDK', () => {
  it('holds per class for an error thrown by another copy of the modules (ESM and CJS builds alike)', async () => {
    // A second instance of the module, as the CommonJS build or a second install is: its own classes.
    const copy = '../../src/core/errors/classes.js?copy=2';
    const other = (await import(
      /* @vite-ignore */ copy
    )) as typeof import('../../src/core/errors/classes.js');
    expect(other.NotFoundError).not.toBe(NotFoundError);
    const foreign = new other.NotFoundError({
      status: 404,
      headers: new Headers(),
      body: undefined,
      message: 'x',
    });
    expect(foreign).toBeInstanceOf(NotFoundError);
    expect(foreign).toBeInstanceOf(APIError);
    expect(foreign).toBeInstanceOf(ContentPlatformError);
    expect(foreign).not.toBeInstanceOf(RateLimitError);
    expect(foreign).not.toBeInstanceOf(APIConnectionError);
    expect(isContentPlatformError(foreign)).toBe(true);
    const ours = new RateLimitError({ status: 429, headers: new Headers(), body: undefined, message: 'y' });
    expect(ours).toBeInstanceOf(other.RateLimitError);
    expect(ours).not.toBeInstanceOf(other.NotFoundError);
  });

  it('is false for anything else, and a subclass a user writes keeps the plain rule', () => {
    for (const value of [new Error('x'), { name: 'NotFoundError' }, null, 'NotFoundError', undefined])
      expect(isContentPlatformError(value)).toBe(false);
    class GoneError extends NotFoundError {}
    const plain = new NotFoundError({ status: 404, headers: new Headers(), body: undefined, message: 'x' });
    expect(plain).not.toBeInstanceOf(GoneError);
    expect(
      new GoneError({ status: 404, headers: new Headers(), body: undefined, message: 'x' }),
    ).toBeInstanceOf(NotFoundError);
  });

  it('narrows on name: each class has its own literal name type', () => {
    const describe = (error: AnyContentPlatformError): string => {
      switch (error.name) {
        case 'NotFoundError':
          expectTypeOf(error).toEqualTypeOf<NotFoundError>();
          return `404 ${error.status}`;
        case 'RateLimitError':
          return `wait ${error.retryAfter}`;
        case 'APIConnectionError':
          return `lost ${error.mayHaveSucceeded}`;
        default:
          return error.name;
      }
    };
    const error: unknown = new RateLimitError({
      status: 429,
      headers: new Headers(),
      body: undefined,
      message: 'y',
      retryAfter: 5,
    });
    expect(isContentPlatformError(error) ? describe(error) : 'other').toBe('wait 5');
  });
});

describe('util.inspect of an SDK error', () => {
  it('shows name, message, status, code, attempts and request id, not the headers and body', async () => {
    const headers = { 'x-request-id': 'req-9', 'x-internal-trace': 'TRACE-HEADER-VALUE' };
    const { fetch } = script(json(404, { message: 'No query results.', debug: 'BODY-DETAIL' }, headers));
    const error = await failure(mgmt(fetch).pixels.get(9));
    const shown = inspect(error);
    expect(shown).toMatch(
      /^NotFoundError: GET https:\/\/links\.example\.com\/api\/v1\/pixels\/9 failed with 404/,
    );
    expect(shown).toContain('status: 404');
    expect(shown).toContain('attempts: 1');
    expect(shown).toContain("requestId: 'req-9'");
    expect(shown).not.toContain('TRACE-HEADER-VALUE');
    expect(shown).not.toContain('BODY-DETAIL');
    // Still on the properties.
    expect((error as NotFoundError).headers.get('x-internal-trace')).toBe('TRACE-HEADER-VALUE');
    expect(JSON.stringify((error as NotFoundError).body)).toContain('BODY-DETAIL');
  });

  it("shows a connection error's code and mayHaveSucceeded", async () => {
    const error = await failure(mgmt(script(broken('ECONNREFUSED')).fetch).pixels.get(1));
    expect(inspect(error)).toMatch(/code: 'ECONNREFUSED'[\s\S]*mayHaveSucceeded: false/);
  });
});

describe('purchase codes in errors', () => {
  const CODE = '86781236-23d0-4b3c-7dfa-c1c147e0dece';
  const catalog = (fetch: (request: Request) => Promise<Response>) =>
    new CatalogClient({ siteUrl: 'https://market.example.com', apiKey: CATALOG_KEY, fetch, maxRetries: 0 });
  const shown = (error: ContentPlatformError) =>
    [error.message, JSON.stringify(error), inspect(error, { depth: 10 }), String(error.stack)].join('\n');

  it('a 2xx body that echoes the code but does not fit: masked to its last four everywhere', async () => {
    const body = { status: 'success', item: { purchase_code: CODE, license_type: 5 } };
    const error = await failure(catalog(script(json(200, body)).fetch).purchases.validate(CODE));
    expect(error.name).toBe('ResponseValidationError');
    expect(shown(error)).not.toContain(CODE);
    expect(JSON.stringify(error)).toContain('"purchase_code":"***dece"');
  });

  it('an error envelope whose msg quotes the code: masked in msg, body and message', async () => {
    const body = { status: 'خطأ', msg: `كود الشراء غير صحيح ${CODE}` };
    const error = await failure(catalog(script(json(404, body)).fetch).purchases.validate(CODE));
    expect(error.name).toBe('InvalidPurchaseCodeError');
    expect(shown(error)).not.toContain(CODE);
    expect((error as unknown as { msg: string }).msg).toBe('كود الشراء غير صحيح ***dece');
  });

  it('a code of the wrong type is not quoted back in the InvalidParamsError', async () => {
    const error = await failure(
      catalog(script().fetch).purchases.validate(867812362300 as unknown as string),
    );
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect(error.message).toBe('purchaseCode must be a non-empty string; got a number.');
  });
});
