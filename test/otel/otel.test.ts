import { context, metrics, propagation, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  CatalogClient,
  type CatalogClientOptions,
  type Hooks,
  InvalidParamsError,
  InvalidPurchaseCodeError,
  ManagementClient,
  type ManagementClientOptions,
  type Telemetry,
} from '../../src/index.js';
import { openTelemetry, undiciInstrumentationConfig } from '../../src/otel/index.js';
import { redisStore } from '../../src/redis/index.js';
import {
  createReferenceServer,
  listen,
  type ReferenceServer,
  type ReferenceServerOptions,
  SEED_CATALOG_KEYS,
  SEED_MANAGEMENT_KEYS,
  SEED_PURCHASE_CODES,
} from '../../src/testing/index.js';
import { startRedis } from '../helpers/redis.js';

// The SDK's telemetry through the real OpenTelemetry API and SDKs (in-memory exporters), against the reference
// server over a real 127.0.0.1 socket.

/** A metric reader that collects on demand. */
class Reader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
// Every span and metric point any test here exported: scanned for secrets at the end.
const everything: unknown[] = [];
const open: (() => Promise<void>)[] = [];

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
});

afterEach(async () => {
  everything.push(...exporter.getFinishedSpans().map(plain));
  exporter.reset();
  await Promise.all(open.splice(0).map((close) => close()));
});

afterAll(() => {
  // No key and no whole purchase code in any span name, attribute, event, link, status or metric point.
  const text = JSON.stringify(everything);
  const secrets = [...SEED_MANAGEMENT_KEYS, ...SEED_CATALOG_KEYS, ...Object.values(SEED_PURCHASE_CODES)];
  expect(everything.length).toBeGreaterThan(30);
  expect(secrets.filter((secret) => text.includes(secret))).toEqual([]);
  expect(text.toLowerCase()).not.toContain('bearer ');
});

/** A span as plain data: what an exporter would send. */
function plain(span: ReadableSpan) {
  return {
    name: span.name,
    kind: span.kind,
    attributes: span.attributes,
    events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
    links: span.links.map((link) => ({ context: link.context, attributes: link.attributes })),
    status: span.status,
  };
}

async function live(options: ReferenceServerOptions = {}) {
  const server: ReferenceServer = createReferenceServer(options);
  const { url, close } = await listen(server, { port: 0 });
  open.push(close);
  return { server, url };
}

function telemetry() {
  const reader = new Reader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const points = async () => {
    const { resourceMetrics } = await reader.collect();
    const found = resourceMetrics.scopeMetrics.flatMap((scope) =>
      scope.metrics.map((metric) => ({
        name: metric.descriptor.name,
        unit: metric.descriptor.unit,
        points: metric.dataPoints.map((point) => ({ attributes: point.attributes, value: point.value })),
      })),
    );
    everything.push(found);
    return found;
  };
  return { telemetry: openTelemetry({ tracerProvider, meterProvider }), points };
}

async function management(extra: ManagementClientOptions = {}, server: ReferenceServerOptions = {}) {
  const { server: api, url } = await live(server);
  const { telemetry: t, points } = telemetry();
  const client = new ManagementClient({
    baseUrl: url,
    apiKey: SEED_MANAGEMENT_KEYS[0],
    logLevel: 'off',
    telemetry: t,
    ...extra,
  });
  return { api, url, client, points };
}

async function catalog(extra: CatalogClientOptions = {}) {
  const { server: api, url } = await live();
  const { telemetry: t, points } = telemetry();
  const client = new CatalogClient({
    siteUrl: url,
    apiKey: SEED_CATALOG_KEYS[0],
    logLevel: 'off',
    telemetry: t,
    ...extra,
  });
  return { api, url, client, points };
}

const spans = () => exporter.getFinishedSpans();
const named = (name: string) => spans().filter((span) => span.name === name);
const childrenOf = (parent: ReadableSpan) =>
  spans().filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);
const only = <T>(list: T[]): T => {
  expect(list).toHaveLength(1);
  return list[0] as T;
};
const metric = (found: Awaited<ReturnType<ReturnType<typeof telemetry>['points']>>, name: string) =>
  found.find((entry) => entry.name === name);

describe('spans', () => {
  it('one operation span per call, its attempt as a CLIENT child with the HTTP conventions, traceparent sent', async () => {
    const { api, url, client } = await management();
    const pixel = await client.pixels.get(1);
    const op = only(named('pixels.get'));
    expect(op.kind).toBe(0); // INTERNAL
    expect(op.attributes).toMatchObject({
      'content_platform.operation': 'pixels.get',
      'content_platform.api': 'management',
      'http.request.method': 'GET',
      'http.response.status_code': 200,
      'content_platform.attempts': 1,
    });
    const attempt = only(childrenOf(op));
    const { hostname, port } = new URL(url);
    expect(attempt.name).toBe('GET');
    expect(attempt.kind).toBe(2); // CLIENT
    expect(attempt.attributes).toMatchObject({
      'http.request.method': 'GET',
      'server.address': hostname,
      'server.port': Number(port),
      'url.full': `${url}/api/v1/pixels/1`,
      'http.response.status_code': 200,
    });
    expect(attempt.attributes).not.toHaveProperty('http.request.resend_count');
    expect(attempt.attributes).not.toHaveProperty('error.type');
    expect(pixel.id).toBe(1);
    // The server saw the attempt span as its parent.
    const { traceId, spanId } = attempt.spanContext();
    expect(api.requests.at(-1)?.headers.traceparent).toBe(`00-${traceId}-${spanId}-01`);
  });

  it('a retry is an event of the operation and a second attempt with its resend count; metrics count it', async () => {
    const { api, client, points } = await management({ maxRetries: 2 });
    api.faults.script([{ status: 503, headers: { 'retry-after': '0' } }]);
    await client.pixels.get(1);
    const op = only(named('pixels.get'));
    const attempts = childrenOf(op).sort((a, b) => (a.startTime[1] > b.startTime[1] ? 1 : -1));
    expect(attempts.map((span) => span.attributes['http.response.status_code'])).toEqual(
      expect.arrayContaining([503, 200]),
    );
    const failed = attempts.find((span) => span.attributes['http.response.status_code'] === 503);
    const resent = attempts.find((span) => span.attributes['http.response.status_code'] === 200);
    expect(failed?.attributes['error.type']).toBe('503');
    expect(failed?.status.code).toBe(2); // ERROR
    expect(resent?.attributes['http.request.resend_count']).toBe(1);
    const retry = only(op.events.filter((event) => event.name === 'retry'));
    expect(retry.attributes).toMatchObject({ 'content_platform.retry': 1, 'error.type': '503' });
    expect(op.attributes['content_platform.attempts']).toBe(2);
    expect(op.status.code).toBe(0); // UNSET: the call succeeded
    const found = await points();
    expect(metric(found, 'content_platform.retries')?.points).toEqual([
      {
        attributes: {
          'content_platform.operation': 'pixels.get',
          'content_platform.api': 'management',
          'error.type': '503',
        },
        value: 1,
      },
    ]);
    const http = metric(found, 'http.client.request.duration');
    expect(http?.unit).toBe('s');
    expect(http?.points.map((point) => point.attributes['http.response.status_code']).sort()).toEqual([
      200, 503,
    ]);
  });

  it('a 429 pauses the client: a retry event on the call that met it, a throttle wait on the call behind it', async () => {
    const { api, client } = await management({ maxRetries: 1 });
    api.faults.script([{ status: 429, headers: { 'retry-after': '1' } }]);
    const first = client.pixels.get(1);
    // The second call starts once the 429 has been answered: it waits out the pause for its turn.
    while (!api.requests.some((request) => request.status === 429))
      await new Promise((resolve) => setTimeout(resolve, 5));
    await Promise.all([first, client.pixels.get(2)]);
    const ops = named('pixels.get');
    const hasRetry = (span: ReadableSpan) => span.events.some((event) => event.name === 'retry');
    const met = only(ops.filter(hasRetry));
    const behind = only(ops.filter((span) => !hasRetry(span)));
    const retry = only(met?.events.filter((event) => event.name === 'retry') ?? []);
    expect(retry.attributes).toMatchObject({ 'content_platform.retry': 1, 'error.type': '429' });
    expect(Number(retry.attributes?.['content_platform.retry.wait_ms'])).toBeGreaterThanOrEqual(900);
    expect(
      childrenOf(met as ReadableSpan)
        .map((span) => span.attributes['http.response.status_code'])
        .sort(),
    ).toEqual([200, 429]);
    const wait = only(behind?.events.filter((event) => event.name === 'throttle.wait') ?? []);
    expect(Number(wait.attributes?.['content_platform.throttle.wait_ms'])).toBeGreaterThanOrEqual(500);
    expect(behind?.attributes['content_platform.attempts']).toBe(1);
  });

  it('a wait for a turn under the throttle is an event and a metric', async () => {
    const { api, client, points } = await management({ rateLimit: { maxConcurrent: 1 } });
    api.faults.set({ latencyMs: 150 });
    await Promise.all([client.pixels.get(1), client.pixels.get(2)]);
    const waited = named('pixels.get').filter((span) => span.events.some((e) => e.name === 'throttle.wait'));
    const op = only(waited);
    const event = only(op.events.filter((e) => e.name === 'throttle.wait'));
    expect(Number(event.attributes?.['content_platform.throttle.wait_ms'])).toBeGreaterThanOrEqual(100);
    expect(event.attributes?.['content_platform.throttle.retry']).toBe(false);
    expect(Number(op.attributes['content_platform.throttle.wait_ms'])).toBeGreaterThanOrEqual(100);
    const wait = metric(await points(), 'content_platform.throttle.wait.duration');
    const point = only(wait?.points ?? []);
    expect(point.attributes).toEqual({
      'content_platform.api': 'management',
      'content_platform.throttle.retry': false,
    });
    expect((point.value as { count: number }).count).toBe(1);
  });

  it('a create whose answer was lost: an error span with mayHaveSucceeded, the attempt typed by its cause', async () => {
    const { api, client, points } = await management();
    api.faults.script(['lose-response']);
    const error = (await client.pixels
      .create({ name: 'Lost', type: 'facebook', value: '1' })
      .catch((e: unknown) => e)) as APIConnectionError;
    expect(error).toBeInstanceOf(APIConnectionError);
    const op = only(named('pixels.create'));
    expect(op.status).toEqual({ code: 2, message: error.message });
    expect(op.attributes).toMatchObject({
      'error.type': 'APIConnectionError',
      'content_platform.may_have_succeeded': true,
      'content_platform.attempts': 1,
    });
    const exception = only(op.events.filter((event) => event.name === 'exception'));
    expect(exception.attributes?.['exception.type']).toBe('APIConnectionError');
    const attempt = only(childrenOf(op));
    // undici's code for a socket closed before the answer (what the fetch's TypeError names as its cause).
    expect(attempt.attributes['error.type']).toBe('UND_ERR_SOCKET');
    expect(attempt.status.code).toBe(2);
    const duration = metric(await points(), 'content_platform.operation.duration');
    expect(duration?.points.map((point) => point.attributes)).toEqual([
      {
        'content_platform.operation': 'pixels.create',
        'content_platform.api': 'management',
        'error.type': 'APIConnectionError',
      },
    ]);
  });

  it("a caller's abort: the operation fails with APIUserAbortError, the attempt is ended without an error status", async () => {
    const { api, client } = await management();
    api.faults.script(['hang']);
    const controller = new AbortController();
    const call = client.pixels.get(1, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(call).rejects.toBeInstanceOf(APIUserAbortError);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const op = only(named('pixels.get'));
    expect(op.attributes['error.type']).toBe('APIUserAbortError');
    const attempt = only(childrenOf(op));
    expect(attempt.attributes['error.type']).toBe('AbortError');
    expect(attempt.status.code).toBe(0);
  });

  it('a timeout: the attempt is a TimeoutError with an error status, in its span and in the request metric', async () => {
    // Before: the fetch's own AbortError (the SDK's timeout aborts it), with no error status: a timeout read as the
    // caller's abort.
    const { api, client, points } = await management();
    api.faults.script(['hang']);
    await expect(client.pixels.get(1, { timeout: 300, maxRetries: 0 })).rejects.toBeInstanceOf(
      APIConnectionTimeoutError,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const op = only(named('pixels.get'));
    expect(op.attributes['error.type']).toBe('APIConnectionTimeoutError');
    const attempt = only(childrenOf(op));
    expect(attempt.attributes['error.type']).toBe('TimeoutError');
    expect(attempt.status.code).toBe(SpanStatusCode.ERROR);
    const requests = metric(await points(), 'http.client.request.duration');
    expect(requests?.points.map((point) => point.attributes['error.type'])).toEqual(['TimeoutError']);
  });

  it('a meter provider registered after openTelemetry() is called still gets the metrics', async () => {
    // Before: the meter was taken when openTelemetry() was called: the API's no-op one, for good.
    const early = openTelemetry({ tracerProvider });
    const reader = new Reader();
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    try {
      const { url } = await live();
      const client = new ManagementClient({
        baseUrl: url,
        apiKey: SEED_MANAGEMENT_KEYS[0],
        logLevel: 'off',
        telemetry: early,
      });
      await client.pixels.get(1);
      const { resourceMetrics } = await reader.collect();
      const names = resourceMetrics.scopeMetrics.flatMap((scope) =>
        scope.metrics.map((m) => m.descriptor.name),
      );
      expect(names).toEqual(
        expect.arrayContaining(['http.client.request.duration', 'content_platform.operation.duration']),
      );
    } finally {
      metrics.disable();
    }
  });

  it('each page of a walk is an operation of its own, linked to the first', async () => {
    const { client } = await management();
    const all = await client.pixels.list({ per_page: 10 }).toArray({ limit: 1_000 });
    const pages = named('pixels.list');
    expect(all.length).toBeGreaterThan(10);
    expect(pages.length).toBe(Math.ceil(all.length / 10));
    const [first, ...rest] = pages.sort(
      (a, b) => (a.startTime[0] - b.startTime[0]) * 1e9 + a.startTime[1] - b.startTime[1],
    );
    expect(first?.links).toEqual([]);
    for (const page of rest) {
      expect(page.links).toEqual([
        { context: first?.spanContext(), attributes: { 'content_platform.link': 'first_page' } },
      ]);
    }
  });

  it("the user's hooks run with the operation as the active span, and their options name the operation", async () => {
    const seen: {
      active: string | undefined;
      operation: string | undefined;
      attempts: number | undefined;
    }[] = [];
    const hooks: Hooks = {
      beforeRequest: [
        ({ options }) => {
          const info = (
            options as { contentPlatformTrace?: { toJSON(): { operation: string; attempts: number } } }
          ).contentPlatformTrace?.toJSON();
          const active = trace.getActiveSpan() as unknown as ReadableSpan | undefined;
          seen.push({ active: active?.name, operation: info?.operation, attempts: info?.attempts });
        },
      ],
    };
    const { client } = await management({ hooks });
    await client.domains.get(1);
    expect(seen).toEqual([{ active: 'domains.get', operation: 'domains.get', attempts: 0 }]);
  });

  it('a Catalog GET: url.full shows api_key=***, and the account operation is named', async () => {
    const { url, client } = await catalog();
    await client.account.details();
    await client.items.list();
    const op = only(named('account.details'));
    expect(op.attributes['content_platform.api']).toBe('catalog');
    expect(only(childrenOf(op)).attributes['url.full']).toBe(`${url}/api/account/details?api_key=***`);
    expect(only(childrenOf(only(named('items.list')))).attributes['url.full']).toBe(
      `${url}/api/items/all?api_key=***`,
    );
  });

  it('a cached validation: a miss sends under its operation, a hit sends nothing, a stale answer is an event', async () => {
    const { api, client, points } = await catalog({
      cache: { ttl: 100, staleIfError: 60_000 },
      maxRetries: 0,
    });
    const code = SEED_PURCHASE_CODES.supported;
    await client.purchases.validate(code);
    await client.purchases.validate(code);
    await new Promise((resolve) => setTimeout(resolve, 150));
    api.faults.script([{ status: 503 }]);
    const stale = await client.purchases.validate(code).withResponse();
    expect(stale.cache).toBe('stale');
    const [miss, hit, served] = named('purchases.validate').sort((a, b) =>
      a.startTime[0] === b.startTime[0] ? a.startTime[1] - b.startTime[1] : a.startTime[0] - b.startTime[0],
    );
    expect(miss?.attributes).toMatchObject({
      'content_platform.cache.result': 'miss',
      'content_platform.attempts': 1,
    });
    expect(childrenOf(miss as ReadableSpan)).toHaveLength(1);
    expect(hit?.attributes).toMatchObject({
      'content_platform.cache.result': 'hit',
      'content_platform.attempts': 0,
    });
    expect(childrenOf(hit as ReadableSpan)).toHaveLength(0);
    expect(served?.attributes['content_platform.cache.result']).toBe('stale');
    expect(served?.events.map((event) => event.name)).toContain('cache.stale');
    expect(only(childrenOf(served as ReadableSpan)).attributes['http.response.status_code']).toBe(503);
    const lookups = metric(await points(), 'content_platform.cache.lookups');
    expect(
      Object.fromEntries(
        lookups?.points.map((p) => [p.attributes['content_platform.cache.result'], p.value]) ?? [],
      ),
    ).toEqual({ miss: 1, hit: 1, stale: 1 });
  });

  it('a fleet store that goes away and comes back: the operations say fallback then shared, and so does the metric', async () => {
    const { createClient } = await import('redis');
    const redisServer = await startRedis();
    await redisServer.stop();
    const redis = createClient({ url: redisServer.url, socket: { reconnectStrategy: () => 100 } });
    redis.on('error', () => {});
    redis.connect().catch(() => {});
    open.push(async () => {
      redis.destroy();
      await redisServer.stop();
    });
    const { client, points } = await management({ rateLimit: { store: redisStore(redis) } });
    await client.pixels.get(1);
    expect(only(named('pixels.get')).attributes['content_platform.rate_limit.store']).toBe('fallback');
    const fallback = async () => metric(await points(), 'content_platform.rate_limit.store.fallback');
    expect((await fallback())?.points).toEqual([
      { attributes: { 'content_platform.api': 'management' }, value: 1 },
    ]);
    await redisServer.start();
    for (let tries = 0; client.rateLimit.store !== 'shared' && tries < 200; tries += 1)
      await new Promise((resolve) => setTimeout(resolve, 50));
    exporter.reset();
    await client.pixels.get(1);
    expect(only(named('pixels.get')).attributes['content_platform.rate_limit.store']).toBe('shared');
    expect((await fallback())?.points).toEqual([
      { attributes: { 'content_platform.api': 'management' }, value: 0 },
    ]);
  }, 20_000);

  it('a refused purchase code: the error is recorded as the SDK threw it, and the code is nowhere in the span', async () => {
    const { client } = await catalog();
    const error = await client.purchases.validate(SEED_PURCHASE_CODES.invalid).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidPurchaseCodeError);
    const op = only(named('purchases.validate'));
    expect(op.attributes['error.type']).toBe('InvalidPurchaseCodeError');
    expect(op.status).toEqual({ code: 2, message: (error as Error).message });
    const exception = only(op.events.filter((event) => event.name === 'exception'));
    expect(exception.attributes?.['exception.message']).toBe((error as Error).message);
    expect(JSON.stringify(plain(op))).not.toContain(SEED_PURCHASE_CODES.invalid);
  });

  it('derived clients keep the telemetry', async () => {
    const { client } = await management();
    await client.withOptions({ maxRetries: 0 }).pixels.get(1);
    expect(named('pixels.get')).toHaveLength(1);
  });
});

describe('the contract, and its cost when nothing is registered', () => {
  it('a telemetry of your own hears the operation, its attempts, its retries and its end, in order', async () => {
    const heard: string[] = [];
    const recorder: Telemetry = {
      operation: (start) => {
        heard.push(
          `start ${start.name} ${start.api} ${start.method} ${start.url.replace(/^http:\/\/[^/]+/, '')}`,
        );
        return {
          run: (fn) => fn(),
          attempt: (attempt) => {
            heard.push(`attempt ${attempt.number}`);
            return {
              run: (fn) => fn(),
              end: (end) => heard.push(`attempt end ${end.response?.status ?? 'none'}`),
            };
          },
          event: (event) =>
            heard.push(`event ${event.type}${event.type === 'retry' ? ` ${event.status}` : ''}`),
          end: (end) => heard.push(`end ${end.error ? (end.error as Error).name : end.response?.status}`),
        };
      },
    };
    const { server: api, url } = await live();
    const client = new ManagementClient({
      baseUrl: url,
      apiKey: SEED_MANAGEMENT_KEYS[0],
      logLevel: 'off',
      telemetry: recorder,
    });
    api.faults.script([{ status: 502, headers: { 'retry-after': '0' } }]);
    await client.pixels.get(2);
    expect(heard).toEqual([
      'start pixels.get management GET /api/v1/pixels/2',
      'attempt 1',
      'attempt end 502',
      'event retry 502',
      'attempt 2',
      'attempt end 200',
      'end 200',
    ]);
  });

  it('a telemetry that throws, or hands back an operation without its methods, never fails a call: one warn line', async () => {
    const { server: api, url } = await live();
    const lines: string[] = [];
    const logger = { warn: (message: string) => lines.push(message), info() {}, debug() {}, error() {} };
    const throwing: Telemetry = {
      operation: () => ({
        run: (fn) => fn(),
        attempt: () => ({
          run: (fn) => fn(),
          end: () => {
            throw new Error('attempt end broke');
          },
        }),
        event: () => {},
        end: () => {
          throw new Error('end broke');
        },
      }),
    };
    const client = new ManagementClient({
      baseUrl: url,
      apiKey: SEED_MANAGEMENT_KEYS[0],
      logger,
      telemetry: throwing,
    });
    const created = await client.pixels.create({ name: 'Telemetry broke', type: 'x', value: '1' });
    await client.pixels.get(created.id);
    expect(
      api.store.pixels(SEED_MANAGEMENT_KEYS[0]).filter((p) => p.name === 'Telemetry broke'),
    ).toHaveLength(1);
    expect(lines).toEqual([
      "[content-platform-sdk] the client's telemetry failed in attempt end() (Error: attempt end broke); calls go on, and it is not told again.",
    ]);
    const hollow = new ManagementClient({
      baseUrl: url,
      apiKey: SEED_MANAGEMENT_KEYS[0],
      logger,
      telemetry: { operation: () => ({}) as never },
    });
    await expect(hollow.pixels.get(created.id)).resolves.toMatchObject({ id: created.id });
    expect(lines.at(-1)).toContain(
      'failed in operation() (TypeError: it returned an object without run, attempt, event and end)',
    );
  });

  it('a telemetry without operation() is refused at construction, naming the option', () => {
    const build = () =>
      new ManagementClient({
        baseUrl: 'https://links.example.com',
        apiKey: 'k',
        telemetry: {} as unknown as Telemetry,
      });
    expect(build).toThrow(InvalidParamsError);
    expect(build).toThrow('telemetry needs an operation() method; got an object.');
  });

  it('with no OpenTelemetry SDK registered, the adapter records nothing and calls work', async () => {
    const { server, url } = await live();
    const client = new ManagementClient({
      baseUrl: url,
      apiKey: SEED_MANAGEMENT_KEYS[0],
      logLevel: 'off',
      telemetry: openTelemetry(),
    });
    await expect(client.pixels.get(1)).resolves.toMatchObject({ id: 1 });
    expect(spans()).toHaveLength(0);
    // Nothing would record an operation: the adapter declines it, so the call pays for nothing more.
    expect(
      openTelemetry().operation({
        name: 'pixels.get',
        api: 'management',
        method: 'GET',
        url: `${url}/api/v1/pixels/1`,
      }),
    ).toBeUndefined();
    // The no-op tracer's context is still valid to inject: the server got no traceparent of a real trace.
    expect(server.requests.at(-1)?.headers.traceparent).toBeUndefined();
  });
});

describe("the fetch instrumentation's spans (@opentelemetry/instrumentation-undici)", () => {
  async function withUndici(config: ConstructorParameters<typeof UndiciInstrumentation>[0]) {
    const instrumentation = new UndiciInstrumentation(config);
    instrumentation.setTracerProvider(tracerProvider);
    instrumentation.enable();
    try {
      const { url } = await live();
      const client = new CatalogClient({ siteUrl: url, apiKey: SEED_CATALOG_KEYS[0], logLevel: 'off' });
      await client.account.details();
      await client.items.list();
      return { url, found: spans().filter((span) => span.instrumentationScope.name.includes('undici')) };
    } finally {
      instrumentation.disable();
    }
  }

  it('configured with undiciInstrumentationConfig(): url.full and url.query show api_key=***', async () => {
    const { url, found } = await withUndici(undiciInstrumentationConfig());
    expect(found.map((span) => span.attributes['url.full']).sort()).toEqual([
      `${url}/api/account/details?api_key=***`,
      `${url}/api/items/all?api_key=***`,
    ]);
    expect(found.map((span) => span.attributes['url.query'])).toEqual(['?api_key=***', '?api_key=***']);
  });

  it("beside openTelemetry(): one traceparent per request (the instrumentation's, a child of the SDK's attempt span)", async () => {
    const instrumentation = new UndiciInstrumentation(undiciInstrumentationConfig());
    instrumentation.setTracerProvider(tracerProvider);
    instrumentation.enable();
    try {
      const { server: api, url } = await live();
      const { telemetry: t } = telemetry();
      const client = new CatalogClient({
        siteUrl: url,
        apiKey: SEED_CATALOG_KEYS[0],
        logLevel: 'off',
        telemetry: t,
      });
      await client.account.details();
      const sent = api.requests.at(-1)?.headers.traceparent ?? '';
      expect(sent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      const attempt = only(childrenOf(only(named('account.details'))));
      const fetchSpan = only(childrenOf(attempt));
      expect(fetchSpan.instrumentationScope.name).toContain('undici');
      expect(sent).toBe(`00-${fetchSpan.spanContext().traceId}-${fetchSpan.spanContext().spanId}-01`);
    } finally {
      instrumentation.disable();
    }
  });

  it("a hook of the user's own that throws loses its attributes, never the redaction", async () => {
    // Before: the hook ran first and threw, the instrumentation swallowed the error, and the span started with the
    // key in url.full and url.query.
    const { url, found } = await withUndici(
      undiciInstrumentationConfig({
        startSpanHook: (request) => {
          if (request.path.includes('items')) throw new Error('a bug in the hook');
          return { 'app.tag': 'mine' };
        },
      }),
    );
    expect(found.map((span) => [span.attributes['url.full'], span.attributes['app.tag']]).sort()).toEqual([
      [`${url}/api/account/details?api_key=***`, 'mine'],
      [`${url}/api/items/all?api_key=***`, undefined],
    ]);
  });

  it('tells the SDK through globalThis that the instrumentation propagates: the ESM and CommonJS builds share it', () => {
    // A config built by one build (a `--require` preload is CommonJS) must reach the other's clients, or both
    // would send a traceparent.
    undiciInstrumentationConfig();
    expect(
      (globalThis as Record<symbol, unknown>)[Symbol.for('content-platform-sdk.otel.undiciPropagates')],
    ).toBe(true);
  });

  it("left as it comes, it exports the key (what the configuration is for); a hook of the user's own still runs", async () => {
    const { found } = await withUndici({});
    expect(found.some((span) => String(span.attributes['url.full']).includes(SEED_CATALOG_KEYS[0]))).toBe(
      true,
    );
    exporter.reset();
    const { found: again } = await withUndici(
      undiciInstrumentationConfig({ startSpanHook: () => ({ 'app.tag': 'mine' }) }),
    );
    expect(again.every((span) => span.attributes['app.tag'] === 'mine')).toBe(true);
    expect(again.some((span) => String(span.attributes['url.full']).includes(SEED_CATALOG_KEYS[0]))).toBe(
      false,
    );
  });
});
