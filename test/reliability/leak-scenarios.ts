import { inspect } from 'node:util';
import ky from 'ky';
import { expect } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  type APIError,
  InternalServerError,
  ResponseValidationError,
} from '../../src/core/errors/classes.js';
import type { Hooks } from '../../src/core/transport/index.js';
import {
  CATALOG_KEY,
  capturingLogger,
  collectError,
  editJson,
  failure,
  linesSince,
  MGMT_KEY,
  type Scenario,
  TOKEN,
} from './harness.js';

const ERROR_BODY_BYTES = 64 * 1024;

/** Every text of an error a user, a logger or a tracer could see, down its whole cause chain. */
function everything(error: unknown): string {
  const texts: string[] = [];
  let current = error as (Error & { toJSON?: () => unknown }) | undefined;
  for (let depth = 0; current !== undefined && current !== null && depth < 20; depth += 1) {
    texts.push(
      String(current.message ?? current),
      String(current.stack),
      JSON.stringify(current) ?? '',
      inspect(current, { depth: 20, showHidden: true }),
      typeof current.toJSON === 'function' ? inspect(current.toJSON(), { depth: 20 }) : '',
    );
    current = typeof current === 'object' ? (current.cause as typeof current) : undefined;
  }
  return texts.join('\n');
}

/** Whether `text` shows the purchase `code` whole, in any case. */
const showsCode = (text: string, code: string) => text.toLowerCase().includes(code.toLowerCase());

/** Finds every `social_links` object in a body and keys it by `key` (with a value the schema refuses). */
function linksKeyedBy(key: string) {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [
        name,
        name === 'social_links' ? { [key]: 42 } : walk(item),
      ]),
    );
  };
  return walk;
}

/** Texts a hook records of the errors it sees, as `span.recordException(error)` would export them. */
function recorder() {
  const seen: string[] = [];
  const record = (error: Error) => {
    seen.push(error.name, error.message, String(error.stack), String(error));
  };
  const hooks: Hooks = {
    beforeRetry: [({ error }) => record(error)],
    beforeError: [
      ({ error }) => {
        record(error);
        return error;
      },
    ],
  };
  return { seen, hooks };
}

/** Secrets in every surface: message, stack, toJSON, inspect, causes, body, headers, issues, requestId, logs. */
export const leakScenarios: Scenario[] = [
  {
    name: 'a purchase code echoed upper-cased (body, headers, request id) is masked in the error and every log line',
    within: 1_500,
    async run(rig, via) {
      const code = rig.server.fixtures.purchaseCodes.supported;
      const loud = code.toUpperCase();
      expect(loud).not.toBe(code);
      rig.use(async (request, next) => {
        if (request.method !== 'POST') return next(request);
        const echoed = { 'x-request-id': `req-${loud}`, 'x-debug-code': loud };
        if (request.headers.get('x-fail') === '1') {
          return Response.json(
            { message: `lookup failed for ${loud}`, code: loud },
            { status: 500, headers: echoed },
          );
        }
        const response = await next(request);
        const headers = new Headers(response.headers);
        for (const [name, value] of Object.entries(echoed)) headers.set(name, value);
        return new Response(response.body, { status: response.status, headers });
      });
      const mark = capturingLogger.lines.length;
      const catalog = rig.catalog(via, { maxRetries: 0 });
      const { response } = await catalog.purchases.validate(code).withResponse();
      expect(response.headers.get('x-debug-code')).toBe(loud);
      const error = await failure(catalog.purchases.validate(code, { headers: { 'x-fail': '1' } }));
      expect(error).toBeInstanceOf(InternalServerError);
      const masked = `***${code.slice(-4)}`;
      expect((error as APIError).requestId).toBe(`req-${masked}`);
      expect((error as APIError).headers.get('x-debug-code')).toBe(masked);
      expect((error as APIError).body).toEqual({ message: `lookup failed for ${masked}`, code: masked });
      const lines = linesSince(mark);
      // The debug header lines and the info lines' requestId field, on the success too.
      expect(lines.filter((line) => line.includes(`req-${masked}`)).length).toBeGreaterThanOrEqual(4);
      expect([everything(error), ...lines].filter((text) => showsCode(text, code))).toEqual([]);
    },
  },
  {
    name: 'requestId of a ResponseValidationError and of an APIConnectionTimeoutError is scrubbed',
    within: 2_000,
    async run(rig, via) {
      const echo = { 'x-request-id': `req-${MGMT_KEY}` };
      rig.server.faults.script([{ status: 200, body: { oops: true }, headers: echo }]);
      const invalid = await failure(rig.mgmt(via).pixels.get(1));
      expect(invalid).toBeInstanceOf(ResponseValidationError);
      expect((invalid as ResponseValidationError).requestId).toBe('req-***');
      rig.server.faults.script([{ status: 503, headers: echo }, 'hang']);
      const timedOut = await failure(rig.mgmt(via, { timeout: 300, maxRetries: 1 }).pixels.get(1));
      expect(timedOut).toBeInstanceOf(APIConnectionTimeoutError);
      expect((timedOut as APIConnectionTimeoutError).requestId).toBe('req-***');
    },
  },
  {
    name: 'a key straddling the 64 KiB cut of an error body is scrubbed before the cut: not even half remains',
    within: 1_500,
    async run(rig, via) {
      for (const offset of [3, 8, 12]) {
        const page = `${'x'.repeat(ERROR_BODY_BYTES - offset)}${MGMT_KEY} and more ${'y'.repeat(10_000)}`;
        rig.server.faults.script([{ status: 500, body: page, headers: { 'content-type': 'text/plain' } }]);
        const error = await failure(rig.mgmt(via, { maxRetries: 0 }).pixels.get(1));
        const body = String((error as APIError).body);
        // The key masked whole (what follows the mask fills the cut), never a first half of it.
        expect(body).toMatch(/^x+\*\*\*[ a-z]*… \[cut: the body was longer than 65536 bytes\]$/);
        expect(everything(error)).not.toContain(MGMT_KEY.slice(0, 4));
      }
    },
  },
  {
    name: "zod issue paths and messages keyed by the key (an item's options, social_links) are scrubbed",
    within: 1_500,
    async run(rig, via) {
      rig.use(
        editJson((body) => {
          const { items } = body as { items: Record<string, unknown>[] };
          return { ...(body as object), items: [{ ...items[0], options: { [CATALOG_KEY]: 5 } }] };
        }),
      );
      const items = await failure(rig.catalog(via).items.list());
      expect(items).toBeInstanceOf(ResponseValidationError);
      const issues = (items as ResponseValidationError).issues;
      expect(issues.map((issue) => issue.path.join('.'))).toEqual(['items.0.options.***']);
      rig.use(editJson(linksKeyedBy(CATALOG_KEY)));
      const account = await failure(rig.catalog(via).account.details());
      expect(account).toBeInstanceOf(ResponseValidationError);
      const paths = (account as ResponseValidationError).issues.map((issue) => issue.path.join('.'));
      expect(paths.some((path) => path.endsWith('social_links.***'))).toBe(true);
      expect(everything(items) + everything(account)).not.toContain(TOKEN);
    },
  },
  ...(
    [
      ['a string', (url: string) => Promise.reject(`connect failed: ${url}`)],
      [
        'an error with the URL in an own field',
        (url: string) =>
          Promise.reject(Object.assign(new Error('proxy refused'), { url, target: new URL(url) })),
      ],
      [
        'a cause chain six deep, the URL at the bottom',
        (url: string) => {
          let error = new Error(`socket closed: ${url}`);
          for (let level = 0; level < 5; level += 1) error = new Error(`level ${level}`, { cause: error });
          return Promise.reject(error);
        },
      ],
    ] as const
  ).map(
    ([what, reject]): Scenario => ({
      name: `a custom fetch rejecting with ${what}: APIConnectionError, no key anywhere in it`,
      within: 1_500,
      async run(rig, via) {
        const catalog = rig.catalog(via, { maxRetries: 0, fetch: (request) => reject(request.url) });
        const error = await failure(catalog.items.list());
        expect(error).toBeInstanceOf(APIConnectionError);
        expect((error as APIConnectionError).cause).toBeInstanceOf(Error);
        expect(everything(error)).not.toContain(TOKEN);
        expect(everything(error)).toContain('api_key=***');
      },
    }),
  ),
  {
    name: "hooks see ky's HTTPError and TimeoutError with the Catalog key redacted (message, stack)",
    within: 2_000,
    async run(rig, via) {
      const http = recorder();
      rig.server.faults.set({ failureRate: 1, failureStatuses: [500] });
      const error = await failure(rig.catalog(via, { maxRetries: 1, hooks: http.hooks }).items.list());
      expect(error).toBeInstanceOf(InternalServerError);
      expect(http.seen).toContain('HTTPError');
      rig.server.faults.clear();
      const timeout = recorder();
      rig.server.faults.script(['hang']);
      await failure(rig.catalog(via, { maxRetries: 0, timeout: 200, hooks: timeout.hooks }).items.list());
      expect(timeout.seen).toContain('TimeoutError');
      const seen = [...http.seen, ...timeout.seen];
      expect(seen.filter((text) => text.includes(TOKEN))).toEqual([]);
      expect(seen.some((text) => text.includes('api_key=***'))).toBe(true);
      for (const text of seen) collectError(new Error(text));
    },
  },
  {
    name: "a user's ky instance with searchParams { api_key }: only the client's key is sent, other params kept",
    within: 1_500,
    async run(rig, via) {
      const sent: string[][] = [];
      const extra: (string | null)[] = [];
      rig.use(async (request, next) => {
        const url = new URL(request.url);
        sent.push(url.searchParams.getAll('api_key'));
        extra.push(url.searchParams.get('utm'));
        return next(request);
      });
      const theirs = ky.create({ searchParams: { api_key: 'their-own-key', utm: 'wrapper' } });
      await rig.catalog(via, { ky: theirs }).items.list();
      expect(sent).toEqual([[CATALOG_KEY]]);
      expect(extra).toEqual(['wrapper']);
    },
  },
];
