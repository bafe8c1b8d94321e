import type { Scrub } from '../core/errors/index.js';
import {
  AccountRequestError,
  type Answer,
  type APIErrorInit,
  advise,
  CatalogError,
  type CatalogErrorCode,
  ERROR_BODY_BYTES,
  InvalidPurchaseCodeError,
  ItemNotFoundError,
  keyAdvice,
  MAX_JSON_DEPTH,
  NoItemsError,
  scrubHeaders,
  scrubParsed,
} from '../core/errors/index.js';
import { type CatalogCondition, catalogStatus, matchCatalogMessage } from './arabic.js';

type CatalogErrorClass = new (init: APIErrorInit & { code: CatalogErrorCode; msg: string }) => CatalogError;

const CONDITIONS: Readonly<Record<CatalogCondition, { type: CatalogErrorClass; text: string }>> = {
  request_unsuccessful: { type: AccountRequestError, text: 'the request was unsuccessful' },
  no_items: { type: NoItemsError, text: 'no items found' },
  item_not_found: { type: ItemNotFoundError, text: 'item not found' },
  invalid_purchase_code: { type: InvalidPurchaseCodeError, text: 'invalid purchase code' },
};

/** The condition each endpoint reports, and the HTTP status it reports it with (REAL-SERVERS.md). */
const ENDPOINT_CONDITIONS: Readonly<Record<string, { condition: CatalogCondition; status: number }>> = {
  'account/details': { condition: 'request_unsuccessful', status: 401 },
  'items/all': { condition: 'no_items', status: 404 },
  'items/item': { condition: 'item_not_found', status: 404 },
  'purchases/validation': { condition: 'invalid_purchase_code', status: 404 },
};

/**
 * What the answers a wrong key also gets (REAL-SERVERS.md: a bad key on the items and purchase endpoints is a 404
 * "no items", "item not found" or "invalid purchase code": every condition but account details') add, until a
 * success has shown the key is good.
 */
const WRONG_KEY_ADVICE =
  'A wrong API key gets the same answer: check the key with `catalog.verifyCredentials()`.';

const SUCCESS_KEYS = ['data', 'items', 'item'];
const MAX_QUOTED = 200;

/**
 * Reads the Catalog error envelope `{ status: 'خطأ' | 'error', msg }` out of any answer, 2xx included, and
 * builds the matching `CatalogError` subclass. `undefined` when the answer is not an error envelope.
 * `msg` is kept verbatim, except that `scrub` masks the API key (and a purchase code), should a server echo them;
 * a `msg` or body longer than `ERROR_BODY_BYTES` is cut there, like any error body. The envelope and its condition
 * are read from `raw` (the answer unscrubbed, where the transport gives it), so that a short key or code masked in
 * the body cannot hide them.
 */
export function readCatalogError(
  answer: Answer,
  path: string,
  scrub: Scrub = (text) => text,
  raw: Answer = answer,
): CatalogError | undefined {
  // Recognised by the body as sent; everything kept is scrubbed here.
  const { body } = raw;
  if (!raw.isJson || typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const envelope = body as Record<string, unknown>;
  if (!isErrorEnvelope(envelope)) return undefined;
  const sent = typeof envelope.msg === 'string' ? envelope.msg : '';
  const msg = scrub(sent);
  const condition = matchCatalogMessage(sent) ?? endpointCondition(path, answer.status);
  const init = {
    status: answer.status,
    headers: scrubHeaders(answer.headers, scrub),
    body: scrubBody(body, scrub),
    msg: cut(msg, 'msg'),
  };
  if (condition) {
    const { type, text } = CONDITIONS[condition];
    // A 401 (account details' answer to a wrong key) is the key refused: the hint every 401 of the SDK ends with.
    const advice =
      answer.status === 401
        ? keyAdvice(answer.facts)
        : condition !== 'request_unsuccessful' && !answer.facts?.keyAccepted
          ? WRONG_KEY_ADVICE
          : undefined;
    return new type({ ...init, code: condition, message: advise(describe(answer, text, msg), advice) });
  }
  const code: CatalogErrorCode = answer.status === 400 ? 'bad_request' : 'unknown';
  const text = code === 'bad_request' ? 'the request was rejected' : 'the server reported an error';
  return new CatalogError({ ...init, code, message: describe(answer, text, msg) });
}

/**
 * An error envelope says `خطأ` / `error`; one whose `status` is a word we do not know still counts when it
 * carries a `msg` and none of the success keys (an admin may have translated the word).
 */
function isErrorEnvelope(envelope: Record<string, unknown>): boolean {
  const status = catalogStatus(envelope.status);
  if (status === 'error') return true;
  if (status === 'success') return false;
  return typeof envelope.msg === 'string' && !SUCCESS_KEYS.some((name) => name in envelope);
}

function endpointCondition(path: string, status: number): CatalogCondition | undefined {
  const expected = ENDPOINT_CONDITIONS[path];
  return expected && expected.status === status ? expected.condition : undefined;
}

function describe(answer: Answer, text: string, msg: string): string {
  const quoted = msg.length > MAX_QUOTED ? `${msg.slice(0, MAX_QUOTED)}…` : msg;
  const said = msg === '' ? 'the server gave no message' : `server said ${JSON.stringify(quoted)}`;
  return `${answer.request}: ${text} (HTTP ${answer.status}, ${said})`;
}

/**
 * A 2xx body is not scrubbed by core (only error answers are): do it here before it lands on an error. One longer
 * than `ERROR_BODY_BYTES` as JSON is cut there, as the transport cuts any other error body.
 */
function scrubBody(body: unknown, scrub: Scrub): unknown {
  const kept = scrubParsed(body, scrub);
  if (kept === undefined) return `(body not kept: JSON nested more than ${MAX_JSON_DEPTH} levels deep)`;
  const json = JSON.stringify(kept);
  return json.length > ERROR_BODY_BYTES ? cut(json, 'body') : kept;
}

/** `text`, or its first `ERROR_BODY_BYTES` characters marked as cut, like an error body over the limit. */
function cut(text: string, what: 'body' | 'msg'): string {
  if (text.length <= ERROR_BODY_BYTES) return text;
  return `${text.slice(0, ERROR_BODY_BYTES)}… [cut: the ${what} was longer than ${ERROR_BODY_BYTES} bytes]`;
}
