// How a call that failed ends: whatever ky or fetch threw, as one of the SDK's errors. Loaded by the first call that
// fails (see `HttpClient`), so a process whose calls succeed carries none of it.
import {
  APIUserAbortError,
  ContentPlatformError,
  connectionCode,
  connectionError,
  createAnswered,
  scrubbedError,
  timeoutError,
  unreadableError,
} from '../errors/index.js';
import type { TransportError } from './failure.js';
import { answerError, type ReadError } from './parse.js';
import { failedRequest, readText } from './read-fetch.js';
import { mayHaveActed } from './retry.js';
import type { Trace } from './trace.js';

/** What mapping a call's failure needs to know about the call. */
export interface FailureContext {
  trace: Trace;
  /** The path the call asked for (for a 404's message). */
  path: string;
  readError: ReadError;
  /** The call creates a record (not idempotent): a connection error, a 502 or a 504 says whether it may have. */
  create: boolean;
}

/**
 * Whatever ky or fetch threw, as one of our errors; a hook's own error reaches the caller unchanged. Should
 * describing an answer fail (a case no rule foresaw), the call still ends with one of our errors.
 */
export function callFailure(error: unknown, transport: TransportError, context: FailureContext): unknown {
  try {
    return mapped(error, transport, context);
  } catch (unexpected) {
    const { trace } = context;
    return unreadableError(trace.label, trace.answer?.status ?? 0, unexpected, trace.scrub);
  }
}

function mapped(error: unknown, transport: TransportError, context: FailureContext): unknown {
  const { trace, path, readError } = context;
  if (error instanceof ContentPlatformError) return error;
  const { label, scrub } = trace;
  const { signal } = trace.init;
  if (signal?.aborted)
    return new APIUserAbortError(`${label} was aborted by the caller.`, { cause: signal.reason });
  if (transport.kind === 'http') {
    // ky has read the body into `data` (parsed when JSON) unless the answer came through readAttempt.
    const { data, response } = transport;
    const text = readText(response) ?? (typeof data === 'string' ? data : stringified(data));
    const failed = answerError({ response, text, trace, path }, readError);
    // A gateway that gave up says nothing of what the server behind it did with a create.
    return context.create ? createAnswered(failed) : failed;
  }
  if (transport.kind === 'timeout') {
    // Cut mid-attempt (more requests sent than answers read), or during the wait after an answer.
    if (trace.attempts > trace.answers) trace.lost = true;
    const last = trace.answer && !trace.answer.ok ? trace.answer : undefined;
    const cause = last && answerError({ response: last, text: readText(last) ?? '', trace, path }, readError);
    return timeoutError(label, cause, trace.lost);
  }
  if (transport.kind === 'forced') return forcedError(error, context);
  const cause = transport.kind === 'network' ? transport.cause : failedRequest(error) ? error : undefined;
  if (cause === undefined) return error;
  if (mayHaveActed({ kind: 'network', code: connectionCode(cause) })) trace.lost = true;
  return connectionError(label, cause, scrub, { mayHaveSucceeded: trace.lost, create: context.create });
}

/**
 * An `afterResponse` hook asked for a retry (`ky.retry()`) after the last attempt allowed: the last answer's own
 * error when it was one, else ours saying so, with the hook's cause (scrubbed).
 */
function forcedError(error: unknown, context: FailureContext): unknown {
  const { trace, path, readError } = context;
  const last = trace.answer;
  if (last && !last.ok)
    return answerError({ response: last, text: readText(last) ?? '', trace, path }, readError);
  const attempts = `${trace.attempts} attempt${trace.attempts === 1 ? '' : 's'}`;
  return new ContentPlatformError(
    `${trace.label}: an afterResponse hook asked for a retry (ky.retry()) after the last one allowed ` +
      `(${attempts}, maxRetries ${trace.init.limit}); raise maxRetries, or have the hook throw its own error.`,
    { cause: scrubbedError((error as Error).cause, trace.scrub) },
  );
}

/** ky's parsed `data` as text again; a value too deep to write back (a hook's own answer) is kept as none. */
function stringified(data: unknown): string {
  try {
    return JSON.stringify(data) ?? '';
  } catch {
    return '';
  }
}
