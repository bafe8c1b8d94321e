import { bodyText, headerText, type Log, type LogFields } from './log.js';
import type { Send } from './read-fetch.js';
import type { Method } from './retry.js';

/**
 * What one call went through, attempt by attempt: its errors (`attempts`, `requestId`, `mayHaveSucceeded`, the
 * cause of a timeout) and its log lines read it. One per call; the fetch below fills it in.
 */
export class Trace {
  /** Requests sent so far. */
  attempts = 0;
  /** Answers read so far (fewer than `attempts` when one got none). */
  answers = 0;
  /** The last answer received, any status (already read: see `readText`). */
  answer: Response | undefined;
  /** Some attempt left and got no answer (timeout, reset): the server may have acted on it. */
  lost = false;
  readonly started = performance.now();

  /** `url`: the call's full URL, already redacted (it names the call in messages and log lines). */
  constructor(
    readonly method: Method,
    readonly url: string,
  ) {}

  /** Milliseconds since the call started. */
  elapsed(): number {
    return performance.now() - this.started;
  }

  /** The `X-Request-Id` of the last answer, if it had one. */
  get requestId(): string | undefined {
    return this.answer?.headers.get('x-request-id') ?? undefined;
  }

  /** The fields of a log line about this call's current attempt. */
  fields(extra: LogFields = {}): LogFields {
    return { method: this.method, url: this.url, attempt: this.attempts, ...extra };
  }
}

/**
 * Wraps a fetch to count the call's attempts and, when `log` is given, log one line per attempt: status or
 * failure, duration, request id (and the request and response headers at debug level).
 */
export function tracingFetch(send: Send, trace: Trace, log: Log | undefined): Send {
  if (log === undefined) {
    return (input, init) => {
      trace.attempts += 1;
      return send(input, init);
    };
  }
  return async (input, init) => {
    trace.attempts += 1;
    const started = performance.now();
    const line = `${trace.method} ${trace.url} (attempt ${trace.attempts})`;
    // Reading a clone of the body costs a copy: only at debug level.
    if (log.verbose)
      log('debug', `${line} request ${headerText(input.headers)}${await bodyText(input)}`, trace.fields());
    try {
      const response = await send(input, init);
      const durationMs = Math.round(performance.now() - started);
      const requestId = response.headers.get('x-request-id') ?? undefined;
      const fields = trace.fields({ status: response.status, durationMs, requestId });
      log('info', `${line} → ${response.status} in ${durationMs} ms`, fields);
      if (log.verbose) log('debug', `${line} response ${headerText(response.headers)}`, fields);
      return response;
    } catch (error) {
      const durationMs = Math.round(performance.now() - started);
      const errorName = (error as Error)?.name;
      log(
        'info',
        `${line} → no answer after ${durationMs} ms: ${(error as Error)?.message}`,
        trace.fields({ durationMs, errorName }),
      );
      throw error;
    }
  };
}
