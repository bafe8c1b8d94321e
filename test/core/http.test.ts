import { inspect } from 'node:util';
import ky from 'ky';
import { delay, HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import * as errors from '../../src/core/errors/classes.js';
import { bearerClient, paramClient, SECRET } from '../helpers/core.js';
import { failure, leakSurface } from '../helpers/failure.js';
import { type Captured, useMsw } from '../helpers/msw.js';

const msw = useMsw();
const ROOT = 'https://links.example.com/api/v1';
const SITE = 'https://market.example.com/api';
const Anything = z.unknown();

describe('HttpClient requests', () => {
  it('sends a GET to the API root with the JSON, user-agent and bearer headers', async () => {
    msw.use(http.get(`${ROOT}/pixels/1`, () => HttpResponse.json({ ok: true })));
    await expect(bearerClient().get('pixels/1', Anything)).resolves.toEqual({ ok: true });
    expect(msw.captured).toHaveLength(1);
    const [request] = msw.captured;
    expect(request?.method).toBe('GET');
    expect(request?.url).toBe(`${ROOT}/pixels/1`);
    expect(request?.headers).toMatchObject({
      accept: 'application/json',
      'user-agent': 'content-platform-sdk/0.2.0',
      authorization: `Bearer ${SECRET}`,
    });
    expect(request?.headers['user-agent']).not.toMatch(/Mozilla|Chrome|Firefox|Opera|Edge/);
  });

  it.each([
    'https://links.example.com',
    'https://links.example.com/',
    'https://links.example.com/api/v1',
    'https://links.example.com/api/v1/',
  ])('builds the same URL from the base URL %s', async (baseUrl) => {
    msw.use(http.get(`${ROOT}/domains`, () => HttpResponse.json([])));
    await bearerClient({ baseUrl }).get('domains', Anything, {}, { page: 2 });
    expect(msw.captured[0]?.url).toBe(`${ROOT}/domains?page=2`);
  });

  it('keeps a base URL path prefix', async () => {
    msw.use(http.get('https://example.com/short/api/v1/pixels', () => HttpResponse.json([])));
    await bearerClient({ baseUrl: 'https://example.com/short/' }).get('pixels', Anything);
    expect(msw.captured[0]?.url).toBe('https://example.com/short/api/v1/pixels');
  });

  it('encodes the query and leaves undefined values out', async () => {
    msw.use(http.get(`${ROOT}/pixels`, () => HttpResponse.json([])));
    await bearerClient().get(
      'pixels',
      Anything,
      {},
      {
        search: 'a&b=c d+é',
        type: undefined,
        per_page: 25,
        flag: true,
      },
    );
    expect(msw.captured[0]?.url).toBe(`${ROOT}/pixels?search=a%26b%3Dc+d%2B%C3%A9&per_page=25&flag=true`);
  });

  it('form-encodes bodies so Arabic, &, =, +, spaces and emoji round-trip', async () => {
    const fields = { name: 'بكسل فيسبوك', value: 'a&b=c+d e%20f', emoji: '🚀✨', plus: '+', empty: '' };
    let received: Record<string, string> = {};
    msw.use(
      http.post(`${ROOT}/pixels`, async ({ request }) => {
        received = Object.fromEntries(new URLSearchParams(await request.text()));
        return HttpResponse.json({ ok: true }, { status: 201 });
      }),
    );
    await bearerClient().post('pixels', Anything, { ...fields, skipped: undefined });
    expect(received).toEqual(fields);
    expect(msw.captured[0]?.headers['content-type']).toBe('application/x-www-form-urlencoded;charset=UTF-8');
    expect(msw.captured[0]?.body).toBe(
      'name=%D8%A8%D9%83%D8%B3%D9%84+%D9%81%D9%8A%D8%B3%D8%A8%D9%88%D9%83&value=a%26b%3Dc%2Bd+e%2520f&emoji=%F0%9F%9A%80%E2%9C%A8&plus=%2B&empty=',
    );
  });

  it('sends PUT, PATCH and DELETE with their methods', async () => {
    msw.use(
      http.put(`${ROOT}/pixels/3`, () => HttpResponse.json({ m: 'put' })),
      http.patch(`${ROOT}/pixels/3`, () => HttpResponse.json({ m: 'patch' })),
      http.delete(`${ROOT}/pixels/3`, () => HttpResponse.json({ m: 'delete' })),
    );
    const client = bearerClient();
    await expect(client.request('PUT', 'pixels/3', Anything, { body: { name: 'x' } })).resolves.toEqual({
      m: 'put',
    });
    await expect(client.request('PATCH', 'pixels/3', Anything, { body: { name: 'y' } })).resolves.toEqual({
      m: 'patch',
    });
    await expect(client.request('DELETE', 'pixels/3', Anything)).resolves.toEqual({ m: 'delete' });
    expect(msw.captured.map((r) => [r.method, r.body])).toEqual([
      ['PUT', 'name=x'],
      ['PATCH', 'name=y'],
      ['DELETE', ''],
    ]);
  });

  it('merges client headers and per-call headers', async () => {
    msw.use(http.get(`${ROOT}/pixels`, () => HttpResponse.json([])));
    await bearerClient({ headers: { 'x-team': 'growth', 'x-trace': 'client' } }).get('pixels', Anything, {
      headers: { 'x-trace': 'call' },
    });
    expect(msw.captured[0]?.headers).toMatchObject({ 'x-team': 'growth', 'x-trace': 'call' });
  });

  it('uses the fetch option instead of the global fetch', async () => {
    const fetch = vi.fn(async (request: Request) => Response.json({ via: new URL(request.url).pathname }));
    await expect(bearerClient({ fetch }).get('pixels/9', Anything)).resolves.toEqual({
      via: '/api/v1/pixels/9',
    });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(msw.captured).toHaveLength(0);
  });

  it('hands a custom fetch one Request per attempt: the whole request, redirects off, an attempt signal', async () => {
    const seen: { method: string; url: string; redirect: string; body: string; auth: string | null }[] = [];
    const signals: AbortSignal[] = [];
    const fetch = vi.fn(async (request: Request) => {
      seen.push({
        method: request.method,
        url: request.url,
        redirect: request.redirect,
        body: await request.text(),
        auth: request.headers.get('authorization'),
      });
      signals.push(request.signal);
      return seen.length === 1
        ? new Response('busy', { status: 503, headers: { 'retry-after': '0' } })
        : Response.json({});
    });
    await bearerClient({ fetch, maxRetries: 1 }).get('pixels', Anything, {}, { search: 'x y' });
    const attempt = {
      method: 'GET',
      url: `${ROOT}/pixels?search=x+y`,
      redirect: 'manual',
      body: '',
      auth: `Bearer ${SECRET}`,
    };
    expect(seen).toEqual([attempt, attempt]);
    expect(fetch.mock.calls.every((call) => call.length === 1)).toBe(true);
    expect(signals[0]).not.toBe(signals[1]);
    expect(signals.every((signal) => signal.aborted === false)).toBe(true);
  });
});

describe('HttpClient bodies carried to the fetch', () => {
  /** Replaces the global fetch (looked up per attempt) with one that records what ky handed it. */
  function recordFetch(answers: Response[]) {
    const seen: { requestBody: boolean; type: string | null; initBody: unknown; sent: Captured }[] = [];
    const fetch = vi.fn(async (input: Request, init?: RequestInit) => {
      // What the platform's fetch sends: a Request built from ky's and the attempt's init.
      const sent = new Request(input, init);
      seen.push({
        requestBody: input.body !== null,
        // Set on the request handed over, as a debug line and telemetry read it.
        type: input.headers.get('content-type'),
        initBody: init?.body,
        sent: {
          method: sent.method,
          url: sent.url,
          headers: Object.fromEntries(sent.headers),
          body: await sent.text(),
        },
      });
      return answers.shift() ?? Response.json({ ok: 1 });
    });
    const original = globalThis.fetch;
    globalThis.fetch = fetch as typeof globalThis.fetch;
    return { seen, restore: () => (globalThis.fetch = original) };
  }
  const busy = () => new Response('busy', { status: 503, headers: { 'retry-after': '0' } });

  it("hands a JSON POST's body to the platform's fetch with every attempt, ky's Request left without one", async () => {
    const { seen, restore } = recordFetch([busy()]);
    try {
      await expect(
        paramClient({ maxRetries: 1 }).post('purchases/validation', Anything, { purchase_code: 'abc-123' }),
      ).resolves.toEqual({ ok: 1 });
    } finally {
      restore();
    }
    const json = JSON.stringify({ purchase_code: 'abc-123', api_key: SECRET });
    const attempt = {
      requestBody: false,
      type: 'application/json',
      initBody: json,
      sent: {
        method: 'POST',
        url: `${SITE}/purchases/validation`,
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          'user-agent': 'content-platform-sdk/0.2.0',
        },
        body: json,
      },
    };
    // Both attempts send the whole body: ky's clone before each attempt copied none.
    expect(seen).toEqual([attempt, attempt]);
  });

  it('hands a form body over the same way, with the Content-Type a form body gets', async () => {
    const { seen, restore } = recordFetch([]);
    try {
      await bearerClient().request('PUT', 'pixels/3', Anything, {
        body: { name: 'a b&c', skipped: undefined },
      });
    } finally {
      restore();
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]?.requestBody).toBe(false);
    expect(seen[0]?.type).toBe('application/x-www-form-urlencoded;charset=UTF-8');
    expect(seen[0]?.initBody).toBeInstanceOf(URLSearchParams);
    expect(seen[0]?.sent).toEqual({
      method: 'PUT',
      url: `${ROOT}/pixels/3`,
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${SECRET}`,
        'content-type': 'application/x-www-form-urlencoded;charset=UTF-8',
        'user-agent': 'content-platform-sdk/0.2.0',
      },
      body: 'name=a+b%26c',
    });
  });

  it("keeps the body on ky's Request where a hook of the user's sees it (a client's or a call's: signing)", async () => {
    msw.use(http.post(`${ROOT}/pixels`, () => HttpResponse.json({ ok: 1 }, { status: 201 })));
    const bodies: string[] = [];
    const sign = async ({ request }: { request: Request }) => {
      bodies.push(await request.clone().text());
      request.headers.set('x-signature', `len-${bodies.at(-1)?.length}`);
    };
    await bearerClient({ hooks: { beforeRequest: [sign] } }).post('pixels', Anything, { name: 'x' });
    await bearerClient().post('pixels', Anything, { name: 'yy' }, { hooks: { beforeRequest: [sign] } });
    expect(bodies).toEqual(['name=x', 'name=yy']);
    expect(msw.captured.map((r) => [r.body, r.headers['x-signature']])).toEqual([
      ['name=x', 'len-6'],
      ['name=yy', 'len-7'],
    ]);
  });

  it("keeps the body on the Request a custom fetch (the client's or its ky instance's) is handed", async () => {
    const fetch = vi.fn(async (request: Request) => Response.json({ body: await request.text() }));
    await expect(
      paramClient({ fetch }).post('purchases/validation', Anything, { purchase_code: 'c' }),
    ).resolves.toEqual({
      body: JSON.stringify({ purchase_code: 'c', api_key: SECRET }),
    });
    const instance = ky.create({ fetch: (input, init) => fetch(new Request(input, init)) });
    await expect(
      paramClient({ ky: instance }).post('purchases/validation', Anything, { purchase_code: 'd' }),
    ).resolves.toEqual({
      body: JSON.stringify({ purchase_code: 'd', api_key: SECRET }),
    });
  });

  it.each([
    ['json', { json: { stray: 1 } }],
    ['a string body', { body: 'stray=1' }],
    ['a form body', { body: new URLSearchParams({ stray: '1' }) }],
    ['both', { json: { stray: 1 }, body: 'stray=1' }],
    // A hook sees ky's Request, so the body goes through ky's options: set whole, not merged into the instance's.
    ['body, beside a hook', { body: 'stray=1', hooks: { beforeRequest: [() => undefined] } }],
  ])(
    "drops a ky instance's %s: a GET sends none, a POST its own form, a JSON POST its own JSON",
    async (_, body) => {
      msw.use(
        http.get(`${ROOT}/pixels/1`, () => HttpResponse.json({ ok: 1 })),
        http.post(`${ROOT}/pixels`, () => HttpResponse.json({ ok: 2 }, { status: 201 })),
        http.post(`${SITE}/purchases/validation`, () => HttpResponse.json({ ok: 3 })),
      );
      // Each would be sent with every call: a GET with a body is a TypeError, a POST would lose the SDK's own body.
      const instance = ky.create(body);
      await expect(bearerClient({ ky: instance }).get('pixels/1', Anything)).resolves.toEqual({ ok: 1 });
      await expect(
        bearerClient({ ky: instance }).post('pixels', Anything, { name: 'One', type: 'facebook' }),
      ).resolves.toEqual({ ok: 2 });
      await expect(
        paramClient({ ky: instance }).post('purchases/validation', Anything, { purchase_code: 'd' }),
      ).resolves.toEqual({ ok: 3 });
      expect(
        msw.captured.map(({ method, url, body, headers }) => [method, url, body, headers['content-type']]),
      ).toEqual([
        ['GET', `${ROOT}/pixels/1`, '', undefined],
        [
          'POST',
          `${ROOT}/pixels`,
          'name=One&type=facebook',
          'application/x-www-form-urlencoded;charset=UTF-8',
        ],
        [
          'POST',
          `${SITE}/purchases/validation`,
          JSON.stringify({ purchase_code: 'd', api_key: SECRET }),
          'application/json',
        ],
      ]);
    },
  );

  it('reads a frozen Response a custom fetch hands back, success and error alike', async () => {
    const urls: string[] = [];
    const fetch = vi.fn(async (request: Request) => {
      urls.push(`${request.method} ${request.url}`);
      const ok = request.url.endsWith('/1');
      return Object.freeze(
        Response.json(ok ? { data: { id: 1 } } : { message: 'No pixel.' }, { status: ok ? 200 : 404 }),
      );
    });
    await expect(bearerClient({ fetch }).get('pixels/1', Anything)).resolves.toEqual({ data: { id: 1 } });
    const error = await failure(bearerClient({ fetch }).get('pixels/2', Anything));
    expect(error).toBeInstanceOf(errors.NotFoundError);
    expect(error).toMatchObject({ status: 404, body: { message: 'No pixel.' } });
    expect(urls).toEqual([`GET ${ROOT}/pixels/1`, `GET ${ROOT}/pixels/2`]);
  });
});

describe('HttpClient key as a parameter', () => {
  it('puts api_key in the query of a GET, after the caller query', async () => {
    msw.use(http.get(`${SITE}/items/item`, () => HttpResponse.json({ ok: 1 })));
    await paramClient().get('items/item', Anything, {}, { item_id: 42 });
    expect(msw.captured[0]?.url).toBe(`${SITE}/items/item?item_id=42&api_key=${SECRET}`);
  });

  it('cannot be replaced or dropped by a caller query', async () => {
    msw.use(http.get(`${SITE}/items/all`, () => HttpResponse.json({ ok: 1 })));
    await paramClient().get('items/all', Anything, {}, { api_key: 'attacker' });
    await paramClient().get('items/all', Anything, {}, { api_key: undefined });
    expect(msw.captured.map((r) => new URL(r.url).searchParams.getAll('api_key'))).toEqual([
      [SECRET],
      [SECRET],
    ]);
  });

  it('puts api_key in the JSON body of a POST and keeps it out of the URL', async () => {
    msw.use(http.post(`${SITE}/purchases/validation`, () => HttpResponse.json({ ok: 1 })));
    await paramClient().post('purchases/validation', Anything, {
      purchase_code: 'abc-123',
      api_key: 'attacker',
    });
    const [request] = msw.captured;
    expect(request?.url).toBe(`${SITE}/purchases/validation`);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toBe(JSON.stringify({ purchase_code: 'abc-123', api_key: SECRET }));
    expect(request?.headers.authorization).toBeUndefined();
  });
});

describe('HttpClient results', () => {
  it('parses the body through the schema (transforms included)', async () => {
    msw.use(
      http.get(`${ROOT}/pixels/1`, () => HttpResponse.json({ data: { id: 1, extra: true }, status: 200 })),
    );
    const schema = z.object({ data: z.object({ id: z.number() }) }).transform((body) => body.data);
    await expect(bearerClient().get('pixels/1', schema)).resolves.toEqual({ id: 1 });
  });

  it('gives the raw Response with the data from one request (withResponse)', async () => {
    msw.use(
      http.get(`${ROOT}/pixels/1`, () =>
        HttpResponse.json({ id: 1 }, { status: 200, headers: { 'X-RateLimit-Remaining': '59' } }),
      ),
    );
    const { data, response } = await bearerClient().get('pixels/1', Anything).withResponse();
    expect(data).toEqual({ id: 1 });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(msw.captured).toHaveLength(1);
  });

  it('accepts JSON sent with a wrong content type', async () => {
    msw.use(
      http.get(
        `${ROOT}/pixels/1`,
        () => new HttpResponse('{"id":1}', { headers: { 'content-type': 'text/html' } }),
      ),
    );
    await expect(bearerClient().get('pixels/1', Anything)).resolves.toEqual({ id: 1 });
  });

  it('turns a body that does not fit the schema into ResponseValidationError with issues and the body', async () => {
    msw.use(http.get(`${ROOT}/pixels/1`, () => HttpResponse.json({ data: { id: 'one' } })));
    const error = await failure(
      bearerClient().get('pixels/1', z.object({ data: z.object({ id: z.number() }) })),
    );
    expect(error).toBeInstanceOf(errors.ResponseValidationError);
    const validation = error as errors.ResponseValidationError;
    expect(validation.issues).toEqual([
      { path: ['data', 'id'], message: expect.stringContaining('expected number') },
    ]);
    expect(validation.body).toEqual({ data: { id: 'one' } });
    expect(validation.status).toBe(200);
    expect(validation.message).toMatch(
      /^GET \S+\/api\/v1\/pixels\/1 answered 200 with a body of an unexpected shape: data\.id: /,
    );
  });

  it('says so when a 2xx body is an HTML page', async () => {
    msw.use(http.get(`${ROOT}/pixels/1`, () => HttpResponse.html('<html><body>Welcome</body></html>')));
    const error = await failure(bearerClient().get('pixels/1', Anything));
    expect(error).toBeInstanceOf(errors.ResponseValidationError);
    expect(error.message).toBe(
      `GET ${ROOT}/pixels/1 answered 200 but not with JSON: the body was an HTML page (text/html, 33 chars): <html><body>Welcome</body></html>`,
    );
    expect((error as errors.ResponseValidationError).body).toBe('<html><body>Welcome</body></html>');
  });

  it('says so when a 2xx body is empty or truncated', async () => {
    msw.use(
      http.get(`${ROOT}/pixels/1`, () => new HttpResponse(null, { status: 200 })),
      http.get(
        `${ROOT}/pixels/2`,
        () => new HttpResponse('{"data": {"id": 2', { headers: { 'content-type': 'application/json' } }),
      ),
    );
    const empty = await failure(bearerClient().get('pixels/1', Anything));
    expect(empty).toBeInstanceOf(errors.ResponseValidationError);
    expect(empty.message).toBe(`GET ${ROOT}/pixels/1 answered 200 but not with JSON: the body was empty`);
    const truncated = await failure(bearerClient().get('pixels/2', Anything));
    expect(truncated).toBeInstanceOf(errors.ResponseValidationError);
    expect((truncated as errors.ResponseValidationError).body).toBe('{"data": {"id": 2');
  });

  it('turns a redirect to a login page into AuthenticationError', async () => {
    msw.use(
      http.get(
        `${ROOT}/pixels`,
        () =>
          new HttpResponse(null, { status: 302, headers: { location: 'https://links.example.com/login' } }),
      ),
      http.get('https://links.example.com/login', () =>
        HttpResponse.html('<form action="/login">Sign in</form>'),
      ),
    );
    const error = await failure(bearerClient().get('pixels', Anything));
    expect(error).toBeInstanceOf(errors.AuthenticationError);
    expect(error.message).toBe(
      `GET ${ROOT}/pixels was redirected to a login page: the server rejected the API key (or a proxy dropped the Accept: application/json header). ` +
        'Check the API key: it came from the `apiKey` option.',
    );
  });
});

describe('HttpClient error answers', () => {
  it.each([
    [400, errors.BadRequestError],
    [401, errors.AuthenticationError],
    [403, errors.PermissionDeniedError],
    [404, errors.NotFoundError],
    [422, errors.UnprocessableEntityError],
    [429, errors.RateLimitError],
    [500, errors.InternalServerError],
    [503, errors.InternalServerError],
  ])('maps HTTP %i to its class and keeps status, headers and body', async (status, cls) => {
    msw.use(
      http.get(`${ROOT}/pixels/1`, () =>
        HttpResponse.json({ message: 'nope' }, { status, headers: { 'x-request-id': 'r1' } }),
      ),
    );
    const error = await failure(bearerClient().get('pixels/1', Anything));
    expect(error).toBeInstanceOf(cls);
    const api = error as errors.APIError;
    expect(api.status).toBe(status);
    expect(api.headers.get('x-request-id')).toBe('r1');
    expect(api.body).toEqual({ message: 'nope' });
  });

  it('keeps an HTML error page raw and describes it', async () => {
    const page = '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>';
    msw.use(
      http.get(`${ROOT}/pixels/1`, () => HttpResponse.html(page, { status: 502, statusText: 'Bad Gateway' })),
    );
    const error = await failure(bearerClient().get('pixels/1', Anything));
    expect(error).toBeInstanceOf(errors.InternalServerError);
    expect((error as errors.APIError).body).toBe(page);
    expect(error.message).toBe(
      `GET ${ROOT}/pixels/1 failed with 502 Bad Gateway: the body was an HTML page (text/html, ${page.length} chars): ${page}`,
    );
  });

  it('keeps a truncated JSON error body raw', async () => {
    msw.use(
      http.get(
        `${ROOT}/pixels/1`,
        () =>
          new HttpResponse('{"message": "Resource not f', {
            status: 404,
            headers: { 'content-type': 'application/json' },
          }),
      ),
    );
    const error = await failure(bearerClient().get('pixels/1', Anything));
    expect(error).toBeInstanceOf(errors.NotFoundError);
    expect((error as errors.APIError).body).toBe('{"message": "Resource not f');
  });

  it('describes an empty error body', async () => {
    msw.use(http.get(`${ROOT}/pixels/1`, () => new HttpResponse(null, { status: 500 })));
    const error = await failure(bearerClient().get('pixels/1', Anything));
    expect(error).toBeInstanceOf(errors.InternalServerError);
    expect(error.message).toBe(
      `GET ${ROOT}/pixels/1 failed with 500 Internal Server Error: the body was empty`,
    );
    expect((error as errors.APIError).body).toBeUndefined();
  });

  it('lets the API read its own envelope, on 2xx answers too', async () => {
    msw.use(http.get(`${ROOT}/pixels/1`, () => HttpResponse.json({ status: 'error', msg: 'x' })));
    const client = bearerClient(
      {},
      {
        readError: (answer) =>
          (answer.body as { status?: string }).status === 'error'
            ? new errors.CatalogError({ ...answer, message: 'envelope', code: 'unknown', msg: 'x' })
            : undefined,
      },
    );
    const error = await failure(client.get('pixels/1', Anything));
    expect(error).toBeInstanceOf(errors.CatalogError);
    expect((error as errors.CatalogError).status).toBe(200);
  });
});

describe('HttpClient failures without an answer', () => {
  it('maps a network failure to APIConnectionError', async () => {
    msw.use(http.get(`${ROOT}/pixels/1`, () => HttpResponse.error()));
    const error = await failure(bearerClient().get('pixels/1', Anything));
    expect(error).toBeInstanceOf(errors.APIConnectionError);
    expect(error).not.toBeInstanceOf(errors.APIConnectionTimeoutError);
    // A fetch error with no system code proves nothing about whether the request left: it may have.
    expect(error.message).toMatch(
      /^GET \S+\/api\/v1\/pixels\/1 failed: the connection was lost before an answer \(/,
    );
    expect(error).toMatchObject({ code: undefined, mayHaveSucceeded: true, attempts: 1 });
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });

  it('maps a thrown custom fetch error to APIConnectionError without leaking the key', async () => {
    const fetch = async () => {
      throw new TypeError(`socket closed for Bearer ${SECRET}`);
    };
    const error = await failure(bearerClient({ fetch }).get('pixels/1', Anything));
    expect(error).toBeInstanceOf(errors.APIConnectionError);
    expect(leakSurface(error)).not.toContain(SECRET);
  });

  it('maps a timeout to APIConnectionTimeoutError', async () => {
    msw.use(
      http.get(`${ROOT}/pixels/1`, async () => {
        await delay(2_000);
        return HttpResponse.json({});
      }),
    );
    const error = await failure(bearerClient({ timeout: 50 }).get('pixels/1', Anything));
    expect(error).toBeInstanceOf(errors.APIConnectionTimeoutError);
    expect(error.message).toBe(`GET ${ROOT}/pixels/1 timed out: no answer within the timeout.`);
  });

  it('honours a per-call timeout over the client one', async () => {
    msw.use(
      http.get(`${ROOT}/pixels/1`, async () => {
        await delay(2_000);
        return HttpResponse.json({});
      }),
    );
    const error = await failure(bearerClient({ timeout: 60_000 }).get('pixels/1', Anything, { timeout: 30 }));
    expect(error).toBeInstanceOf(errors.APIConnectionTimeoutError);
  });

  it('maps the caller abort to APIUserAbortError', async () => {
    msw.use(
      http.get(`${ROOT}/pixels/1`, async () => {
        await delay(2_000);
        return HttpResponse.json({});
      }),
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const error = await failure(bearerClient().get('pixels/1', Anything, { signal: controller.signal }));
    expect(error).toBeInstanceOf(errors.APIUserAbortError);
    expect(error.message).toBe(`GET ${ROOT}/pixels/1 was aborted by the caller.`);
  });

  it('rejects an already aborted signal without a request', async () => {
    const error = await failure(bearerClient().get('pixels/1', Anything, { signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(errors.APIUserAbortError);
    expect(msw.captured).toHaveLength(0);
  });

  it("calls no custom fetch for an already aborted signal: attempts 0, the signal's reason as cause", async () => {
    let called = 0;
    const fetch = async () => {
      called += 1;
      return new Response('{}');
    };
    const reason = new Error('the user left');
    const error = await failure(
      bearerClient({ fetch }).request('DELETE', 'pixels/2', Anything, {
        options: { signal: AbortSignal.abort(reason) },
      }),
    );
    expect(error).toBeInstanceOf(errors.APIUserAbortError);
    expect(error.message).toBe(`DELETE ${ROOT}/pixels/2 was aborted by the caller.`);
    expect(error).toMatchObject({ attempts: 0, cause: reason });
    expect(called).toBe(0);
  });

  it('rejects bad per-call options before any request', async () => {
    const error = await failure(bearerClient().get('pixels/1', Anything, { timeout: -1 }));
    expect(error).toBeInstanceOf(errors.InvalidParamsError);
    expect(msw.captured).toHaveLength(0);
  });
});

describe('HttpClient retries', () => {
  it('retries a GET after a 503 and succeeds', async () => {
    let calls = 0;
    msw.use(
      http.get(`${ROOT}/pixels/1`, () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json({ message: 'busy' }, { status: 503, headers: { 'retry-after': '0' } })
          : HttpResponse.json({ id: 1 });
      }),
    );
    await expect(bearerClient({ maxRetries: 2 }).get('pixels/1', Anything)).resolves.toEqual({ id: 1 });
    expect(calls).toBe(2);
  });

  it("retries a PATCH after a 503, a method ky's default retry list lacks", async () => {
    let calls = 0;
    msw.use(
      http.patch(`${ROOT}/pixels/3`, () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json({ message: 'busy' }, { status: 503, headers: { 'retry-after': '0' } })
          : HttpResponse.json({ id: 3 });
      }),
    );
    await expect(
      bearerClient({ maxRetries: 1 }).request('PATCH', 'pixels/3', Anything, { body: { name: 'y' } }),
    ).resolves.toEqual({ id: 3 });
    expect(msw.captured.map((r) => [r.method, r.url, r.body])).toEqual([
      ['PATCH', `${ROOT}/pixels/3`, 'name=y'],
      ['PATCH', `${ROOT}/pixels/3`, 'name=y'],
    ]);
  });

  it('never retries a form POST (a create) after an answer', async () => {
    msw.use(http.post(`${ROOT}/pixels`, () => HttpResponse.json({ message: 'boom' }, { status: 500 })));
    const error = await failure(bearerClient({ maxRetries: 2 }).post('pixels', Anything, { name: 'x' }));
    expect(error).toBeInstanceOf(errors.InternalServerError);
    expect(msw.captured).toHaveLength(1);
  });

  it('retries a POST when the connection was refused before anything was sent', async () => {
    let calls = 0;
    const fetch = async () => {
      calls += 1;
      if (calls === 1)
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }),
        });
      return Response.json({ id: 5 }, { status: 201 });
    };
    await expect(
      bearerClient({ fetch, maxRetries: 2 }).post('pixels', Anything, { name: 'x' }),
    ).resolves.toEqual({ id: 5 });
    expect(calls).toBe(2);
  });

  it('never retries a POST whose connection dropped after it was sent', async () => {
    let calls = 0;
    const fetch = async () => {
      calls += 1;
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }),
      });
    };
    const error = await failure(
      bearerClient({ fetch, maxRetries: 2 }).post('pixels', Anything, { name: 'x' }),
    );
    expect(error).toBeInstanceOf(errors.APIConnectionError);
    expect(error.message).toBe(
      `POST ${ROOT}/pixels failed: the connection was lost before an answer (ECONNRESET). The server may have acted on it: check before sending it again.`,
    );
    expect(error).toMatchObject({ code: 'ECONNRESET', mayHaveSucceeded: true, attempts: 1 });
    expect(calls).toBe(1);
  });

  it('retries a GET whose connection dropped, and logs each retry as an info line', async () => {
    let calls = 0;
    const fetch = async () => {
      calls += 1;
      if (calls < 3)
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }),
        });
      return Response.json({ ok: true });
    };
    const lines: [string, unknown][] = [];
    const logger = {
      error: vi.fn(),
      warn: vi.fn(),
      info: (line: string, fields: unknown) => lines.push([line, fields]),
      debug: vi.fn(),
    };
    await expect(
      bearerClient({ fetch, maxRetries: 2, logger, logLevel: 'info' }).get('pixels/1', Anything),
    ).resolves.toEqual({
      ok: true,
    });
    // Each line says how long it waits: ky's backoff (300 ms, then 600 ms) with full jitter below it.
    const retryLine = (retry: number, cap: number) => [
      expect.stringMatching(
        new RegExp(
          `^\\[content-platform-sdk\\] GET ${ROOT}/pixels/1: retry ${retry} of 2 in \\d+ ms after a connection error \\(ECONNRESET\\)$`,
        ),
      ),
      {
        method: 'GET',
        url: `${ROOT}/pixels/1`,
        attempt: retry,
        retryInMs: expect.toSatisfy((ms: number) => ms >= 0 && ms <= cap),
        errorName: 'APIConnectionError',
      },
    ];
    expect(lines.filter(([line]) => line.includes(': retry '))).toEqual([
      retryLine(1, 300),
      retryLine(2, 600),
    ]);
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('does not sleep through a Retry-After beyond the cap: RateLimitError at once', async () => {
    msw.use(
      http.get(`${ROOT}/pixels/1`, () =>
        HttpResponse.json(
          { message: 'Too Many Attempts.' },
          { status: 429, headers: { 'retry-after': '3600' } },
        ),
      ),
    );
    const started = Date.now();
    const error = await failure(bearerClient({ maxRetries: 2 }).get('pixels/1', Anything));
    expect(error).toBeInstanceOf(errors.RateLimitError);
    expect((error as errors.RateLimitError).retryAfter).toBe(3600);
    expect(msw.captured).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('HttpClient redirects', () => {
  it('does not follow a redirect to another origin, and says where it pointed', async () => {
    msw.use(
      http.get(
        `${ROOT}/pixels`,
        () =>
          new HttpResponse(null, { status: 307, headers: { location: 'https://evil.example.net/collect' } }),
      ),
    );
    const error = await failure(bearerClient().get('pixels', Anything));
    expect(error.constructor).toBe(errors.APIError);
    expect((error as errors.APIError).status).toBe(307);
    expect(error.message).toBe(
      `GET ${ROOT}/pixels was answered with a 307 redirect to "https://evil.example.net/collect", which the SDK does not follow (it would carry the API key along). Check the base URL.`,
    );
    expect(msw.captured.map((r) => r.url)).toEqual([`${ROOT}/pixels`]);
  });

  it('does not carry a POST body with the key through a 308', async () => {
    msw.use(
      http.post(
        `${SITE}/purchases/validation`,
        () =>
          new HttpResponse(null, {
            status: 308,
            headers: { location: 'https://other.example.org/api/purchases/validation' },
          }),
      ),
    );
    const error = await failure(paramClient().post('purchases/validation', Anything, { purchase_code: 'x' }));
    expect((error as errors.APIError).status).toBe(308);
    expect(msw.captured).toHaveLength(1);
  });

  it('treats a relative redirect to /login as a rejected key without fetching the page', async () => {
    msw.use(
      http.get(
        `${ROOT}/domains`,
        () => new HttpResponse(null, { status: 302, headers: { location: '/login' } }),
      ),
    );
    const error = await failure(bearerClient().get('domains', Anything));
    expect(error).toBeInstanceOf(errors.AuthenticationError);
    expect((error as errors.APIError).status).toBe(302);
    expect(msw.captured).toHaveLength(1);
  });
});

describe('HttpClient deadlines', () => {
  it('bounds the whole call, retries included, with totalTimeout', async () => {
    msw.use(http.get(`${ROOT}/pixels/1`, () => HttpResponse.json({}, { status: 503 })));
    const started = Date.now();
    const error = await failure(
      bearerClient({ maxRetries: 10, totalTimeout: 150 }).get('pixels/1', Anything),
    );
    expect(error).toBeInstanceOf(errors.APIConnectionTimeoutError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('aborts a backoff wait at once', async () => {
    msw.use(
      http.get(`${ROOT}/pixels/1`, () =>
        HttpResponse.json({}, { status: 503, headers: { 'retry-after': '30' } }),
      ),
    );
    const controller = new AbortController();
    const started = Date.now();
    const pending = failure(
      bearerClient({ maxRetries: 2 }).get('pixels/1', Anything, { signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 100);
    const error = await pending;
    expect(error).toBeInstanceOf(errors.APIUserAbortError);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(msw.captured).toHaveLength(1);
  });
});

describe('HttpClient secrets', () => {
  it('keeps the key out of every error text, JSON, inspect output and stack', async () => {
    msw.use(
      http.get(`${ROOT}/pixels/1`, () =>
        HttpResponse.json({ message: `bad key ${SECRET}` }, { status: 401 }),
      ),
      http.get(`${ROOT}/pixels/2`, () => HttpResponse.error()),
      http.get(`${SITE}/items/all`, () => HttpResponse.html(`<p>${SECRET}</p>`, { status: 500 })),
      http.get(`${SITE}/items/item`, () => HttpResponse.json({ wrong: true, echo: SECRET })),
      http.get(`${SITE}/account/details`, () => HttpResponse.html(`<p>${SECRET}</p>`)),
    );
    const failures = await Promise.all([
      failure(bearerClient().get('pixels/1', Anything)),
      failure(bearerClient().get('pixels/2', Anything)),
      failure(paramClient().get('items/all', Anything)),
      failure(paramClient().get('items/item', z.object({ id: z.number() }), {}, { item_id: 1 })),
      failure(paramClient().get('items/item', Anything, { signal: AbortSignal.abort() })),
      failure(paramClient().get('account/details', Anything)),
    ]);
    expect(failures.map((e) => e.name)).toEqual([
      'AuthenticationError',
      'APIConnectionError',
      'InternalServerError',
      'ResponseValidationError',
      'APIUserAbortError',
      'ResponseValidationError',
    ]);
    for (const error of failures) expect(leakSurface(error)).not.toContain(SECRET);
    expect((failures[0] as errors.APIError).body).toEqual({ message: 'bad key ***' });
  });

  it('does not show the key when a client is inspected', () => {
    expect(inspect(bearerClient(), { depth: 10, showHidden: true })).not.toContain(SECRET);
    expect(inspect(paramClient(), { depth: 10, showHidden: true })).not.toContain(SECRET);
  });
});

describe('HttpClient logging', () => {
  it('logs one line per attempt with method, redacted URL, status and duration', async () => {
    msw.use(http.get(`${SITE}/items/all`, () => HttpResponse.json({ ok: 1 })));
    const lines: string[] = [];
    const logger = {
      error: vi.fn(),
      warn: vi.fn(),
      info: (line: string) => lines.push(line),
      debug: vi.fn(),
    };
    await paramClient({ logger, logLevel: 'info' }).get('items/all', Anything);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\[content-platform-sdk\] GET https:\/\/market\.example\.com\/api\/items\/all\?api_key=\*\*\* \(attempt 1\) → 200 in \d+ ms$/,
    );
  });

  it("logs a call's final failure once, at debug only, with its fields: the caller has the error", async () => {
    msw.use(
      http.get(`${ROOT}/pixels/1`, () => HttpResponse.json({ message: 'boom' }, { status: 500 })),
      http.get(`${ROOT}/pixels/2`, () => HttpResponse.error()),
      http.get(`${ROOT}/pixels/3`, () =>
        HttpResponse.json({ message: 'Resource not found.' }, { status: 404 }),
      ),
    );
    const lines: [string, unknown][] = [];
    const logger = {
      error: vi.fn(),
      warn: vi.fn(),
      info: vi.fn(),
      debug: (line: string, fields: unknown) => lines.push([line, fields]),
    };
    const client = bearerClient({ logger, logLevel: 'debug', maxRetries: 0 });
    await failure(client.get('pixels/1', Anything));
    await failure(client.get('pixels/2', Anything));
    await failure(client.get('pixels/3', Anything));
    const failed = lines.filter(([line]) => line.includes('call failed'));
    const fields = (url: string, more: object) => ({
      method: 'GET',
      url,
      attempt: 1,
      durationMs: expect.any(Number),
      ...more,
    });
    expect(failed).toEqual([
      [
        `[content-platform-sdk] call failed after 1 attempt: GET ${ROOT}/pixels/1 failed with 500 Internal Server Error: unexpected JSON body: {"message":"boom"}`,
        fields(`${ROOT}/pixels/1`, { status: 500, errorName: 'InternalServerError' }),
      ],
      [
        expect.stringMatching(
          /^\[content-platform-sdk\] call failed after 1 attempt: GET \S+\/pixels\/2 failed: /,
        ),
        fields(`${ROOT}/pixels/2`, { errorName: 'APIConnectionError' }),
      ],
      [
        expect.stringContaining('failed with 404 Not Found'),
        fields(`${ROOT}/pixels/3`, { status: 404, errorName: 'NotFoundError' }),
      ],
    ]);
    expect(logger.error).not.toHaveBeenCalled();
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('stays silent below the level', async () => {
    msw.use(http.get(`${SITE}/items/all`, () => HttpResponse.json({ ok: 1 })));
    const logger = { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() };
    await paramClient({ logger, logLevel: 'warn' }).get('items/all', Anything);
    expect(logger.info).not.toHaveBeenCalled();
  });
});
