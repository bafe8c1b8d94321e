// The /otel entry's arguments (issue 37, options checked): an unknown option or a value of the wrong kind is refused
// at once, naming it, and `null` options are none. The entry carries none of the SDK's code, so its errors are
// TypeErrors (src/otel/index.ts).
import { trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import {
  type OpenTelemetryOptions,
  openTelemetry,
  type UndiciRedactionOptions,
  undiciInstrumentationConfig,
} from '../../src/otel/index.js';

/** What `make()` throws: its class and message. */
function thrown(make: () => unknown) {
  try {
    make();
  } catch (error) {
    return { type: (error as Error).constructor, message: (error as Error).message };
  }
  return undefined;
}

describe('openTelemetry(options)', () => {
  it.each([
    [
      { propogate: false },
      'openTelemetry(options): unknown option "propogate"; the options are tracerProvider, meterProvider, propagate.',
    ],
    [
      { 'a key: sk_live_123': 1 },
      'openTelemetry(options): unknown option (name not shown); the options are tracerProvider, meterProvider, propagate.',
    ],
    [
      [],
      'openTelemetry(options): options must be an object { tracerProvider?, meterProvider?, propagate? }; got an array.',
    ],
    [
      'spans',
      'openTelemetry(options): options must be an object { tracerProvider?, meterProvider?, propagate? }; got string.',
    ],
    [{ propagate: 'no' }, 'openTelemetry(options): propagate must be true or false; got string.'],
    [{ tracerProvider: {} }, 'openTelemetry(options): tracerProvider must have a getTracer() method.'],
  ])('refuses %j', (options, message) => {
    expect(thrown(() => openTelemetry(options as OpenTelemetryOptions))).toEqual({
      type: TypeError,
      message,
    });
  });

  it('takes null or nothing as the defaults, and the options it knows', () => {
    for (const options of [
      null,
      undefined,
      {},
      { propagate: false, tracerProvider: trace.getTracerProvider() },
    ])
      expect(typeof openTelemetry(options).operation).toBe('function');
  });
});

describe('undiciInstrumentationConfig(options)', () => {
  it.each([
    [
      { startSpanHok: 'a function' },
      'undiciInstrumentationConfig(options): unknown option "startSpanHok"; the options are startSpanHook.',
    ],
    [
      { startSpanHook: 'x' },
      'undiciInstrumentationConfig(options): startSpanHook must be a function; got string.',
    ],
    [[], 'undiciInstrumentationConfig(options): options must be an object { startSpanHook? }; got an array.'],
  ])('refuses %j', (options, message) => {
    expect(thrown(() => undiciInstrumentationConfig(options as UndiciRedactionOptions))).toEqual({
      type: TypeError,
      message,
    });
  });

  it('takes null as none: the redaction alone', () => {
    const { startSpanHook } = undiciInstrumentationConfig(null);
    expect(
      startSpanHook({ origin: 'http://127.0.0.1:8787', path: '/api/items/all?api_key=ck-secret' }),
    ).toEqual({
      'url.full': 'http://127.0.0.1:8787/api/items/all?api_key=***',
      'url.query': '?api_key=***',
    });
  });
});
