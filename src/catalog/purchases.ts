import type { BulkOptions, ValidateManyReport } from '../bulk/index.js';
import {
  checkKeys,
  InvalidParamsError,
  kindOf,
  maskCode,
  ResponseValidationError,
  shown,
} from '../core/errors/index.js';
import type {
  HttpClient,
  OperationTelemetry,
  RequestOptions,
  WithResponse,
} from '../core/transport/index.js';
import { APIPromise, checkSent, deferred, positive, REQUEST_OPTIONS } from '../core/transport/index.js';
import type { PurchaseCache } from './cache.js';
import { PurchaseAnswer } from './responses.js';
import type { Purchase } from './schemas.js';

/** Options of one validation: the request options, and `cache: false` to ask the server past a fresh entry. */
export interface ValidateOptions extends RequestOptions {
  /** `false`: ask the server even when the cache holds a fresh entry, and refresh it. No effect without a cache. */
  cache?: false | undefined;
}

const VALIDATE_OPTIONS = [...REQUEST_OPTIONS, 'cache'];

/** `catalog.purchases`: purchase-code validation. */
export class Purchases {
  readonly #http: HttpClient;
  readonly #cache: PurchaseCache | undefined;
  readonly #totalTimeout: number | undefined;

  /** Built by `CatalogClient`; not meant to be constructed directly. `totalTimeout`: the client's. */
  constructor(http: HttpClient, cache?: PurchaseCache, totalTimeout?: number) {
    this.#http = http;
    this.#cache = cache;
    this.#totalTimeout = totalTimeout;
  }

  /**
   * Validates a purchase code: `POST /api/purchases/validation` with a JSON body (the key rides in the body,
   * out of URL logs). Surrounding whitespace is trimmed off the code.
   *
   * Letter case does not matter: the marketplace matches a code in any case (a MySQL lookup, collation
   * `utf8mb4_unicode_ci`) and answers with the spelling it stored; a refunded code is refused in every case. The
   * result's `purchase_code` is the code as given here (trimmed), not the server's spelling: so it is the same from
   * the server, from the cache (whose entries keep no code) and from a request shared with another spelling. Compare
   * codes you keep without regard to case.
   * @throws {InvalidParamsError} before any request, when `purchaseCode` is not a non-empty string, or `options` has
   * an unknown key.
   * @throws {InvalidPurchaseCodeError} when the code is not valid (`كود الشراء غير صحيح`).
   * @throws {ResponseValidationError} when the answer is about another purchase code.
   * With the client's `cache`, a fresh entry answers without a request (`withResponse().cache` says `hit`), and a
   * transient failure is answered by an entry younger than `staleIfError` (`stale`); an invalid code's entry goes.
   * Concurrent validations of a code, in any case, share one request and one entry; each keeps its own `signal` and
   * `totalTimeout`.
   */
  validate(purchaseCode: string, options?: ValidateOptions): APIPromise<Purchase> {
    return deferred(() => {
      const purchase_code = code(purchaseCode);
      checkKeys(options, VALIDATE_OPTIONS, 'purchases.validate');
      // `cache` is not a transport option: the transport refuses a key it does not know.
      const { cache, ...request } = options ?? {};
      if (cache !== undefined && cache !== false) {
        throw new InvalidParamsError(
          `cache for one validation can only be false; got ${shown(cache)}.`,
          'cache',
        );
      }
      const ask = (given: RequestOptions | undefined, within?: OperationTelemetry) =>
        this.#http.request('POST', 'purchases/validation', PurchaseAnswer, {
          op: 'purchases.validate',
          within,
          body: { purchase_code },
          options: given,
          // Errors and log lines show the code by its last four characters only.
          secrets: [purchase_code],
          accept: aboutCode(purchase_code),
        });
      // The caller's spelling of the code, whichever answered: the server (its stored spelling) or the cache.
      const theirs = (result: WithResponse<Purchase>): WithResponse<Purchase> => ({
        ...result,
        data: { ...result.data, purchase_code },
      });
      const store = this.#cache;
      if (store === undefined) return new APIPromise(ask(request).withResponse().then(theirs));
      const http = this.#http;
      const { signal, totalTimeout } = request;
      // A hit sends nothing: what the transport checks before sending is checked here, with its messages.
      checkSent(request);
      if (totalTimeout !== undefined) positive(totalTimeout, 'totalTimeout');
      // One operation per validation, answered by the cache or by the request made under it.
      const op = http.operation('purchases.validate', 'POST', 'purchases/validation');
      return new APIPromise(
        store
          .validate(purchase_code, {
            // The shared request: the first caller's options, with the flight's signal and deadline; its attempts
            // go under the first caller's operation.
            ask: (flight) =>
              ask(
                {
                  ...request,
                  signal: flight.signal,
                  totalTimeout: flight.totalTimeout,
                  ...(flight.quick ? { maxRetries: 0 } : {}),
                },
                op,
              ).withResponse(),
            fresh: cache === false,
            signal,
            total: totalTimeout ?? this.#totalTimeout,
            log: http.log,
            label: () => `POST ${http.facts.apiRoot}/purchases/validation`,
            paused: () => (http.rateLimit.pausedUntil?.getTime() ?? 0) > Date.now(),
            op,
          })
          .then(theirs),
      );
    });
  }

  /**
   * Validates every code, at most `concurrency` at once through the client's throttle (and its `cache`): one entry
   * per code, in order — `valid` (with the purchase), `invalid` (the server refused it), `failed` (no answer said
   * either after `attempts` tries through transient failures) or `skipped` (aborted first) — and counts by error
   * class (`errors`).
   * @example
   * const audit = await catalog.purchases.validateMany(codes);
   * console.log(`${audit.valid} valid, ${audit.invalid} invalid, ${audit.failed} failed`);
   */
  validateMany(codes: readonly string[], options?: BulkOptions): Promise<ValidateManyReport<Purchase>> {
    return import('../bulk/index.js').then((jobs) =>
      jobs.validateMany((code, request) => this.validate(code, request), codes, options),
    );
  }
}

/**
 * Fails an answer about another code than `asked` (a cache or proxy that ignores the body would serve another
 * caller's purchase). The case may differ: a MySQL lookup matches a code in any case and sends the stored one.
 */
function aboutCode(asked: string) {
  return (purchase: Purchase, call: { readonly label: string }, response: Response): void => {
    const sent = purchase.purchase_code;
    if (sent.trim().toLowerCase() === asked.toLowerCase()) return;
    const theirs = maskCode(sent);
    const ours = maskCode(asked);
    throw new ResponseValidationError({
      message: `${call.label}: the answer is about purchase code ${theirs}, not ${ours}.`,
      issues: [{ path: ['purchase_code'], message: `expected ${ours}, got ${theirs}` }],
      body: { ...purchase, purchase_code: theirs },
      status: response.status,
    });
  };
}

function code(value: unknown): string {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  throw new InvalidParamsError(
    // Only an empty string is quoted: any other value could be a whole code.
    `purchaseCode must be a non-empty string; got ${typeof value === 'string' ? shown(value) : kindOf(value)}.`,
    'purchaseCode',
  );
}
