/**
 * Native OpenTelemetry: one span per SDK operation, one CLIENT span per HTTP attempt under it, retries and throttle
 * waits as events, and no key in any of them. Prints the span tree of a few calls (a retried get, a Catalog GET that
 * carries its key in the URL, a cached validation twice).
 * Needs `@opentelemetry/api`, `@opentelemetry/sdk-trace-base` and `@opentelemetry/context-async-hooks` installed.
 * Run: npx tsx examples/observability.ts (in this repo), or from a project that installed the package:
 *   node node_modules/content-platform-sdk/dist/examples/observability.js
 */
import { context, type HrTime } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { CatalogClient, ManagementClient } from 'content-platform-sdk';
import { openTelemetry } from 'content-platform-sdk/otel';
import { createReferenceServer, listen, SEED_PURCHASE_CODES } from 'content-platform-sdk/testing';

// The OpenTelemetry SDK, as a service sets it up (an OTLP exporter in production; in memory here, to print).
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const telemetry = openTelemetry({ tracerProvider });

const api = createReferenceServer();
const server = await listen(api, { port: 0 });
try {
  const [managementKey] = api.keys.management;
  const [catalogKey] = api.keys.catalog;
  const mgmt = new ManagementClient({ baseUrl: server.url, apiKey: managementKey, telemetry });
  const catalog = new CatalogClient({
    siteUrl: server.url,
    apiKey: catalogKey,
    telemetry,
    cache: { ttl: 60_000 },
  });

  api.faults.script([{ status: 503, headers: { 'retry-after': '0' } }]); // the first attempt fails, the retry succeeds
  await mgmt.pixels.get(1);
  await catalog.account.details();
  await catalog.purchases.validate(SEED_PURCHASE_CODES.supported); // a miss: asks the server
  await catalog.purchases.validate(SEED_PURCHASE_CODES.supported); // a hit: no request

  printTree(exporter.getFinishedSpans());
} finally {
  await server.close();
}

/** The spans as a tree, children under their parent, with the attributes that tell the story. */
function printTree(spans: readonly ReadableSpan[]): void {
  const at = (time: HrTime) => time[0] * 1e9 + time[1];
  const sorted = [...spans].sort((a, b) => at(a.startTime) - at(b.startTime));
  const shown = [
    'url.full',
    'http.response.status_code',
    'error.type',
    'http.request.resend_count',
    'content_platform.attempts',
    'content_platform.cache.result',
  ];
  const print = (span: ReadableSpan, depth: number) => {
    const attributes = shown
      .filter((name) => span.attributes[name] !== undefined)
      .map((name) => `${name}=${String(span.attributes[name])}`);
    const events = span.events.map((event) => `event:${event.name}`);
    console.log(`${'  '.repeat(depth)}${span.name} ${[...attributes, ...events].join(' ')}`);
    for (const child of sorted.filter((s) => s.parentSpanContext?.spanId === span.spanContext().spanId))
      print(child, depth + 1);
  };
  for (const root of sorted.filter((span) => span.parentSpanContext === undefined)) print(root, 0);
}
