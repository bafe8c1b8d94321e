import {
  APIError,
  ERROR_BODY_BYTES,
  keepPhrase,
  markCut,
  ResponseTooLargeError,
  SCRUB_MARGIN,
  type Scrub,
  scrubHeaders,
} from '../errors/index.js';

/** How one attempt is sent: a `fetch` as ky calls it (a Request, and ky's extra fetch options). */
export type Send = (request: Request, init?: RequestInit) => Promise<Response>;

// Statuses whose Response may not carry a body (the constructor throws otherwise).
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
// A reason phrase the Response constructor takes (HTTP's reason-phrase: tab, space, visible ASCII, obs-text); fetch
// passes on any other as it came (Arabic text decoded as UTF-8, an ESC), and the constructor throws a TypeError.
const PHRASE = /^[\t\x20-\x7e\x80-\xff]*$/;

const texts = new WeakMap<Response, string>();
// As Response.text() decodes: UTF-8 whatever the charset, a leading BOM dropped.
const UTF8 = new TextDecoder();
const sendFailures = new WeakMap<object, Request>();

/** The text an answer from `readAttempt` was read from; `undefined` for any other Response (a hook's own). */
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

/** How one call reads its answers: the trace of the call, as far as reading needs it. */
export interface Reading {
  readonly init: {
    /** Rebuild every answer, not only error answers: an `afterResponse` hook will clone it. */
    readonly rebuild: boolean;
    /** `maxResponseBytes`: most bytes a 2xx body may have, after decompression. */
    readonly maxBytes: number;
  };
  /** `METHOD url` (redacted), for the message of a body over the limit: read only then. */
  readonly label: string;
  /** Masks the key and the call's purchase codes: read only to fail. */
  readonly scrub: Scrub;
}

/**
 * Sends one attempt and resolves only once its body is read. ky's timeout then covers the body, and a stalled
 * body is retried like a stalled header; the SDK gets an answer already read (`readText`).
 *
 * Bodies are read as they stream in, after decompression: a 2xx body past `maxBytes` fails the attempt with
 * `ResponseTooLargeError`, and an error answer's body stops a margin past `ERROR_BODY_BYTES`. The attempt's signal
 * (the caller's abort, ky's timeout) ends the attempt even when `send` or its body never heed it.
 *
 * A success is handed on as it came, its body used: nothing after ky reads it, and rebuilding it costs every
 * call. An error answer is rebuilt, because ky reads its body for `HTTPError.data`; so is every answer when
 * `rebuild` says an `afterResponse` hook will clone it.
 */
export async function readAttempt(
  send: Send,
  request: Request,
  init: RequestInit | undefined,
  reading: Reading,
  heedsSignal: boolean,
): Promise<Response> {
  const { rebuild, maxBytes } = reading.init;
  // The platform's fetch ends the request and its body on the signal itself; any other `send` is made to.
  const signal = heedsSignal ? undefined : request.signal;
  let response: Response;
  let body: Body;
  try {
    response = await (signal ? abortable(send(request, init), signal) : send(request, init));
    // A browser's opaque redirect has no status or body to read; it is mapped as a redirect.
    if (response.type === 'opaqueredirect') return response;
    if (response.status > 599) throw unknownStatus(response, reading);
    // An error body is cut at ERROR_BODY_BYTES once scrubbed: read a margin past it (see SCRUB_MARGIN).
    const cap = response.ok ? maxBytes : Math.min(maxBytes, ERROR_BODY_BYTES + SCRUB_MARGIN);
    body = await readCapped(response, cap, signal);
  } catch (thrown) {
    // A fetch that rejects with a string (or any value but an object) fails like one that rejects with an Error.
    const error =
      typeof thrown === 'object' && thrown !== null
        ? thrown
        : new TypeError('fetch failed', { cause: thrown });
    // Marked so the retry rules count a TypeError here as a network error, and the mapper as no answer.
    sendFailures.set(error, request);
    throw error;
  }
  if (body.over && response.ok) {
    throw new ResponseTooLargeError({
      message:
        `${reading.label} answered ${response.status} with a body larger than the ${maxBytes}-byte ` +
        'limit (maxResponseBytes); the SDK stopped reading it.',
      status: response.status,
      limit: maxBytes,
    });
  }
  const text = UTF8.decode(body.bytes);
  const answer = response.ok && !rebuild ? response : rebuilt(response, body.bytes);
  if (body.over) markCut(answer);
  texts.set(answer, text);
  return answer;
}

/**
 * An answer whose status HTTP does not define (600 to 999: fetch passes them on, no Response can be built with one):
 * an APIError of ours, not retried, its body left unread.
 */
function unknownStatus(response: Response, reading: Reading): APIError {
  void response.body?.cancel().catch(() => {});
  return new APIError({
    status: response.status,
    headers: scrubHeaders(response.headers, reading.scrub),
    body: undefined,
    message:
      `${reading.label} was answered with status ${response.status}, which HTTP does not define (final statuses ` +
      'run from 200 to 599); the SDK did not read the body. A proxy or the server is broken.',
  });
}

/** A body as read: its bytes up to the cap, and whether there was more. */
interface Body {
  bytes: Uint8Array<ArrayBuffer>;
  over: boolean;
}

/**
 * Reads at most `cap` bytes of the body, then cancels the rest: an endless or decompressing body costs no more
 * than the cap. An abort cancels the read too, whether or not the stream heeds a cancel.
 */
async function readCapped(response: Response, cap: number, signal: AbortSignal | undefined): Promise<Body> {
  const stream = response.body;
  if (stream === null) return { bytes: new Uint8Array(0), over: false };
  const reader = stream.getReader();
  // Cancelling through the reader settles a pending read at once, even for a source that ignores the cancel.
  const stop = () => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener('abort', stop, { once: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  let over = false;
  try {
    for (;;) {
      if (signal?.aborted) throw signal.reason;
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.length > cap) {
        chunks.push(value.subarray(0, cap - size));
        size = cap;
        over = true;
        void reader.cancel().catch(() => {});
        break;
      }
      chunks.push(value);
      size += value.length;
    }
    if (signal?.aborted) throw signal.reason;
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  return { bytes: joined(chunks, size), over };
}

function joined(chunks: Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  // Most answers arrive in one piece: it is used as is.
  const [only] = chunks;
  if (chunks.length === 1 && only !== undefined && only.buffer instanceof ArrayBuffer)
    return only as Uint8Array<ArrayBuffer>;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/** `promise`, or the signal's reason as soon as it aborts: a `send` (or a hook) that ignores its signal still ends. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', stop);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', stop);
        reject(error);
      },
    );
  });
}

/**
 * The answer again, from its bytes (not its text: no second UTF-8 encoding of the body). A reason phrase no
 * Response can carry is left out of it and kept aside for messages (`keepPhrase`): the status decides, the phrase is
 * only text.
 */
function rebuilt(response: Response, bytes: Uint8Array<ArrayBuffer>): Response {
  const phrase = response.statusText;
  const fits = PHRASE.test(phrase);
  const answer = new Response(bytes.length === 0 || NULL_BODY.has(response.status) ? null : bytes, {
    status: response.status,
    statusText: fits ? phrase : '',
    headers: response.headers,
  });
  if (!fits) keepPhrase(answer, phrase);
  // The login-redirect check reads these; a Response built here has neither.
  if (response.redirected) Object.defineProperty(answer, 'redirected', { value: true });
  if (response.url) Object.defineProperty(answer, 'url', { value: response.url });
  return answer;
}
