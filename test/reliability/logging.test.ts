import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CatalogClient } from '../../src/catalog/index.js';
import type { AttemptEnd, OperationEnd, OperationEvent, Telemetry } from '../../src/index.js';
import { ManagementClient } from '../../src/management/index.js';
import { createReferenceServer, type ListeningServer, listen } from '../../src/testing/index.js';
import { failure, leakSurface } from '../helpers/failure.js';

const MGMT = 'mk_LOGGINGTOKEN_x1';
const CATALOG = 'ck+LOGGINGTOKEN/x2=';
const server = createReferenceServer({ managementKeys: [MGMT], catalogKeys: [CATALOG] });
let live: ListeningServer;
beforeAll(async () => {
  live = await listen(server, { port: 0 });
});
afterAll(() => live.close());
beforeEach(() => server.reset());

/** A port on 127.0.0.1 that nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A telemetry that keeps what each attempt's end, each event and the operation's end were told. */
function recordingTelemetry() {
  const attempts: AttemptEnd[] = [];
  const events: OperationEvent[] = [];
  const ends: OperationEnd[] = [];
  const telemetry: Telemetry = {
    operation: () => ({
      run: (fn) => fn(),
      attempt: () => ({ run: (fn) => fn(), end: (end) => void attempts.push(end) }),
      event: (event) => void events.push(event),
      end: (end) => void ends.push(end),
    }),
  };
  return { telemetry, attempts, events, ends };
}

/**
 * A logger shaped like pino: methods that need their `this`, typed as pino's `LogFn` types them (an object first, or
 * a message first: the SDK calls the second); keeps each line's message and fields.
 */
class PinoLike {
  readonly records: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
  #write(level: string, first: unknown, second?: unknown) {
    if (typeof first !== 'string') this.records.push({ level, msg: String(second) });
    else this.records.push({ level, msg: first, fields: second as Record<string, unknown> });
  }
  error(msg: string, ...args: unknown[]): void;
  error(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: unknown) {
    this.#write('error', obj, msg);
  }
  warn(msg: string, ...args: unknown[]): void;
  warn(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: unknown) {
    this.#write('warn', obj, msg);
  }
  info(msg: string, ...args: unknown[]): void;
  info(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: unknown) {
    this.#write('info', obj, msg);
  }
  debug(msg: string, ...args: unknown[]): void;
  debug(obj: unknown, msg?: string): void;
  debug(obj: unknown, msg?: unknown) {
    this.#write('debug', obj, msg);
  }
}

describe('logging', () => {
  it('works with a pino-shaped logger whose methods need `this`', async () => {
    const logger = new PinoLike();
    server.faults.script([{ status: 503, headers: { 'retry-after': '0' } }]);
    const mgmt = new ManagementClient({ baseUrl: live.url, apiKey: MGMT, logger, logLevel: 'info' });
    await mgmt.pixels.get(1);
    expect(logger.records.map((r) => r.level)).toEqual(['info', 'info', 'info']);
    expect(logger.records[2]?.msg).toMatch(
      /^\[content-platform-sdk\] GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/pixels\/1 \(attempt 2\) → 200 in \d+ ms$/,
    );
  });

  it('gives every line a fields object: method, url, attempt, and status, durationMs, retryInMs where known', async () => {
    const logger = new PinoLike();
    server.faults.script([{ status: 503, headers: { 'retry-after': '0', 'x-request-id': 'req-503' } }]);
    const mgmt = new ManagementClient({ baseUrl: live.url, apiKey: MGMT, logger, logLevel: 'info' });
    await mgmt.pixels.get(1);
    const url = `${live.url}/api/v1/pixels/1`;
    expect(logger.records.map((r) => r.fields)).toEqual([
      { method: 'GET', url, attempt: 1, status: 503, durationMs: expect.any(Number), requestId: 'req-503' },
      { method: 'GET', url, attempt: 1, status: 503, retryInMs: 0, requestId: 'req-503' },
      { method: 'GET', url, attempt: 2, status: 200, durationMs: expect.any(Number) },
    ]);
    expect(logger.records[1]?.msg).toBe(
      `[content-platform-sdk] GET ${url}: retry 1 of 2 in 0 ms after HTTP 503`,
    );
  });

  it("logs a call's final failure at debug only: the caller has the error, the app's error log stays single", async () => {
    const logger = new PinoLike();
    server.faults.script(['reset', 'reset', 'reset']);
    const mgmt = new ManagementClient({ baseUrl: live.url, apiKey: MGMT, logger, logLevel: 'warn' });
    await expect(mgmt.pixels.get(1)).rejects.toMatchObject({ name: 'APIConnectionError', attempts: 3 });
    // Its two retries are info lines, its failure a debug line: at warn, nothing.
    expect(logger.records).toEqual([]);
    const verbose = new PinoLike();
    server.faults.script(['reset']);
    await expect(
      mgmt.withOptions({ logger: verbose, logLevel: 'debug', maxRetries: 0 }).pixels.get(1),
    ).rejects.toBeInstanceOf(Error);
    const last = verbose.records.at(-1);
    expect(last?.level).toBe('debug');
    expect(last?.msg).toMatch(
      /^\[content-platform-sdk\] call failed after 1 attempt: GET \S+\/pixels\/1 failed: /,
    );
    expect(last?.fields).toMatchObject({ method: 'GET', attempt: 1, errorName: 'APIConnectionError' });
  });

  it('debug adds request headers and body and response headers, with Authorization and api_key masked', async () => {
    const logger = new PinoLike();
    const mgmt = new ManagementClient({ baseUrl: live.url, apiKey: MGMT, logger, logLevel: 'debug' });
    const catalog = new CatalogClient({ siteUrl: live.url, apiKey: CATALOG, logger, logLevel: 'debug' });
    await mgmt.pixels.create({ name: 'Logged', type: 'bing', value: '1' });
    await catalog.purchases.validate(server.fixtures.purchaseCodes.supported);
    await catalog.items.get(101);
    const debug = logger.records.filter((r) => r.level === 'debug').map((r) => r.msg);
    expect(debug).toHaveLength(6);
    expect(debug[0]).toMatch(
      /POST \S+\/api\/v1\/pixels \(attempt 1\) request headers \{.*authorization: \*\*\*.*\} body name=Logged&type=bing&value=1$/,
    );
    expect(debug[1]).toMatch(
      /POST \S+\/api\/v1\/pixels \(attempt 1\) response headers \{.*content-type: application\/json/,
    );
    // The purchase code shows by its last four characters only.
    const code = server.fixtures.purchaseCodes.supported;
    expect(debug[2]).toMatch(
      /POST \S+\/api\/purchases\/validation \(attempt 1\) request headers \{.*\} body \{"purchase_code":"\*\*\*(.{4})","api_key":"\*\*\*"\}$/,
    );
    expect(debug[2]).toContain(`"purchase_code":"***${code.slice(-4)}"`);
    expect(debug[4]).toMatch(
      /GET \S+\/api\/items\/item\?item_id=101&api_key=\*\*\* \(attempt 1\) request headers/,
    );
    for (const record of logger.records) {
      const text = `${record.msg} ${JSON.stringify(record.fields)}`;
      expect(text).not.toContain('LOGGINGTOKEN');
      expect(text).not.toContain(code);
    }
  });

  it('takes the level from CONTENT_PLATFORM_LOG; the logLevel option wins over it', async () => {
    vi.stubEnv('CONTENT_PLATFORM_LOG', 'info');
    const fromEnv = new PinoLike();
    await new ManagementClient({ baseUrl: live.url, apiKey: MGMT, logger: fromEnv }).pixels.get(1);
    expect(fromEnv.records.map((r) => r.level)).toEqual(['info']);
    const explicit = new PinoLike();
    await new ManagementClient({
      baseUrl: live.url,
      apiKey: MGMT,
      logger: explicit,
      logLevel: 'error',
    }).pixels.get(1);
    expect(explicit.records).toEqual([]);
  });

  it("logs nothing at 'off', not even retries; by default (warn) retries are silent; at info each is one line", async () => {
    vi.stubEnv('CONTENT_PLATFORM_LOG', '');
    server.faults.script(['reset', 'reset']);
    const off = new PinoLike();
    await new ManagementClient({ baseUrl: live.url, apiKey: MGMT, logger: off, logLevel: 'off' }).pixels.get(
      1,
    );
    expect(off.records).toEqual([]);
    server.faults.script(['reset']);
    const byDefault = new PinoLike();
    await new ManagementClient({ baseUrl: live.url, apiKey: MGMT, logger: byDefault }).pixels.get(1);
    expect(byDefault.records).toEqual([]);
    server.faults.script(['reset']);
    const atInfo = new PinoLike();
    await new ManagementClient({
      baseUrl: live.url,
      apiKey: MGMT,
      logger: atInfo,
      logLevel: 'info',
    }).pixels.get(1);
    expect(atInfo.records.filter((r) => r.msg.includes(': retry '))).toEqual([
      {
        level: 'info',
        msg: expect.stringMatching(
          /^\[content-platform-sdk\] GET \S+\/pixels\/1: retry 1 of 2 in \d+ ms after a connection error/,
        ),
        fields: expect.objectContaining({ method: 'GET', attempt: 1, errorName: 'APIConnectionError' }),
      },
    ]);
  });

  it('by default prints one line per record on the console, fields inline, the key masked', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    server.faults.script([{ status: 503, headers: { 'retry-after': '0', 'x-request-id': 'req 503' } }]);
    const catalog = new CatalogClient({ siteUrl: live.url, apiKey: CATALOG, logLevel: 'info' });
    await catalog.items.get(101);
    const calls = info.mock.calls;
    info.mockClear();
    const url = `${live.url}/api/items/item?item_id=101&api_key=***`;
    const u = url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    expect(calls.map((args) => args.length)).toEqual([1, 1, 1]);
    const lines = calls.map((args) => String(args[0]));
    expect(lines[0]).toMatch(
      new RegExp(
        `^content-platform-sdk info: "GET ${u} \\(attempt 1\\) → 503 in \\d+ ms" method=GET url=${u} attempt=1 status=503 durationMs=\\d+ requestId="req 503"$`,
      ),
    );
    expect(lines[1]).toBe(
      `content-platform-sdk info: "GET ${url}: retry 1 of 2 in 0 ms after HTTP 503" method=GET url=${url} attempt=1 retryInMs=0 requestId="req 503" status=503`,
    );
    expect(lines[2]).toMatch(
      new RegExp(
        `^content-platform-sdk info: "GET ${u} \\(attempt 2\\) → 200 in \\d+ ms" method=GET url=${u} attempt=2 status=200 durationMs=\\d+$`,
      ),
    );
    expect(lines.join('\n')).not.toContain('LOGGINGTOKEN');
  });

  it.each([
    ['Management', 'pixels', MGMT],
    ['Catalog', 'items/all', CATALOG],
  ] as const)(
    'a refused connection (%s) is APIConnectionError in every line and in telemetry, never TypeError',
    async (api, path, key) => {
      const logger = new PinoLike();
      const { telemetry, attempts, events, ends } = recordingTelemetry();
      const site = `http://127.0.0.1:${await closedPort()}`;
      const options = { apiKey: key, logger, logLevel: 'debug' as const, maxRetries: 1, telemetry };
      const call =
        api === 'Management'
          ? new ManagementClient({ baseUrl: site, ...options }).pixels.list()
          : new CatalogClient({ siteUrl: site, ...options }).items.list();
      const error = await failure(call);
      expect(error).toMatchObject({ name: 'APIConnectionError', code: 'ECONNREFUSED', attempts: 2 });
      // The call's failure line is written a tick after it rejects.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const url = `${site}/api${api === 'Management' ? '/v1' : ''}/${path}${api === 'Catalog' ? '?api_key=***' : ''}`;
      const at = (attempt: number) => ({ method: 'GET', url, attempt });
      const u = url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      expect(
        logger.records.filter((r) => r.level === 'info' || !r.msg.includes(' request headers ')),
      ).toEqual([
        {
          level: 'info',
          msg: expect.stringMatching(
            new RegExp(
              `^\\[content-platform-sdk\\] GET ${u} \\(attempt 1\\) → no answer after \\d+ ms: a connection error \\(ECONNREFUSED\\)$`,
            ),
          ),
          fields: { ...at(1), durationMs: expect.any(Number), errorName: 'APIConnectionError' },
        },
        {
          level: 'info',
          msg: expect.stringMatching(
            new RegExp(
              `^\\[content-platform-sdk\\] GET ${u}: retry 1 of 1 in \\d+ ms after a connection error \\(ECONNREFUSED\\)$`,
            ),
          ),
          fields: { ...at(1), retryInMs: expect.any(Number), errorName: 'APIConnectionError' },
        },
        {
          level: 'info',
          msg: expect.stringMatching(
            new RegExp(
              `^\\[content-platform-sdk\\] GET ${u} \\(attempt 2\\) → no answer after \\d+ ms: a connection error \\(ECONNREFUSED\\)$`,
            ),
          ),
          fields: { ...at(2), durationMs: expect.any(Number), errorName: 'APIConnectionError' },
        },
        {
          level: 'debug',
          msg: `[content-platform-sdk] call failed after 2 attempts: GET ${url} failed: could not reach the server (ECONNREFUSED).`,
          fields: { ...at(2), durationMs: expect.any(Number), errorName: 'APIConnectionError' },
        },
      ]);
      // The same name in telemetry: each attempt's end (beside what fetch threw), the retry event, the operation's end.
      expect(attempts.map((end) => [end.errorName, (end.error as Error).name, end.response])).toEqual([
        ['APIConnectionError', 'TypeError', undefined],
        ['APIConnectionError', 'TypeError', undefined],
      ]);
      expect(events).toEqual([
        { type: 'retry', retry: 1, errorName: 'APIConnectionError', waitMs: expect.any(Number) },
      ]);
      expect(ends.map((end) => (end.error as Error).name)).toEqual(['APIConnectionError']);
      const seen = `${JSON.stringify(logger.records)} ${JSON.stringify(attempts.map((end) => end.errorName))}`;
      expect(seen).not.toContain('TypeError');
      expect(seen).not.toContain('LOGGINGTOKEN');
      expect(leakSurface(error)).not.toContain('LOGGINGTOKEN');
    },
  );

  it("names a timeout and the caller's abort in the attempt line as the retry line does, never fetch's words", async () => {
    const logger = new PinoLike();
    const options = { baseUrl: live.url, apiKey: MGMT, logger, logLevel: 'info' as const };
    const u = `${live.url}/api/v1/pixels`.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    // Each attempt meets a server that never answers: the attempt's timeout ends it, and the retry says so.
    server.faults.script(['hang', 'hang']);
    const timedOut = await failure(
      new ManagementClient({ ...options, timeout: 150, maxRetries: 1 }).pixels.list(),
    );
    expect(timedOut.name).toBe('APIConnectionTimeoutError');
    expect(logger.records.map((r) => [r.msg, r.fields?.errorName])).toEqual([
      [
        expect.stringMatching(
          new RegExp(
            `^\\[content-platform-sdk\\] GET ${u} \\(attempt 1\\) → no answer after \\d+ ms: a timeout$`,
          ),
        ),
        'APIConnectionTimeoutError',
      ],
      [expect.stringMatching(/: retry 1 of 1 in \d+ ms after a timeout$/), 'APIConnectionTimeoutError'],
      [
        expect.stringMatching(
          new RegExp(
            `^\\[content-platform-sdk\\] GET ${u} \\(attempt 2\\) → no answer after \\d+ ms: a timeout$`,
          ),
        ),
        'APIConnectionTimeoutError',
      ],
    ]);
    // The caller's own abort: named as such, and not retried.
    logger.records.length = 0;
    server.faults.script(['hang']);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const aborted = await failure(
      new ManagementClient({ ...options, timeout: 5_000 }).pixels.list({}, { signal: controller.signal }),
    );
    expect(aborted.name).toBe('APIUserAbortError');
    expect(logger.records.map((r) => [r.msg, r.fields?.errorName])).toEqual([
      [
        expect.stringMatching(
          new RegExp(
            `^\\[content-platform-sdk\\] GET ${u} \\(attempt 1\\) → no answer after \\d+ ms: the caller aborted it$`,
          ),
        ),
        'APIUserAbortError',
      ],
    ]);
    expect(JSON.stringify(logger.records)).not.toMatch(/fetch failed|operation was aborted|TypeError/);
  });
});
