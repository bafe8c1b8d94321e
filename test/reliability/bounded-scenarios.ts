import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { expect } from 'vitest';
import {
  APIConnectionTimeoutError,
  type APIError,
  APIUserAbortError,
  BadRequestError,
  CatalogError,
  InternalServerError,
  NotFoundError,
  ResponseTooLargeError,
  ResponseValidationError,
  UnprocessableEntityError,
} from '../../src/core/errors/classes.js';
import { ManagementClient } from '../../src/management/index.js';
import {
  capturingLogger,
  failure,
  MGMT_KEY,
  type Middleware,
  mark,
  type Scenario,
  since,
} from './harness.js';

const MiB = 1024 * 1024;
const ERROR_BODY_BYTES = 64 * 1024;

/** Answers `status` with a body that never ends: 64 KB of JSON-looking text, again and again. */
function endless(status: number, contentType = 'application/json'): Middleware {
  const chunk = new TextEncoder().encode(`[${'"x",'.repeat(13_106)}`);
  return async () =>
    new Response(new ReadableStream<Uint8Array>({ pull: (controller) => controller.enqueue(chunk) }), {
      status,
      headers: { 'content-type': contentType },
    });
}

let bombs: { gzip: Uint8Array<ArrayBuffer>; br: Uint8Array<ArrayBuffer> } | undefined;
/** 64 MiB of spaces, compressed: about 64 KB as gzip, a few hundred bytes as brotli. */
function compressedBombs(): { gzip: Uint8Array<ArrayBuffer>; br: Uint8Array<ArrayBuffer> } {
  if (!bombs) {
    const plain = Buffer.alloc(64 * MiB, 0x20);
    bombs = {
      gzip: new Uint8Array(gzipSync(plain)),
      br: new Uint8Array(brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })),
    };
  }
  return bombs;
}

function bomb(encoding: 'gzip' | 'br'): Middleware {
  return async () =>
    new Response(compressedBombs()[encoding], {
      status: 200,
      headers: { 'content-type': 'application/json', 'content-encoding': encoding },
    });
}

/** JSON nested `depth` arrays deep. */
function deep(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

/** A `fetch` that never settles and ignores its signal: a broken proxy agent or a test double. */
const neverSettles = () => new Promise<Response>(() => {});

/** A `fetch` whose answer arrives, and whose body never ends nor heeds a cancel. */
const bodyNeverEnds = async () =>
  new Response(new ReadableStream<Uint8Array>({ start: () => {} }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });

function customFetchClient(fetch: () => Promise<Response>, options: Record<string, number> = {}) {
  return new ManagementClient({
    apiKey: MGMT_KEY,
    baseUrl: 'https://links.hostile.test',
    fetch,
    logger: capturingLogger,
    logLevel: 'debug',
    ...options,
  });
}

/** Servers that send more than any answer should hold: endless or compressed bodies, absurd nesting. */
export const boundedScenarios: Scenario[] = [
  {
    name: 'bounded: an endless 200 stops at maxResponseBytes with ResponseTooLargeError naming the limit, not retried',
    within: 3_000,
    async run(rig, via) {
      rig.use(endless(200));
      const before = process.memoryUsage().rss;
      const error = await failure(rig.mgmt(via, { maxResponseBytes: MiB }).pixels.list());
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error).toMatchObject({ limit: MiB, status: 200, attempts: 1 });
      expect(error.message).toMatch(
        /^GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/pixels answered 200 with a body larger than the 1048576-byte limit \(maxResponseBytes\)/,
      );
      expect(process.memoryUsage().rss - before).toBeLessThan(256 * MiB);
    },
  },
  {
    name: 'bounded: a gzip bomb (64 KB that inflates to 64 MiB) stops at the default 16 MiB, counted after decompression',
    within: 5_000,
    // Compressing 64 MiB takes ~0.5 s of CPU (seconds on a loaded machine): done before the call, not while its
    // attempt's timeout runs (a timed-out first attempt made the bomb's error read attempts: 2).
    prepare: compressedBombs,
    async run(rig, via) {
      rig.use(bomb('gzip'));
      const error = await failure(rig.mgmt(via).pixels.get(1));
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect((error as ResponseTooLargeError).limit).toBe(16 * MiB);
      expect(error.message).toContain('16777216-byte limit (maxResponseBytes)');
      expect(error).toMatchObject({ attempts: 1 });
    },
  },
  {
    name: 'bounded: a brotli bomb stops at the call’s own maxResponseBytes',
    within: 5_000,
    prepare: compressedBombs,
    async run(rig, via) {
      rig.use(bomb('br'));
      expect(compressedBombs().br.length).toBeLessThan(4_096);
      const client = rig.catalog(via, { maxResponseBytes: 32 * MiB });
      const error = await failure(client.items.list({ maxResponseBytes: 2 * MiB }));
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect((error as ResponseTooLargeError).limit).toBe(2 * MiB);
    },
  },
  {
    name: 'bounded: an endless 500 page fails at once as InternalServerError, its body cut to 64 KiB and saying so',
    within: 3_000,
    async run(rig, via) {
      rig.use(endless(500, 'text/html'));
      const error = (await failure(rig.mgmt(via, { maxRetries: 0 }).pixels.get(1))) as APIError;
      expect(error).toBeInstanceOf(InternalServerError);
      const body = error.body as string;
      expect(body.startsWith('[')).toBe(true);
      expect(body.endsWith('… [cut: the body was longer than 65536 bytes]')).toBe(true);
      expect(body.length).toBeLessThan(ERROR_BODY_BYTES + 100);
      expect(error.message).toMatch(
        /\/pixels\/1 failed with 500 Internal Server Error: the body was text that is not JSON \(text\/html, cut at 65536 bytes\): \["x","x",/,
      );
      expect(error.message.length).toBeLessThan(400);
    },
  },
  {
    name: 'bounded: a 200 000-deep JSON body as a 500, inside a 400 message, as a 200 and in a Catalog envelope: our errors, no RangeError',
    via: ['socket', 'fetch'],
    within: 5_000,
    async run(rig, via) {
      const nested = deep(200_000);
      const json = { 'content-type': 'application/json' };
      rig.server.faults.script([
        { status: 500, body: nested, headers: json },
        { status: 400, body: `{"message":${nested}}`, headers: json },
        { status: 200, body: nested, headers: json },
      ]);
      const client = rig.mgmt(via, { maxRetries: 0 });
      const errors = [
        await failure(client.pixels.get(1)),
        await failure(client.pixels.get(1)),
        await failure(client.pixels.get(1)),
      ];
      expect(errors.map((e) => e.constructor)).toEqual([
        InternalServerError,
        BadRequestError,
        ResponseValidationError,
      ]);
      rig.server.faults.script([
        { status: 200, body: `{"status":"خطأ","msg":${nested}}`, headers: json },
        { status: 404, body: `{"status":"خطأ","msg":"المنتج غير موجود","trace":${nested}}`, headers: json },
      ]);
      const catalog = rig.catalog(via, { maxRetries: 0 });
      errors.push(await failure(catalog.items.get(101)), await failure(catalog.items.get(101)));
      expect(errors[3]).toBeInstanceOf(CatalogError);
      // Its first 64 KiB do not parse, so the envelope cannot be read: the status says what it can.
      expect(errors[4]?.constructor).toBe(NotFoundError);
      for (const error of errors) {
        // What a user, a logger or an error tracker does with an error: none of it may overflow the stack.
        expect(() => JSON.stringify(error)).not.toThrow();
        expect(() => String((error as APIError).body)).not.toThrow();
        expect(error.message.length).toBeLessThan(500);
      }
      expect((errors[3] as APIError).body).toBe('(body not kept: JSON nested more than 64 levels deep)');
    },
  },
  {
    name: 'bounded: a JSON error body nested past 64 levels (but under 64 KiB) is kept as text and described so',
    via: ['socket', 'fetch'],
    within: 2_000,
    async run(rig, via) {
      const nested = deep(20_000);
      const json = { 'content-type': 'application/json' };
      rig.server.faults.script([
        { status: 500, body: nested, headers: json },
        { status: 422, body: `{"message":{"name":${nested}}}`, headers: json },
      ]);
      const client = rig.mgmt(via, { maxRetries: 0 });
      const at500 = (await failure(client.pixels.get(1))) as APIError;
      const at422 = (await failure(client.pixels.update(1, { name: 'n' }))) as APIError;
      expect(at500).toBeInstanceOf(InternalServerError);
      expect(at422.constructor).toBe(UnprocessableEntityError);
      for (const error of [at500, at422]) {
        expect(error.message).toContain(
          'the body was JSON nested more than 64 levels deep (application/json, ',
        );
        expect(typeof error.body).toBe('string');
        expect(() => JSON.stringify(error)).not.toThrow();
      }
    },
  },
  {
    name: 'deadline: a custom fetch that never settles and ignores its signal times out at `timeout`',
    via: ['fetch'],
    within: 1_500,
    async run() {
      const started = mark();
      const error = await failure(
        customFetchClient(neverSettles, { timeout: 200, maxRetries: 0 }).pixels.get(1),
      );
      expect(error).toBeInstanceOf(APIConnectionTimeoutError);
      expect(since(started)).toBeLessThan(1_000);
    },
  },
  {
    name: 'deadline: a custom fetch that never settles ends at totalTimeout, retries included',
    via: ['fetch'],
    within: 1_500,
    async run() {
      const client = customFetchClient(neverSettles, { timeout: 150, totalTimeout: 400, maxRetries: 10 });
      const started = mark();
      const error = await failure(client.pixels.get(1));
      expect(error).toBeInstanceOf(APIConnectionTimeoutError);
      expect(since(started)).toBeLessThan(1_000);
    },
  },
  {
    name: 'deadline: a custom fetch whose body never ends times out at `timeout`',
    via: ['fetch'],
    within: 1_500,
    async run() {
      const started = mark();
      const error = await failure(
        customFetchClient(bodyNeverEnds, { timeout: 200, maxRetries: 0 }).pixels.list(),
      );
      expect(error).toBeInstanceOf(APIConnectionTimeoutError);
      expect(since(started)).toBeLessThan(1_000);
    },
  },
  {
    name: 'deadline: the caller’s abort ends a call whose custom fetch ignores its signal (never settles, body never ends)',
    via: ['fetch'],
    within: 1_500,
    async run() {
      for (const fetch of [neverSettles, bodyNeverEnds]) {
        const controller = new AbortController();
        setTimeout(() => controller.abort(), 100);
        const started = mark();
        const client = customFetchClient(fetch, { timeout: 30_000 });
        const error = await failure(client.pixels.list({}, { signal: controller.signal }));
        expect(error).toBeInstanceOf(APIUserAbortError);
        expect(error).toMatchObject({ attempts: 1 });
        expect(since(started)).toBeLessThan(500);
      }
    },
  },
];
