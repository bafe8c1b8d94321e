import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decodeAnswer } from '../../src/core/errors/answer.js';
import { unreadableError } from '../../src/core/errors/answer-errors.js';
import * as errors from '../../src/core/errors/classes.js';
import { scrubber } from '../../src/core/errors/redact.js';
import { MAX_JSON_DEPTH, scrubParsed } from '../../src/core/errors/scrub-body.js';
import { resolveOptions } from '../../src/core/transport/options.js';
import { bearerClient, MANAGEMENT_KIND, SECRET } from '../helpers/core.js';
import { failure } from '../helpers/failure.js';
import { useMsw } from '../helpers/msw.js';

const msw = useMsw();
const ROOT = 'https://links.example.com/api/v1';
const Anything = z.unknown();
const CUT = '… [cut: the body was longer than 65536 bytes]';

/** A body of `size` bytes that arrives in 1 000-byte pieces, counting how many pieces were pulled. */
function pieces(size: number): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let sent = 0;
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += 1;
      const length = Math.min(1_000, size - sent);
      if (length <= 0) return controller.close();
      sent += length;
      controller.enqueue(new Uint8Array(length).fill(0x61));
    },
  });
  return { stream, pulled: () => pulled };
}

describe('maxResponseBytes', () => {
  it('defaults to 16 MiB and accepts whole numbers of bytes', () => {
    const base = { apiKey: 'k', baseUrl: 'https://x.example.com' };
    expect(resolveOptions(base, MANAGEMENT_KIND).maxResponseBytes).toBe(16 * 1024 * 1024);
    expect(resolveOptions({ ...base, maxResponseBytes: 1 }, MANAGEMENT_KIND).maxResponseBytes).toBe(1);
  });

  it.each([0, -1, 1.5, Number.NaN, 2 ** 31, '1024'])('refuses %s at construction', (bad) => {
    const options = { apiKey: 'k', baseUrl: 'https://x.example.com', maxResponseBytes: bad as number };
    let error: unknown;
    try {
      resolveOptions(options, MANAGEMENT_KIND);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(errors.InvalidParamsError);
    expect(error).toMatchObject({ param: 'maxResponseBytes' });
    expect((error as Error).message).toBe(
      `maxResponseBytes must be a whole number of bytes above 0; got ${typeof bad === 'string' ? `"${bad}"` : String(bad)}.`,
    );
  });

  it('refuses a bad per-call value before any request', async () => {
    const error = await failure(bearerClient().get('pixels/1', Anything, { maxResponseBytes: 0 }));
    expect(error).toBeInstanceOf(errors.InvalidParamsError);
    expect(error).toMatchObject({ param: 'maxResponseBytes', attempts: 0 });
    expect(msw.captured).toHaveLength(0);
  });

  it('accepts a body of exactly the limit, and fails one byte over it without reading the rest', async () => {
    const body = JSON.stringify({ data: 'x'.repeat(990) });
    msw.use(
      http.get(
        `${ROOT}/pixels/1`,
        () => new HttpResponse(body, { headers: { 'content-type': 'application/json' } }),
      ),
    );
    const exact = { maxResponseBytes: body.length };
    await expect(bearerClient().get('pixels/1', Anything, exact)).resolves.toEqual(JSON.parse(body));

    const big = pieces(1_000_000);
    msw.use(http.get(`${ROOT}/pixels/2`, () => new HttpResponse(big.stream, { status: 200 })));
    const error = await failure(
      bearerClient({ maxRetries: 2 }).get('pixels/2', Anything, { maxResponseBytes: 2_500 }),
    );
    expect(error).toBeInstanceOf(errors.ResponseTooLargeError);
    expect(error.message).toBe(
      `GET ${ROOT}/pixels/2 answered 200 with a body larger than the 2500-byte limit (maxResponseBytes); the SDK stopped reading it.`,
    );
    expect(error).toMatchObject({ limit: 2_500, status: 200, attempts: 1, issues: [], body: undefined });
    expect((error as errors.ResponseTooLargeError).toJSON()).toMatchObject({ limit: 2_500, status: 200 });
    // Of 1 000 pieces, three reach the limit; the stream is cancelled then (msw reads a little ahead of us).
    expect(big.pulled()).toBeLessThan(200);
  });

  it('reads only the first 64 KiB of an error answer, whatever the limit, and the error says so', async () => {
    const big = pieces(10_000_000);
    msw.use(http.get(`${ROOT}/pixels/1`, () => new HttpResponse(big.stream, { status: 502 })));
    const error = (await failure(
      bearerClient({ maxRetries: 0 }).get('pixels/1', Anything),
    )) as errors.APIError;
    expect(error).toBeInstanceOf(errors.InternalServerError);
    expect(error.body).toBe(`${'a'.repeat(65_536)}${CUT}`);
    expect(error.message).toBe(
      `GET ${ROOT}/pixels/1 failed with 502 Bad Gateway: the body was text that is not JSON (no content type, cut at 65536 bytes): ${'a'.repeat(120)}…`,
    );
    expect(big.pulled()).toBeLessThan(200);
  });

  it('cuts an error body at maxResponseBytes when that is lower than 64 KiB', async () => {
    msw.use(http.get(`${ROOT}/pixels/1`, () => new HttpResponse('b'.repeat(5_000), { status: 404 })));
    const error = (await failure(
      bearerClient().get('pixels/1', Anything, { maxResponseBytes: 100 }),
    )) as errors.APIError;
    expect(error).toBeInstanceOf(errors.NotFoundError);
    expect(error.body).toBe(`${'b'.repeat(100)}${CUT}`);
  });
});

describe('the caller’s signal and a fetch that ignores it', () => {
  it('ends an attempt whose fetch never settles, and one whose body never ends, with APIUserAbortError', async () => {
    const sends = [
      () => new Promise<Response>(() => {}),
      async () => new Response(new ReadableStream({ cancel: () => new Promise(() => {}) })),
    ];
    for (const send of sends) {
      const controller = new AbortController();
      const call = bearerClient({ fetch: send, timeout: 60_000 }).get('pixels/1', Anything, {
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(), 10);
      const error = await failure(call);
      expect(error).toBeInstanceOf(errors.APIUserAbortError);
      expect(error).toMatchObject({ attempts: 1 });
    }
  });
});

describe('error answers are scrubbed after parsing', () => {
  const scrub = scrubber(SECRET);
  const escaped = SECRET.replace(/[^a-z0-9]/gi, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

  it('masks the key in parsed strings and keys, the status text and the headers', () => {
    const text = `{"message":"bad ${escaped}","${escaped}":["${SECRET.replaceAll('/', '\\/')}"]}`;
    const response = new Response(null, {
      status: 401,
      statusText: `Bad token ${SECRET}`,
      headers: { location: `/login?next=${encodeURIComponent(encodeURIComponent(SECRET))}` },
    });
    const answer = decodeAnswer(response, text, 'GET x', scrub);
    expect(answer.body).toEqual({ message: 'bad ***', '***': ['***'] });
    expect(answer.statusText).toBe('Bad token ***');
    expect(answer.headers.get('location')).toBe('/login?next=***');
    expect(answer.isJson).toBe(true);
  });

  it('parses the text as it came: a short secret masked in the text would have broken the JSON around it', () => {
    // PHP escapes Arabic as \uXXXX: a purchase code "5" or "u" is inside every escape of the Catalog's envelope.
    const text = '{"status":"\\u062e\\u0637\\u0623","msg":"\\u0643\\u0648\\u062f 5"}';
    for (const secret of ['5', 'u', '0', '62e', 'status', '"']) {
      const answer = decodeAnswer(new Response(null, { status: 404 }), text, 'POST x', scrubber(secret));
      expect(answer.isJson).toBe(true);
      expect(typeof answer.body).toBe('object');
      expect(JSON.stringify(answer.body)).not.toContain(`"${secret}"`);
    }
    const answer = decodeAnswer(new Response(null, { status: 404 }), text, 'POST x', scrubber('5'));
    expect(answer.body).toEqual({ status: 'خطأ', msg: 'كود ***' });
  });

  it('masks every purchase_code field of a parsed body to its last four characters, at any depth', () => {
    const body = { purchase_code: 'aaaa-bbbb-cccc-9f3a', item: { purchase_code: `x${SECRET}1234` }, n: 1 };
    expect(scrubParsed(body, scrub)).toEqual({
      purchase_code: '***9f3a',
      item: { purchase_code: '***1234' },
      n: 1,
    });
  });

  it('keeps a "__proto__" key of a body as a key, not as a prototype', () => {
    const answer = decodeAnswer(new Response(null, { status: 400 }), '{"__proto__":{"x":1}}', 'GET x', scrub);
    expect(Object.getPrototypeOf(answer.body)).toBe(Object.prototype);
    expect(Object.keys(answer.body as object)).toEqual(['__proto__']);
  });

  it(`keeps a body nested past ${MAX_JSON_DEPTH} levels as text, and says so`, () => {
    const shallow = `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`;
    expect(scrubParsed(JSON.parse(shallow), scrub)).toEqual(JSON.parse(shallow));
    const deep = `[${shallow}]`;
    expect(scrubParsed(JSON.parse(deep), scrub)).toBeUndefined();
    const answer = decodeAnswer(new Response(null, { status: 500 }), deep, 'GET x', scrub);
    expect(answer).toMatchObject({ body: deep, isJson: false, kept: 'too deep' });
  });

  it('cuts a 2xx body kept on an error to 64 KiB (a ResponseValidationError of a big page)', () => {
    const text = JSON.stringify({ data: 'z'.repeat(70_000) });
    const answer = decodeAnswer(new Response(null, { status: 200 }), text, 'GET x', scrub);
    expect(answer).toMatchObject({ body: `${text.slice(0, 65_536)}${CUT}`, isJson: false, kept: 'cut' });
    // The success path reads it whole.
    expect(decodeAnswer(new Response(null, { status: 200 }), text, 'GET x').body).toEqual(JSON.parse(text));
  });

  it('an answer the SDK cannot read still becomes a ResponseValidationError, the key scrubbed', () => {
    const error = unreadableError('GET x', 500, new RangeError(`too much ${SECRET}`), scrub);
    expect(error).toBeInstanceOf(errors.ResponseValidationError);
    expect(error.message).toBe(
      'GET x answered 500 with a body the SDK could not read (RangeError: too much ***).',
    );
  });
});
