import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { InvalidParamsError } from '../../src/index.js';
import { ORIGIN, read, setup } from './helpers.js';

describe('scripted faults', () => {
  it('answers canned responses in order, then passes through', async () => {
    const { mgmt, server } = setup();
    server.faults.script([
      { status: 503 },
      { status: 502, body: '<html>Bad Gateway</html>', headers: { 'content-type': 'text/html' } },
      { status: 429, body: { message: 'Too Many Attempts.' }, headers: { 'retry-after': '2' } },
    ]);
    expect(server.faults.pending).toBe(3);
    expect(await read(await mgmt('GET', 'pixels/1'))).toEqual({
      status: 503,
      body: { message: 'Service Unavailable' },
    });
    const html = await mgmt('GET', 'pixels/1');
    expect([html.status, html.headers.get('content-type'), await html.text()]).toEqual([
      502,
      'text/html',
      '<html>Bad Gateway</html>',
    ]);
    const limited = await mgmt('GET', 'pixels/1');
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '2']);
    expect((await mgmt('GET', 'pixels/1')).status).toBe(200);
    expect(server.requests.map((r) => (typeof r.fault === 'string' ? r.fault : r.fault.status))).toEqual([
      503,
      502,
      429,
      'pass',
    ]);
    // The status each was answered with, for tests that count 429s.
    expect(server.requests.map((r) => r.status)).toEqual([503, 502, 429, 200]);
  });

  it("'reset' rejects like a dropped connection: TypeError fetch failed, cause ECONNRESET", async () => {
    const { mgmt, server } = setup();
    server.faults.script(['reset']);
    const error = await mgmt('GET', 'pixels').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('fetch failed');
    expect(((error as TypeError).cause as { code: string }).code).toBe('ECONNRESET');
    expect(server.requests.map((r) => [r.fault, r.status])).toEqual([['reset', undefined]]);
  });

  it("'lose-response' creates the record, then drops the connection", async () => {
    const { mgmt, server, alpha } = setup();
    server.faults.script(['lose-response']);
    await expect(mgmt('POST', 'pixels', { form: { name: 'Lost', type: 'x', value: '1' } })).rejects.toThrow(
      'fetch failed',
    );
    expect(server.store.pixels(alpha).at(-1)?.name).toBe('Lost');
  });

  it("'hang' never answers until the request signal aborts", async () => {
    const { server } = setup();
    server.faults.script(['hang']);
    const controller = new AbortController();
    let settled = false;
    const pending = server.fetch(new Request(`${ORIGIN}/api/v1/pixels`, { signal: controller.signal }));
    pending.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    await new Promise((r) => setTimeout(r, 30));
    expect(settled).toBe(false);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it("'hang' still ends on the abort after its Request is garbage-collected (only the caller's signal is kept)", async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const { server } = setup();
    server.faults.script(['hang', 'hang']);
    const controller = new AbortController();
    // No reference to either Request is kept: fetch's Request follows the caller's signal through a weak link.
    const pending = [1, 2].map(() =>
      server.fetch(new Request(`${ORIGIN}/api/v1/pixels`, { signal: controller.signal })).then(
        () => 'answered',
        (error: unknown) => (error as Error).name,
      ),
    );
    for (let round = 0; round < 4; round += 1) {
      gc();
      await new Promise((r) => setTimeout(r, 10));
    }
    controller.abort();
    const outcome = await Promise.race([
      Promise.all(pending),
      new Promise((r) => setTimeout(() => r('still hanging 2 s after the abort'), 2_000)),
    ]);
    expect(outcome).toEqual(['AbortError', 'AbortError']);
  });

  it("'html' answers the login page with 200", async () => {
    const { mgmt, server } = setup();
    server.faults.script(['html']);
    const res = await mgmt('GET', 'pixels');
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/html; charset=UTF-8']);
    expect(await res.text()).toMatch(/^<!DOCTYPE html>/);
  });

  it("'truncated' cuts the real JSON body in half", async () => {
    const { mgmt, server } = setup({ flavor: 'spec' });
    const full = await (await mgmt('GET', 'pixels/1')).text();
    server.faults.script(['truncated']);
    const res = await mgmt('GET', 'pixels/1');
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toBe(full.slice(0, Math.floor(full.length / 2)));
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  });

  it('applies scripted answers only to matching requests', async () => {
    const { mgmt, catalog, catalogKey, server } = setup();
    server.faults.script([{ status: 500 }], { match: (r) => r.method === 'POST' });
    expect((await catalog('GET', 'items/all', { query: { api_key: catalogKey } })).status).toBe(200);
    expect((await mgmt('POST', 'pixels', { form: { name: 'a', type: 'x', value: '1' } })).status).toBe(500);
    expect(server.faults.pending).toBe(0);
  });
});

describe('standing faults', () => {
  async function statuses(seed: number) {
    const { mgmt, server } = setup();
    server.faults.set({ failureRate: 0.5, seed });
    const out: number[] = [];
    for (let i = 0; i < 20; i++) out.push((await mgmt('GET', 'pixels/1')).status);
    return out;
  }

  it('fails a seeded share of requests with 500/503, the same way each run', async () => {
    const a = await statuses(42);
    expect(a).toEqual(await statuses(42));
    expect(a.some((s) => s === 200)).toBe(true);
    expect(a.some((s) => s === 500 || s === 503)).toBe(true);
    expect(a.every((s) => [200, 500, 503].includes(s))).toBe(true);
    expect(a).not.toEqual(await statuses(7));
  });

  it('failureRate 1 with one status always fails with it', async () => {
    const { mgmt, server } = setup({ faults: { failureRate: 1, failureStatuses: [500] } });
    expect(await read(await mgmt('GET', 'pixels/1'))).toEqual({
      status: 500,
      body: { message: 'Server Error' },
    });
    server.faults.clear();
    expect((await mgmt('GET', 'pixels/1')).status).toBe(200);
  });

  it('adds latency', async () => {
    const { mgmt, server } = setup();
    server.faults.set({ latencyMs: 60 });
    const t0 = performance.now();
    await mgmt('GET', 'pixels/1');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(55);
  });

  it('aborts during latency with the signal reason', async () => {
    const { server } = setup({ faults: { latencyMs: 10_000 } });
    const res = server.fetch(new Request(`${ORIGIN}/api/v1/pixels`, { signal: AbortSignal.timeout(20) }));
    await expect(res).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('only affects matching requests', async () => {
    const { mgmt, catalog, catalogKey, server } = setup();
    server.faults.set({ failureRate: 1, match: (r) => r.url.includes('/api/v1/') });
    expect((await catalog('GET', 'items/all', { query: { api_key: catalogKey } })).status).toBe(200);
    expect((await mgmt('GET', 'pixels/1')).status).toBeGreaterThanOrEqual(500);
  });

  it('reset() clears faults and the request log', async () => {
    const { mgmt, server } = setup();
    server.faults.set({ failureRate: 1 });
    server.faults.script(['reset']);
    server.reset();
    expect(server.faults.pending).toBe(0);
    expect(server.requests).toHaveLength(0);
    expect((await mgmt('GET', 'pixels/1')).status).toBe(200);
  });

  it('reset() restores the faults given in the options', async () => {
    const { mgmt, server } = setup({ faults: { failureRate: 1, failureStatuses: [503] } });
    server.faults.clear();
    expect((await mgmt('GET', 'pixels/1')).status).toBe(200);
    server.reset();
    expect((await mgmt('GET', 'pixels/1')).status).toBe(503);
  });
});

describe('faults.script checks what it is given, and queues nothing when a fault is bad', () => {
  const refusals: [string, unknown, string, string][] = [
    [
      'not an array',
      'reset',
      'faults.script: faults must be an array of scripted faults; got "reset".',
      'faults',
    ],
    [
      'an unknown name',
      ['pass', 'timeout'],
      "faults.script: fault 2 of 2 must be 'pass', 'reset', 'hang', 'html', 'truncated', 'lose-response' or " +
        '{ status, body?, headers? }; got "timeout".',
      'faults',
    ],
    ['null', [null], 'faults.script: fault 1 of 1 is null.', 'faults'],
    [
      'a misspelt field',
      [{ status: 503, header: {} }],
      'faults.script: fault 1 of 1: unknown field "header"; did you mean headers?',
      'header',
    ],
    [
      'a status no Response can have',
      [{ status: 503 }, { status: 99 }],
      'faults.script: fault 2 of 2: status must be a whole number from 200 to 599; got 99.',
      'status',
    ],
    [
      'a status as text',
      [{ status: '503' }],
      'faults.script: fault 1 of 1: status must be a whole number from 200 to 599; got "503".',
      'status',
    ],
    [
      'a body on a 204',
      [{ status: 204, body: {} }],
      'faults.script: fault 1 of 1: a 204 answer has no body; leave body out.',
      'body',
    ],
    [
      'a header no request can carry',
      [{ status: 503, headers: { 'retry-after': '1\r\nx: y' } }],
      'faults.script: fault 1 of 1: headers must be header names to values a Headers can hold.',
      'headers',
    ],
  ];

  it.each(refusals)('refuses %s', async (_, faults, message, param) => {
    const { server } = setup();
    const error = (() => {
      try {
        server.faults.script(faults as never);
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as InvalidParamsError).message).toBe(message);
    expect((error as InvalidParamsError).param).toBe(param);
    expect(server.faults.pending).toBe(0);
  });

  it('checks its options: null is none, match a function, no other key', async () => {
    const { mgmt, server } = setup();
    expect(() => server.faults.script(['reset'], { macth: () => true } as never)).toThrow(
      new InvalidParamsError('faults.script: unknown option "macth"; did you mean match?', 'macth'),
    );
    expect(() => server.faults.script(['reset'], { match: 'pixels' } as never)).toThrow(
      'faults.script: match must be a function; got "pixels".',
    );
    expect(server.faults.pending).toBe(0);
    server.faults.script([{ status: 503 }], null);
    server.faults.script([{ status: 204 }], { match: (request) => request.method === 'DELETE' });
    expect(server.faults.pending).toBe(2);
    expect((await mgmt('GET', 'pixels/1')).status).toBe(503);
    expect((await mgmt('GET', 'pixels/1')).status).toBe(200);
    expect((await mgmt('DELETE', 'pixels/1')).status).toBe(204);
  });
});

describe('server.fetch as a drop-in fetch', () => {
  it('accepts (url, init) like fetch', async () => {
    const { server, alpha } = setup();
    const res = await server.fetch(`${ORIGIN}/api/v1/pixels/1`, {
      headers: { authorization: `Bearer ${alpha}`, accept: 'application/json' },
    });
    expect((await res.json()).data.name).toBe('Facebook Main');
    const { fetch } = server;
    expect((await fetch(`${ORIGIN}/`)).status).toBe(200);
  });
});
