import { connectionCode } from '../errors/index.js';
import { failedRequest } from './read-fetch.js';
import type { Failure } from './retry.js';

/** A transport error in the SDK's terms: http.ts, the one module that knows ky's classes, reads it. */
export type TransportError =
  | { kind: 'http'; response: Response; data: unknown }
  | { kind: 'timeout' }
  | { kind: 'network'; cause: unknown }
  | { kind: 'forced' }
  | { kind: 'other' };

/** A transport error in the retry rules' terms. */
export function failureOf(error: Error, transport: TransportError): Failure {
  if (transport.kind === 'http') {
    const { status, headers } = transport.response;
    return { kind: 'status', status, headers };
  }
  if (transport.kind === 'timeout') return { kind: 'timeout' };
  if (transport.kind === 'network' || (error instanceof TypeError && failedRequest(error)))
    return { kind: 'network', code: connectionCode(error) };
  return { kind: 'other', name: error.name };
}
