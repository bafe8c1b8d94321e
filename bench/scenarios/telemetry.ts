// Section 1f: what the `telemetry` option costs a successful call. Two phases, each interleaved in a rotating order
// against a client without `telemetry` (the baseline) measured in the same phase:
// - `openTelemetry()` with no OpenTelemetry SDK registered: the API's no-op tracer, meter, context and propagator;
// - `openTelemetry({ tracerProvider, meterProvider })` with the SDK as a service runs it: a BasicTracerProvider with
//   a BatchSpanProcessor (into an InMemorySpanExporter, emptied after every round), a MeterProvider with a periodic
//   reader, and the AsyncLocalStorageContextManager and the W3C propagator registered globally (unregistered after).
// The context manager is global, so the phases cannot share rounds. Each is timed over the socket (wall and client
// CPU, one call at a time) and on a canned in-memory answer (batches of 100, no socket: the cost in µs).
import { context, createContextKey, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { CatalogClient, ManagementClient, type Telemetry } from 'content-platform-sdk';
import { openTelemetry } from 'content-platform-sdk/otel';
import type { Call, FetchFn } from '../lib/calls.ts';
import type { Context, Section } from '../lib/env.ts';
import { fx, median, pairedRatio, us } from '../lib/stats.ts';

export interface TelemetryRatio {
  /** With / without `telemetry`, over the socket: ratio of the wall-time medians. */
  wall: number;
  /** The same, median of the per-round ratios. */
  paired: number;
  /** With / without, ratio of the client-CPU medians. */
  cpu: number;
  /** With − without on a canned in-memory answer (no socket), ms per call: median of the per-round differences. */
  ownMs: number;
}

export interface TelemetryFigures {
  /** `openTelemetry()`, nothing registered, by call. */
  noop: Record<string, TelemetryRatio>;
  /** `openTelemetry({ tracerProvider, meterProvider })` with the SDK and a context manager, by call. */
  sdk: Record<string, TelemetryRatio>;
}

/** The target of the no-op adapter: with / without, wall-time medians over the socket. */
const NOOP_TARGET = 1.02;
/** Rounds per call over the socket on a full run (a fifth of them with --quick, at least 100), as in section 1. */
const ROUNDS: Record<string, number> = { 'pixels.get': 3000, 'purchases.validate': 3000 };
const BATCH = 100;

interface Samples {
  wall: number[];
  cpu: number[];
}

/**
 * Runs each call `batch` times in a row per round, in an order that rotates every round (as section 1 does), and
 * records the wall and client-CPU time per call; `between` runs after every round, untimed.
 */
async function rounds(
  calls: readonly Call[],
  count: number,
  warmup: number,
  batch: number,
  between: () => void,
): Promise<Samples[]> {
  const results = calls.map((): Samples => ({ wall: [], cpu: [] }));
  for (let round = -warmup; round < count; round += 1) {
    for (let k = 0; k < calls.length; k += 1) {
      const i = (((round + k) % calls.length) + calls.length) % calls.length;
      const call = calls[i] as Call;
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      for (let n = 0; n < batch; n += 1) await call();
      const wall = (performance.now() - t0) / batch;
      const cpu = process.cpuUsage(cpu0);
      if (round >= 0) {
        (results[i] as Samples).wall.push(wall);
        (results[i] as Samples).cpu.push((cpu.user + cpu.system) / 1000 / batch);
      }
    }
    between();
  }
  return results;
}

interface Op {
  name: string;
  call: (c: { mgmt: ManagementClient; catalog: CatalogClient }) => Call;
  ok: (answer: unknown) => boolean;
}

/** A fetch answering each path with the server's answer to it, recorded once: no socket, no server work. */
async function cannedFetch(base: string, managementKey: string, catalogKey: string, code: string) {
  const canned = new Map<string, { text: string; headers: [string, string][]; status: number }>();
  const grab = async (path: string, init: RequestInit = {}) => {
    const r = await fetch(`${base}${path}`, init);
    canned.set(path, { text: await r.text(), headers: [...r.headers], status: r.status });
  };
  await grab('/api/v1/pixels/1', {
    headers: { accept: 'application/json', authorization: `Bearer ${managementKey}` },
  });
  await grab('/api/purchases/validation', {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ purchase_code: code, api_key: catalogKey }),
  });
  const fake: FetchFn = async (input) => {
    const c = canned.get(new URL(input instanceof Request ? input.url : String(input)).pathname);
    if (!c) throw new Error(`telemetry: no canned answer for ${String(input)}`);
    return new Response(c.text, { status: c.status, headers: c.headers });
  };
  return fake;
}

export async function telemetry({ info, quick }: Context): Promise<Section<TelemetryFigures>> {
  const lines = [
    '## 1f. Telemetry: what `telemetry` costs a successful call (interleaved, rotating order, medians)',
    '',
    'Each phase interleaves the SDK with `telemetry` against the same SDK without it, measured in that phase: over',
    'the socket one call at a time (wall, client CPU), and on a canned in-memory answer in batches of 100 (no socket,',
    'no server: the cost per call, the median of the per-round differences). **no SDK**: `openTelemetry()` with no',
    "OpenTelemetry SDK registered (the API's no-op tracer and meter). **SDK**: `openTelemetry({ tracerProvider,",
    'meterProvider })` with a `BasicTracerProvider` and a `BatchSpanProcessor` (`InMemorySpanExporter`, emptied every',
    'round), a `MeterProvider` with a periodic reader (1 s), and the `AsyncLocalStorageContextManager` and the W3C',
    `propagator registered globally (each attempt sends \`traceparent\`). Target: no SDK ≤ ${fx(NOOP_TARGET)}× without (wall).`,
    '',
    '| call | telemetry | with | without | with / without | (paired) | client CPU with / without | client CPU with · without | cost, no socket |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const { small: base, managementKey, catalogKey, purchaseCode: code } = info;
  const canned = await cannedFetch(base, managementKey, catalogKey, code);
  const has = (x: unknown, key: string) => (x as Record<string, unknown> | null)?.[key];
  const ops: Op[] = [
    { name: 'pixels.get', call: (c) => () => c.mgmt.pixels.get(1), ok: (a) => has(a, 'id') === 1 },
    {
      name: 'purchases.validate',
      call: (c) => () => c.catalog.purchases.validate(code),
      ok: (a) => has(a, 'purchase_code') === code,
    },
  ];
  const clients = (t: Telemetry | undefined, fetch?: FetchFn) => {
    const more = { ...(t ? { telemetry: t } : {}), ...(fetch ? { fetch } : {}) };
    return {
      mgmt: new ManagementClient({ baseUrl: base, apiKey: managementKey, ...more }),
      catalog: new CatalogClient({ siteUrl: base, apiKey: catalogKey, ...more }),
    };
  };

  const phase = async (label: string, t: Telemetry, between: () => void) => {
    const out: Record<string, TelemetryRatio> = {};
    const sockets = [clients(undefined), clients(t)];
    const inMemory = [clients(undefined, canned), clients(t, canned)];
    for (const op of ops) {
      const socket = sockets.map((c) => op.call(c));
      const memory = inMemory.map((c) => op.call(c));
      for (const call of [...socket, ...memory]) {
        const answer = await call();
        if (!op.ok(answer)) throw new Error(`telemetry, ${op.name}: ${JSON.stringify(answer).slice(0, 200)}`);
      }
      const n = Math.max(100, Math.round((ROUNDS[op.name] ?? 1500) * (quick ? 0.2 : 1)));
      const [without, withT] = (await rounds(socket, n, Math.round(n / 10), 1, between)) as [
        Samples,
        Samples,
      ];
      const [memWithout, memWith] = (await rounds(memory, quick ? 8 : 25, 3, BATCH, between)) as [
        Samples,
        Samples,
      ];
      const r: TelemetryRatio = {
        wall: median(withT.wall) / median(without.wall),
        paired: pairedRatio(withT.wall, without.wall),
        cpu: median(withT.cpu) / median(without.cpu),
        ownMs: median(memWith.wall.map((x, i) => x - (memWithout.wall[i] as number))),
      };
      out[op.name] = r;
      const cpu = [withT, without].map((s) => us(median(s.cpu))).join(' · ');
      lines.push(
        `| ${op.name} | ${label} | ${us(median(withT.wall))} | ${us(median(without.wall))} | ${fx(r.wall)}× | ` +
          `${fx(r.paired)}× | ${fx(r.cpu)}× | ${cpu} | ${us(r.ownMs)} |`,
      );
    }
    return out;
  };

  // Phase 1: nothing registered. The API must be the no-op one, or this measures something else.
  const key = createContextKey('bench');
  const probe = trace.getTracer('bench').startSpan('probe');
  probe.end();
  if (
    probe.isRecording() ||
    context.with(ROOT_CONTEXT.setValue(key, 1), () => context.active().getValue(key))
  ) {
    throw new Error('telemetry: an OpenTelemetry SDK or context manager is already registered');
  }
  const noop = await phase('no SDK', openTelemetry(), () => {});

  // Phase 2: the SDK as a service runs it.
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(spans)] });
  const metricsOut = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: metricsOut, exportIntervalMillis: 1000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  let sdk: Record<string, TelemetryRatio>;
  try {
    const t = openTelemetry({ tracerProvider, meterProvider });
    // What the adapter makes, before it is timed: an operation span with its attempt span under it, the metrics,
    // and `traceparent` on the request.
    let traceparent: string | null = null;
    const seeing: FetchFn = (input, init) => {
      traceparent = (input instanceof Request ? input : new Request(input, init)).headers.get('traceparent');
      return fetch(input, init);
    };
    await clients(t, seeing).mgmt.pixels.get(1);
    await tracerProvider.forceFlush();
    const [attempt, operation] = spans.getFinishedSpans();
    const { resourceMetrics } = await reader.collect();
    const names = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics.map((m) => m.descriptor.name));
    if (
      operation?.name !== 'pixels.get' ||
      attempt?.parentSpanContext?.spanId !== operation.spanContext().spanId ||
      !names.includes('http.client.request.duration') ||
      !names.includes('content_platform.operation.duration') ||
      !String(traceparent).includes(attempt.spanContext().traceId)
    ) {
      throw new Error(
        `telemetry: unexpected spans ${spans
          .getFinishedSpans()
          .map((s) => s.name)
          .join()}, metrics ${names.join()}, traceparent ${traceparent}`,
      );
    }
    spans.reset();
    sdk = await phase('SDK', t, () => {
      spans.reset();
      metricsOut.reset();
    });
  } finally {
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
    context.disable();
    propagation.disable();
  }

  const worst = Math.max(...Object.values(noop).map((r) => r.wall));
  lines.push(
    '',
    `No SDK, the highest with / without: ${fx(worst)}× (target ≤ ${fx(NOOP_TARGET)}×: ${
      worst <= NOOP_TARGET ? 'met' : '**not met**'
    }).`,
    '',
  );
  return { figures: { noop, sdk }, lines };
}
