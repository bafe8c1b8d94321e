// A call as an operation of the client's `telemetry`: loaded the first time a client with telemetry sends, so the
// main entry carries none of it (see CONTRIBUTING, "Package size").
import type { ClientThrottle } from '../throttle/index.js';
import type { WithResponse } from './api-promise.js';
import type { ApiName, OperationTelemetry, Telemetry } from './telemetry.js';
import type { Trace } from './trace.js';

/**
 * Runs `send` (the call) as an operation: started with the call's name and redacted URL (a list walk's later pages
 * linked to its first), the current context while it runs (the user's hooks see it), and ended with its answer or
 * its error, its request id and the fleet store's state. Without an operation (the telemetry ignores it), just
 * sends.
 */
export async function observed<T>(
  telemetry: Telemetry,
  trace: Trace,
  api: ApiName,
  walk: { first?: OperationTelemetry | undefined } | undefined,
  throttle: ClientThrottle,
  send: () => Promise<WithResponse<T>>,
): Promise<WithResponse<T>> {
  const op = telemetry.operation({
    name: trace.operation ?? 'request',
    api,
    method: trace.method,
    // Built (redacted) only when read: an adapter that declines the operation never pays for it.
    get url() {
      return trace.url;
    },
    first: walk?.first,
  });
  if (op === undefined) return send();
  if (walk) walk.first ??= op;
  trace.op = op;
  const ended = (end: { error?: unknown; response?: Response }) =>
    op.end({ ...end, requestId: trace.requestId, store: throttle.snapshot().store });
  try {
    const result = await op.run(send);
    ended({ response: result.response });
    return result;
  } catch (error) {
    ended({ error });
    throw error;
  }
}
