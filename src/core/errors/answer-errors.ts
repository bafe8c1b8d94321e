import { advise, keyAdvice } from './advice.js';
import { type Answer, describeBody } from './answer.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  AuthenticationError,
  ContentPlatformError,
  InternalServerError,
  RateLimitError,
  ResponseValidationError,
} from './classes.js';
import { redactUrl, type Scrub } from './redact.js';

const MAX_LISTED_ISSUES = 3;
// A body can fail in 100 000 places; the error keeps the first ones and says how many more there were.
const MAX_KEPT_ISSUES = 20;

/** The system error code behind a failed fetch (`ECONNREFUSED`, `ECONNRESET`…), if there is one. */
export function connectionCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A 2xx answer that is not JSON. After a redirect to a login page it is the server refusing the key
 * (it redirects instead of answering 401 when the Accept header was lost on the way).
 */
export function notJsonError(answer: Answer, response: Response): ContentPlatformError {
  if (response.redirected && /\/login\/?$/.test(safePath(response.url))) {
    return new AuthenticationError({
      status: 401,
      headers: answer.headers,
      body: answer.body,
      message: loginMessage(answer),
    });
  }
  return new ResponseValidationError({
    message: `${answer.request} answered ${answer.status} but not with JSON: ${describeBody(answer)}`,
    issues: [],
    body: answer.body,
    status: answer.status,
  });
}

/** `error` when it is one of ours; anything else thrown while reading an answer becomes `unreadableError`. */
export function ownError(error: unknown, label: string, status: number, scrub: Scrub): ContentPlatformError {
  return error instanceof ContentPlatformError ? error : unreadableError(label, status, error, scrub);
}

/**
 * An answer the SDK failed to read or describe (a case no rule above foresaw): still one of our errors, never a
 * raw `RangeError`, with what went wrong named and the key scrubbed from it.
 */
export function unreadableError(
  label: string,
  status: number,
  error: unknown,
  scrub: Scrub,
): ResponseValidationError {
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new ResponseValidationError({
    message: `${label} answered ${status} with a body the SDK could not read (${scrub(reason)}).`,
    issues: [],
    body: undefined,
    status,
  });
}

/** What the error keeps of a zod issue; a union's issue also has one list of issues per branch. */
interface Issue {
  path: PropertyKey[];
  message: string;
  code?: string;
  errors?: readonly (readonly Issue[])[];
}

/**
 * A 2xx JSON answer that does not fit its schema; names the first few offending fields. Each issue's path and
 * message pass through `scrub`: a body keyed by a secret (an index-keyed list, links keyed by the key) puts it there.
 */
export function validationError(
  answer: Answer,
  zodIssues: readonly Issue[],
  scrub: Scrub,
): ResponseValidationError {
  const all = zodIssues.flatMap((issue) => unwrapUnion(issue, []));
  const issues = all.slice(0, MAX_KEPT_ISSUES).map(({ path, message }) => ({
    path: path.map((key) => (typeof key === 'string' ? scrub(key) : key)),
    message: scrub(message),
  }));
  const listed = issues
    .slice(0, MAX_LISTED_ISSUES)
    .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
  const kept = all.length > MAX_KEPT_ISSUES ? `; \`issues\` keeps the first ${MAX_KEPT_ISSUES}` : '';
  const more = all.length > MAX_LISTED_ISSUES ? ` (and ${all.length - MAX_LISTED_ISSUES} more${kept})` : '';
  return new ResponseValidationError({
    message: `${answer.request} answered ${answer.status} with a body of an unexpected shape: ${listed}${more}`,
    issues: issues.map((issue) => ({ path: [...issue.path], message: issue.message })),
    body: answer.body,
    status: answer.status,
  });
}

/** A 3xx answer (or a browser's opaque redirect), which the SDK never follows. */
export function isRedirect(response: Response): boolean {
  return (response.status >= 300 && response.status < 400) || response.type === 'opaqueredirect';
}

/**
 * A redirect is not followed, so the key never travels to wherever it points. A redirect to a login page is the
 * server refusing the key; any other one is reported with its target so the base URL can be fixed.
 */
export function redirectError(answer: Answer, response: Response): APIError {
  // From the scrubbed answer, and with any api_key parameter masked: a redirect may echo the key in its URL.
  const location = redactUrl(answer.headers.get('location') ?? '');
  const init = { status: answer.status, headers: answer.headers, body: answer.body };
  if (/\/login\/?$/.test(safePath(location, response.url))) {
    return new AuthenticationError({ ...init, message: loginMessage(answer) });
  }
  return new APIError({
    ...init,
    message:
      `${answer.request} was answered with a ${answer.status} redirect to ${JSON.stringify(location)}, which the SDK ` +
      'does not follow (it would carry the API key along). Check the base URL.',
  });
}

/**
 * A union that failed says only "Invalid input" at its own path. Its branch that got deepest into the body (an
 * entity under `data` rather than a bare entity) names the field that is actually wrong.
 */
function unwrapUnion(issue: Issue, prefix: PropertyKey[]): { path: PropertyKey[]; message: string }[] {
  const path = [...prefix, ...issue.path];
  const branches = issue.code === 'invalid_union' ? (issue.errors ?? []).filter((b) => b.length > 0) : [];
  if (branches.length === 0) return [{ path, message: issue.message }];
  // A loop, not Math.max(...): a branch of 100 000 issues as arguments overflows the stack.
  const depth = (branch: readonly Issue[]) => branch.reduce((most, i) => Math.max(most, i.path.length), 0);
  const best = branches.reduce((a, b) =>
    depth(b) > depth(a) || (depth(b) === depth(a) && b.length < a.length) ? b : a,
  );
  return best.flatMap((inner) => unwrapUnion(inner, path));
}

function loginMessage(answer: Answer): string {
  const said =
    `${answer.request} was redirected to a login page: the server rejected the API key ` +
    '(or a proxy dropped the Accept: application/json header).';
  return advise(said, keyAdvice(answer.facts));
}

// A relative Location from a custom fetch (a Response built in process has no url) still resolves to its path.
const ANY_ORIGIN = 'http://relative.invalid';

function safePath(url: string, base?: string): string {
  try {
    return new URL(url, base || ANY_ORIGIN).pathname;
  } catch {
    return '';
  }
}

/** What a connection error says beyond its cause: whether a request left, and whether it could run twice. */
export interface LostCall {
  /** Some attempt left and got no answer: the server may have acted on it. */
  mayHaveSucceeded: boolean;
  /** The method is a create (not safe to send twice): the message says to check before sending it again. */
  create: boolean;
}

/**
 * No answer: names the system code (ECONNREFUSED…) when there is one, else the (scrubbed) reason, and keeps
 * fetch's error as `cause`, scrubbed too. Says when the server may have acted on it.
 */
export function connectionError(
  label: string,
  cause: unknown,
  scrub: Scrub,
  lost: LostCall,
): APIConnectionError {
  const code = connectionCode(cause);
  const reason = code ?? scrub(String((cause as Error)?.message ?? cause));
  const what = lost.mayHaveSucceeded
    ? `the connection was lost before an answer (${reason})`
    : `could not reach the server (${reason})`;
  const advice =
    lost.mayHaveSucceeded && lost.create
      ? ' The server may have acted on it: check before sending it again.'
      : '';
  return new APIConnectionError(`${label} failed: ${what}.${advice}`, {
    cause: scrubbedError(cause, scrub),
    code,
    mayHaveSucceeded: lost.mayHaveSucceeded,
  });
}

/**
 * What a caller may be shown of a failure's cause: a copy of the error with its name, message, stack and own text,
 * number and boolean fields scrubbed (other fields dropped), its causes the same way down to the fourth; any other
 * value thrown becomes an Error of its scrubbed text. A custom fetch may put the URL (a Catalog key) anywhere in what
 * it throws: an own `url` field, a string rejection, a cause five levels down.
 */
export function scrubbedError(error: unknown, scrub: Scrub, depth = 0): Error | undefined {
  if (error === undefined || depth > 4) return undefined;
  if (!(error instanceof Error)) return new Error(scrub(textOf(error)));
  const cause = scrubbedError(error.cause, scrub, depth + 1);
  // A built-in class is kept (a TypeError stays one); any other class's getters could show what it holds.
  const Class = BUILT_IN.find((kind) => Object.getPrototypeOf(error) === kind.prototype) ?? Error;
  const copy = new Class(scrub(textOf(error.message)), cause === undefined ? undefined : { cause });
  copy.name = scrub(textOf(error.name));
  if (error.stack !== undefined) copy.stack = scrub(textOf(error.stack));
  for (const [key, value] of Object.entries(error)) {
    if (key === 'cause') continue;
    if (typeof value === 'string') Object.assign(copy, { [key]: scrub(value) });
    else if (typeof value === 'number' || typeof value === 'boolean') Object.assign(copy, { [key]: value });
  }
  return copy;
}

const BUILT_IN = [Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError];

/** `String(value)`, or what kind of value it is when even that throws. */
function textOf(value: unknown): string {
  try {
    return String(value);
  } catch {
    return `a value of type ${typeof value}`;
  }
}

/**
 * The error of a create (not idempotent) answered 502 or 504: a gateway gave up waiting on the server behind it,
 * which may have created the record all the same. That error with `mayHaveSucceeded: true`, and a message that
 * says so; any other error is returned as it is.
 */
export function createAnswered(error: APIError): APIError {
  if (!(error instanceof InternalServerError) || (error.status !== 502 && error.status !== 504)) return error;
  return new InternalServerError({
    status: error.status,
    headers: error.headers,
    body: error.body,
    message:
      `${error.message}. The create may have succeeded: a gateway answered ${error.status}, and the server ` +
      'behind it may have acted on it; check before sending it again.',
    retryAfter: error.retryAfter,
    mayHaveSucceeded: true,
  });
}

/** No answer within the timeout; `cause` is the error of the last answer, when an answer came before. */
export function timeoutError(
  label: string,
  cause: APIError | undefined,
  lost: boolean,
): APIConnectionTimeoutError {
  return new APIConnectionTimeoutError(`${label} timed out: no answer within the timeout.`, {
    cause,
    mayHaveSucceeded: lost,
  });
}

/**
 * A call failed unsent because a rate-limit pause (a 429 another client or process met on the same key) has
 * `waitMs` to run, past the call's `maxRetryAfter` (`maxMs`): what the server would answer, without asking it.
 */
export function pausedError(label: string, waitMs: number, maxMs: number): RateLimitError {
  const seconds = Math.ceil(waitMs / 1000);
  return new RateLimitError({
    status: 429,
    headers: new Headers({ 'retry-after': String(seconds) }),
    body: undefined,
    message: `${label} was not sent: a 429 paused this key for ${seconds} s more, past maxRetryAfter (${Math.round(maxMs / 1000)} s).`,
    retryAfter: seconds,
  });
}
