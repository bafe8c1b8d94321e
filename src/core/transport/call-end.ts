import { type APIError, ContentPlatformError, recordCall } from '../errors/index.js';
import type { Log } from './log.js';
import type { Trace } from './trace.js';

/**
 * A call's error, stamped with what the call went through (`attempts`, `requestId`) and logged once at debug
 * level: the caller gets the error, and an error line as well would double every failure in an app's logs.
 */
export function finished(error: unknown, trace: Trace, log: Log): unknown {
  if (!(error instanceof ContentPlatformError)) return error;
  const answered = (error as Partial<APIError>).headers?.get('x-request-id') ?? undefined;
  recordCall(error, trace.attempts, answered ?? trace.requestId);
  if (log.enabled('debug')) {
    const status = (error as Partial<APIError>).status;
    const durationMs = Math.round(performance.now() - trace.started);
    const attempts = `${trace.attempts} attempt${trace.attempts === 1 ? '' : 's'}`;
    log('debug', `call failed after ${attempts}: ${error.message}`, {
      ...trace.fields({ status, durationMs, requestId: error.requestId }),
      errorName: error.name,
    });
  }
  return error;
}
