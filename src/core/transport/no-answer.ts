// The name an attempt that got no answer goes by in its log line and its telemetry: imported only by the code loaded
// on demand (`logged.ts`, `observed.ts`), so the main entry carries none of it.
import { ContentPlatformError } from '../errors/index.js';

/**
 * The SDK error class an attempt that got no answer ends as, as the retry line, the failure line and the retry
 * event name it (never fetch's own `TypeError`): one of ours as it is, the caller's abort, a timeout (the attempt's
 * signal aborted), else a connection error.
 */
export function noAnswerName(error: unknown, caller: AbortSignal | undefined, attempt: AbortSignal): string {
  if (error instanceof ContentPlatformError) return error.name;
  if (caller?.aborted) return 'APIUserAbortError';
  return attempt.aborted ? 'APIConnectionTimeoutError' : 'APIConnectionError';
}
