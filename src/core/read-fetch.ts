import { resetAsSdkReads } from './retry-after.js';

/** How one attempt is sent: a `fetch` as ky calls it (a Request, and ky's extra fetch options). */
export type Send = (request: Request, init?: RequestInit) => Promise<Response>;

// Statuses whose Response may not carry a body (the constructor throws otherwise).
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

const texts = new WeakMap<Response, string>();
// As Response.text() decodes: UTF-8 whatever the charset, a leading BOM dropped.
const UTF8 = new TextDecoder();
const sendFailures = new WeakMap<object, Request>();

/** The text an answer from `readingFetch` was read from; `undefined` for any other Response (a hook's own). */
export function readText(response: Response): string | undefined {
  return texts.get(response);
}

/**
 * The attempt's Request when `error` is what `send` or its body threw (a failure to get an answer, unlike a
 * hook's own error); `undefined` otherwise. ky attaches no request to a TypeError it does not recognise.
 */
export function failedRequest(error: unknown): Request | undefined {
  return typeof error === 'object' && error !== null ? sendFailures.get(error) : undefined;
}

/**
 * Wraps `send` so each attempt resolves only once its body is read. ky's timeout then covers the body, and a
 * stalled body is retried like a stalled header; the SDK gets an answer already read (`readText`).
 *
 * A success is handed on as it came, its body used: nothing after ky reads it, and rebuilding it costs every
 * call. An error answer is rebuilt, because ky reads its body for `HTTPError.data`; so is every answer when
 * `rebuild` says an `afterResponse` hook will clone it.
 */
export function readingFetch(
  send: Send,
  rebuild = false,
): (input: Request | URL | string, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    // ky always passes a Request; anything else is made one, so `send` can rely on it.
    const request = input instanceof Request ? input : new Request(input, init);
    let response: Response;
    let text: string;
    let bytes: Uint8Array<ArrayBuffer> | undefined;
    try {
      response = await send(request, init);
      // A browser's opaque redirect has no status or body to read; it is mapped as a redirect.
      if (response.type === 'opaqueredirect') return response;
      if (response.ok && !rebuild) text = await response.text();
      else {
        bytes = new Uint8Array(await response.arrayBuffer());
        text = UTF8.decode(bytes);
      }
    } catch (error) {
      // Marked so the retry rules count a TypeError here as a network error, and the mapper as no answer.
      if (typeof error === 'object' && error !== null) sendFailures.set(error, request);
      throw error;
    }
    const answer = bytes === undefined ? response : rebuilt(response, bytes);
    texts.set(answer, text);
    return answer;
  };
}

/** The answer again, from its bytes (not its text: no second UTF-8 encoding of the body). */
function rebuilt(response: Response, bytes: Uint8Array<ArrayBuffer>): Response {
  const answer = new Response(bytes.length === 0 || NULL_BODY.has(response.status) ? null : bytes, {
    status: response.status,
    statusText: response.statusText,
    headers: wholeRetryAfter(resetAsSdkReads(response.headers)),
  });
  // The login-redirect check reads these; a Response built here has neither.
  if (response.redirected) Object.defineProperty(answer, 'redirected', { value: true });
  if (response.url) Object.defineProperty(answer, 'url', { value: response.url });
  return answer;
}

/** ky reads Retry-After as whole seconds or a date only: a decimal one is rounded up, never waited short. */
function wholeRetryAfter(headers: Headers): Headers {
  const value = headers.get('retry-after')?.trim();
  if (value === undefined || !/^\d+\.\d+$/.test(value)) return headers;
  const whole = new Headers(headers);
  whole.set('retry-after', String(Math.ceil(Number(value))));
  return whole;
}
