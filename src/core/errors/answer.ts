import { advise, type ClientFacts, keyAdvice, rootAdvice } from './advice.js';
import {
  APIError,
  type APIErrorInit,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from './classes.js';
import type { Scrub } from './redact.js';
import { MAX_JSON_DEPTH, scrubParsed } from './scrub-body.js';
import { retryAfterSeconds } from './wait.js';

/** What a server answer looked like, as every error mapper sees it. */
export interface Answer {
  status: number;
  statusText: string;
  headers: Headers;
  /** Parsed JSON, or the raw text when it does not parse, or `undefined` when empty. */
  body: unknown;
  /** `true` when `body` came from JSON. */
  isJson: boolean;
  /** `METHOD url` of the request, the full URL with the key shown as `***`. */
  request: string;
  /** Why a JSON body is kept as text: it was cut short (`cut`), or nests past `MAX_JSON_DEPTH`. */
  kept?: 'cut' | 'too deep' | undefined;
  /** What the client that asked was built with, for a message's advice (where the key came from, a wrong URL). */
  readonly facts?: ClientFacts | undefined;
}

/** Extra data an API folder read out of an error body. */
export interface ErrorDetail {
  /** The server's own message, verbatim. */
  detail?: string;
  fieldErrors?: Record<string, string[]>;
}

/**
 * Most bytes of an error answer's body the SDK reads and keeps on the error: enough for any message or field
 * list the APIs send, and a 200 MB debug page costs no more than this.
 */
export const ERROR_BODY_BYTES = 64 * 1024;

/**
 * Bytes read past `ERROR_BODY_BYTES` so a secret straddling the cut is scrubbed whole before the text is cut: more
 * than any form of a key or purchase code of up to 900 characters takes (URL-encoded twice: 9 bytes a character).
 */
export const SCRUB_MARGIN = 8 * 1024;

const cuts = new WeakSet<Response>();

/** Notes that only the first `ERROR_BODY_BYTES` of `response`'s body were read (the transport cut it there). */
export function markCut(response: Response): void {
  cuts.add(response);
}

/** Whether the body behind `response` was longer than `ERROR_BODY_BYTES` and only its start was read. */
export function bodyCut(response: Response): boolean {
  return cuts.has(response);
}

const phrases = new WeakMap<Response, string>();

/**
 * Notes the reason phrase the server sent for `response`, rebuilt without it: a `Response` cannot carry a phrase
 * beyond Latin-1 or with a control character (`503 الخدمة غير متوفرة`), which fetch passes on as it came.
 */
export function keepPhrase(response: Response, phrase: string): void {
  phrases.set(response, phrase);
}

/** The reason phrase the server sent: the one noted by `keepPhrase`, else the answer's `statusText`. */
export function phraseOf(response: Response): string {
  return phrases.get(response) ?? response.statusText;
}

const SNIPPET = 120;

/** A short, single-line description of a body that was not the JSON we expected. */
export function describeBody(answer: Pick<Answer, 'body' | 'isJson' | 'headers' | 'kept'>): string {
  const { body, kept } = answer;
  if (body === undefined || body === '') return 'the body was empty';
  if (answer.isJson) return `unexpected JSON body: ${truncate(JSON.stringify(body))}`;
  const type = answer.headers.get('content-type')?.split(';')[0]?.trim() || 'no content type';
  const text = String(body);
  if (kept === 'too deep')
    return `the body was JSON nested more than ${MAX_JSON_DEPTH} levels deep (${type}, ${text.length} chars)`;
  const kind = /^\s*</.test(text) ? 'an HTML page' : 'text that is not JSON';
  const size = kept === 'cut' ? `cut at ${ERROR_BODY_BYTES} bytes` : `${text.length} chars`;
  return `the body was ${kind} (${type}, ${size}): ${truncate(text)}`;
}

function truncate(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET ? `${flat.slice(0, SNIPPET)}…` : flat;
}

/**
 * Builds the status class for a non-2xx answer, with a message that reads on its own: a 401 says where the key came
 * from, a 404 whose URL repeats the API path says what the site root should be.
 */
export function statusError(answer: Answer, detail: ErrorDetail = {}): APIError {
  const { status } = answer;
  const what = detail.detail !== undefined ? JSON.stringify(detail.detail) : describeBody(answer);
  const fields = detail.fieldErrors ? formatFieldErrors(detail.fieldErrors) : '';
  const said = `${answer.request} failed with ${status}${answer.statusText ? ` ${answer.statusText}` : ''}: ${what}${fields}`;
  const advice =
    status === 401 ? keyAdvice(answer.facts) : status === 404 ? rootAdvice(answer.facts) : undefined;
  const init: APIErrorInit = {
    status,
    headers: answer.headers,
    body: answer.body,
    message: advise(said, advice),
  };
  if (status === 400) return new BadRequestError(init);
  if (status === 401) return new AuthenticationError(init);
  if (status === 403) return new PermissionDeniedError(init);
  if (status === 404) return new NotFoundError(init);
  if (status === 422) return new UnprocessableEntityError({ ...init, fieldErrors: detail.fieldErrors ?? {} });
  if (status === 429) return new RateLimitError({ ...init, retryAfter: retryAfterSeconds(answer.headers) });
  if (status === 503)
    return new InternalServerError({ ...init, retryAfter: retryAfterSeconds(answer.headers) });
  if (status >= 500) return new InternalServerError(init);
  return new APIError(init);
}

function formatFieldErrors(fieldErrors: Record<string, string[]>): string {
  const parts = Object.entries(fieldErrors).map(([field, messages]) => `${field}: ${messages.join(' ')}`);
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}

/** An Answer as `decodeAnswer` makes it: its `request` is read from what names the call only when asked. */
class Decoded implements Answer {
  isJson = false;
  kept: Answer['kept'] = undefined;

  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly headers: Headers,
    public body: unknown,
    readonly named: string | Asking,
  ) {}

  get request(): string {
    return typeof this.named === 'string' ? this.named : this.named.label;
  }

  get facts(): ClientFacts | undefined {
    return typeof this.named === 'string' ? undefined : this.named.facts;
  }
}

/** What asked for an answer: its `label` (`METHOD url`) and its client's facts, read when a message needs them. */
export interface Asking {
  readonly label: string;
  readonly facts?: ClientFacts | undefined;
}

/**
 * Reads a body once into an Answer: parsed JSON when it parses, else the raw text. When `scrub` is given (the
 * answer goes on an error), the key is masked in the raw text, in every parsed string and key (the text is parsed as
 * it came) and in the status line;
 * a body longer than `ERROR_BODY_BYTES` keeps only its start, and one nested too deep stays text. `request` names
 * the call (`METHOD url`), or is what does: its `label` and `facts` are read only when a message asks for them.
 */
export function decodeAnswer(
  response: Response,
  text: string,
  request: string | Asking,
  scrub?: Scrub,
): Answer {
  const cut = scrub !== undefined && (bodyCut(response) || text.length > ERROR_BODY_BYTES);
  // Scrubbed before it is cut, so no secret is left half-shown at the cut.
  const raw =
    scrub === undefined
      ? text
      : cut
        ? scrub(text.slice(0, ERROR_BODY_BYTES + SCRUB_MARGIN)).slice(0, ERROR_BODY_BYTES)
        : scrub(text);
  const answer = new Decoded(
    response.status,
    scrub === undefined ? phraseOf(response) : scrub(phraseOf(response)),
    scrub === undefined ? response.headers : scrubHeaders(response.headers, scrub),
    raw === '' ? undefined : raw,
    request,
  );
  if (cut) {
    // A cut body does not parse; what is kept says that it was cut.
    answer.body = `${raw}… [cut: the body was longer than ${ERROR_BODY_BYTES} bytes]`;
    answer.kept = 'cut';
    return answer;
  }
  // A test, not raw.trim(): trimming copies the whole body first.
  if (!/\S/.test(raw)) return answer;
  let parsed: unknown;
  try {
    // The text as sent, then every parsed string scrubbed: masking a short secret in the text first could break the
    // JSON around it (a purchase code "5" inside `\u0635`), and the answer would read as not JSON.
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: the raw text stays in `body`.
    return answer;
  }
  const body = scrub === undefined ? parsed : scrubParsed(parsed, scrub);
  if (body === undefined) {
    answer.kept = 'too deep';
    return answer;
  }
  answer.body = body;
  answer.isJson = true;
  return answer;
}

/**
 * The headers with the key masked in every value: an error keeps its answer's headers, and util.inspect shows
 * them, so a redirect's `Location: …?api_key=…` or a proxy echoing `Authorization` must not carry the key along.
 */
export function scrubHeaders(headers: Headers, scrub: Scrub): Headers {
  let clean: Headers | undefined;
  headers.forEach((value, name) => {
    const masked = scrub(value);
    if (masked === value) return;
    clean ??= new Headers(headers);
    clean.set(name, masked);
  });
  return clean ?? headers;
}
