// A call as an operation of the client's `telemetry`: loaded the first time a client with telemetry sends, so the
// main entry carries none of it (see CONTRIBUTING, "Package size").
import type { ClientThrottle } from '../throttle/index.js';
import type { WithResponse } from './api-promise.js';
import { noAnswerName } from './no-answer.js';
import type { ApiName, AttemptTelemetry, OperationTelemetry, Telemetry } from './telemetry.js';
import type { Trace } from './trace.js';

/**
 * Runs `send` (the call) as an operation: started with the call's name and redacted URL (a list walk's later pages
 * linked to its first), the current context while it runs (the user's hooks see it), and ended with its answer or
 * its error, its request id and the fleet store's state. Without an operation (the telemetry ignores it), just
 * sends. The telemetry cannot fail the call: what it throws, or an operation without its methods, is told once as a
 * `warn` line and the call goes on without it.
 */
export async function observed<T>(
  telemetry: Telemetry,
  trace: Trace,
  api: ApiName,
  walk: { first?: OperationTelemetry | undefined } | undefined,
  throttle: ClientThrottle,
  send: () => Promise<WithResponse<T>>,
): Promise<WithResponse<T>> {
  const complain = complainer(telemetry, trace);
  let op: OperationTelemetry | undefined;
  try {
    op = telemetry.operation({
      name: trace.operation ?? 'request',
      api,
      method: trace.method,
      // Built (redacted) only when read: an adapter that declines the operation never pays for it.
      get url() {
        return trace.url;
      },
      first: walk?.first,
    });
  } catch (error) {
    complain('operation()', error);
  }
  if (op === undefined) return send();
  if (!hasMethods(op, ['run', 'attempt', 'event', 'end'])) {
    complain('operation()', new TypeError('it returned an object without run, attempt, event and end'));
    return send();
  }
  if (walk) walk.first ??= op;
  const safe = guarded(op, complain, trace.init.signal);
  trace.op = safe;
  const ended = (end: { error?: unknown; response?: Response }) =>
    safe.end({ ...end, requestId: trace.requestId, store: throttle.snapshot().store });
  try {
    const result = await safe.run(send);
    ended({ response: result.response });
    return result;
  } catch (error) {
    ended({ error });
    throw error;
  }
}

type Complain = (where: string, error: unknown) => void;

// Telemetries already told of: one line each, not one a call.
const told = new WeakSet<object>();

/** Tells the client's log, once per telemetry, that it threw (its message scrubbed like every line). */
function complainer(telemetry: Telemetry, trace: Trace): Complain {
  return (where, error) => {
    if (told.has(telemetry)) return;
    told.add(telemetry);
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    trace.client.log(
      'warn',
      `the client's telemetry failed in ${where} (${reason}); calls go on, and it is not told again.`,
      { errorName: error instanceof Error ? error.name : undefined },
      trace.scrub,
    );
  };
}

function hasMethods(value: object, names: readonly string[]): boolean {
  return names.every((name) => typeof (value as Record<string, unknown>)[name] === 'function');
}

/**
 * `op` with every method kept from failing the call. An attempt that ends without an answer is told the SDK error it
 * stands for (`errorName`), named as its log line and the retry event name it; `caller` is the call's own signal.
 */
function guarded(
  op: OperationTelemetry,
  complain: Complain,
  caller: AbortSignal | undefined,
): OperationTelemetry {
  return {
    run: (fn) => runGuarded(op, fn, 'run()', complain),
    attempt: (start) => {
      let attempt: AttemptTelemetry | undefined;
      try {
        attempt = op.attempt(start);
      } catch (error) {
        complain('attempt()', error);
        return undefined;
      }
      if (attempt === undefined) return undefined;
      if (!hasMethods(attempt, ['run', 'end'])) {
        complain('attempt()', new TypeError('it returned an object without run and end'));
        return undefined;
      }
      const safe = attempt;
      return {
        run: (fn) => runGuarded(safe, fn, 'attempt run()', complain),
        end: (end) => {
          const named =
            end.response === undefined
              ? { ...end, errorName: noAnswerName(end.error, caller, start.request.signal) }
              : end;
          quietly(() => safe.end(named), 'attempt end()', complain);
        },
      };
    },
    event: (event) => quietly(() => op.event(event), 'event()', complain),
    end: (end) => quietly(() => op.end(end), 'end()', complain),
  };
}

function quietly(task: () => void, where: string, complain: Complain): void {
  try {
    task();
  } catch (error) {
    complain(where, error);
  }
}

/**
 * `fn` run through `owner.run`, once: what `fn` returns or throws is the result, whatever `owner.run` returns; what
 * `owner.run` throws around it is told and set aside, and `fn` runs without it when it had not run.
 */
function runGuarded<R>(owner: { run<V>(fn: () => V): V }, fn: () => R, where: string, complain: Complain): R {
  let outcome: { value: R } | { error: unknown } | undefined;
  try {
    owner.run(() => {
      try {
        outcome = { value: fn() };
      } catch (error) {
        outcome = { error };
      }
      if ('error' in outcome) throw outcome.error;
      return outcome.value;
    });
  } catch (error) {
    if (outcome === undefined || !('error' in outcome) || outcome.error !== error) complain(where, error);
  }
  if (outcome === undefined) {
    complain(where, new TypeError('it did not call the function it was given'));
    return fn();
  }
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}
