// The lines an attempt logs at `info` and `debug` level: loaded on demand (see `attemptFetch`), so a client that does
// not log its attempts (the default level, `warn`) carries none of it.
import { type APIError, type ContentPlatformError, connectionCode, maskCodeFields } from '../errors/index.js';
import type { Log } from './log.js';
import { noAnswerName } from './no-answer.js';
import type { Send } from './read-fetch.js';
import { retryReason } from './retry.js';
import type { Trace } from './trace.js';

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

/** Headers for a debug line, credentials shown as `***`. */
export function headerText(headers: Headers): string {
  const parts: string[] = [];
  headers.forEach((value, name) => {
    parts.push(`${name}: ${SECRET_HEADERS.has(name) ? '***' : value}`);
  });
  return `headers {${parts.join(', ')}}`;
}

/**
 * A request body for a debug line: any `api_key` field (JSON or form) as `***`, a purchase code as its last four. The
 * body is the Request's, or the one the attempt's fetch is given (`carryBody`).
 */
export async function bodyText(request: Request, init?: RequestInit): Promise<string> {
  const carried = init?.body;
  let text: string;
  if (request.body) text = await request.clone().text();
  else if (typeof carried === 'string' || carried instanceof URLSearchParams) text = String(carried);
  else return '';
  const masked = text
    .replace(/("api_key"\s*:\s*)"(?:[^"\\]|\\.)*"/g, '$1"***"')
    .replace(/(^|&)(api_key=)[^&]*/gi, '$1$2***');
  return ` body ${maskCodeFields(masked)}`;
}

/** `send` that logs one line per attempt: status or failure, duration, request id (and headers at debug level). */
export function logged(send: Send, trace: Trace, log: Log): Send {
  return async (input, init) => {
    const started = performance.now();
    const line = `${trace.label} (attempt ${trace.attempts})`;
    // Reading a clone of the body costs a copy: only at debug level.
    if (log.verbose)
      log(
        'debug',
        `${line} request ${headerText(input.headers)}${await bodyText(input, init)}`,
        trace.fields(),
        trace.scrub,
      );
    try {
      const response = await send(input, init);
      const durationMs = Math.round(performance.now() - started);
      const requestId = response.headers.get('x-request-id') ?? undefined;
      const fields = trace.fields({ status: response.status, durationMs, requestId });
      log('info', `${line} → ${response.status} in ${durationMs} ms`, fields, trace.scrub);
      if (log.verbose) log('debug', `${line} response ${headerText(response.headers)}`, fields, trace.scrub);
      return response;
    } catch (error) {
      const durationMs = Math.round(performance.now() - started);
      const errorName = noAnswerName(error, trace.init.signal, input.signal);
      log(
        'info',
        `${line} → no answer after ${durationMs} ms: ${noAnswerText(error, errorName)}`,
        trace.fields({ durationMs, errorName }),
        trace.scrub,
      );
      throw error;
    }
  };
}

/**
 * What an attempt without an answer met, in the retry line's words (`a connection error (ECONNREFUSED)`, `a
 * timeout`), never fetch's own (`fetch failed`, `This operation was aborted`): one name for one failure in every line.
 */
function noAnswerText(error: unknown, errorName: string): string {
  if (errorName === 'APIConnectionError')
    return retryReason({ kind: 'network', code: connectionCode(error) });
  if (errorName === 'APIConnectionTimeoutError') return retryReason({ kind: 'timeout' });
  if (errorName === 'APIUserAbortError') return 'the caller aborted it';
  return (error as Error)?.message ?? String(error);
}

/**
 * The line of a call that failed, at debug level only: the caller gets the error, and an error line as well would
 * double every failure in an app's logs.
 */
export function failed(trace: Trace, error: ContentPlatformError): void {
  const status = (error as Partial<APIError>).status;
  const durationMs = Math.round(trace.elapsed());
  const attempts = `${trace.attempts} attempt${trace.attempts === 1 ? '' : 's'}`;
  trace.client.log(
    'debug',
    `call failed after ${attempts}: ${error.message}`,
    { ...trace.fields({ status, durationMs, requestId: error.requestId }), errorName: error.name },
    trace.scrub,
  );
}
