// The purchase cache itself: loaded by the Catalog client on its first validation with a `cache` (see cache.ts), so
// an application that uses no cache, or validates nothing, loads none of it.
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  InvalidPurchaseCodeError,
  timeoutError,
} from '../core/errors/index.js';
import { WaitQueue, waitInQueue } from '../core/throttle/index.js';
import type { Log, WithResponse } from '../core/transport/index.js';
import type { CacheSettings, CacheSnapshot, CacheState, CacheStore, Caller } from './cache-types.js';
import { type Purchase, PurchaseSchema } from './schemas.js';

/** What a store holds: when it was written, the purchase as JSON without its code, and a MAC binding both to the name. */
interface Entry {
  at: number;
  purchase: string;
  mac?: string;
}

/** A shared request and the callers waiting for it. */
interface Flight {
  answer: Promise<WithResponse<Purchase>>;
  waiting: WaitQueue<{ grant(): void }>;
  stop: AbortController;
  /** When its deadline passes (`performance.now()` time; Infinity: none). */
  ends: number;
  /** Sent without retries (its first caller had a stale entry at hand). */
  quick: boolean;
  /** The server's answer is in (or the flight failed): waiting callers are granted, newcomers at once. */
  settled?: boolean;
  failure?: unknown;
  /** The claim on the refresh, and when the request went (`performance.now()`; NEVER: not yet). */
  held: { claim: boolean; sent: number };
  /** The server's valid answer, for the callers who joined: theirs before its entry is written. */
  early?: WithResponse<Purchase>;
}

// A store that does not answer within this is treated as a miss, and the call goes on.
const STORE_TIMEOUT_MS = 1_000;
// After a store failure the store is skipped this long, then one operation tries it again.
const BREAK_MS = 5_000;
// How far ahead of this clock an entry's stamp may be (a fleet member's clock running ahead) before it is refused.
const SKEW_MS = 5_000;
// Entry names kept, so a hit need not sign again.
const NAMES_KEPT = 1_000;
const NEVER = Number.POSITIVE_INFINITY;
// How long a process's claim on a code's refresh holds the others off (they read the store meanwhile), and how often
// they read it: a validation takes 0.1-1 s; past this, each asks the server itself.
const CLAIM_MS = 3_000;
// How long after the breaker's end a failed delete is tried again.
const RETRY_MARGIN_MS = 100;
const POLL_MS = 50;

// Names of codes the server refused: when (`performance.now()`), and until an entry written before would have expired
// (`Date.now()`). One memory for every cache in the process (a name is bound to its API key and site, so clients on
// other keys never share one), so that no client of the process answers valid a code another client saw refused.
const REFUSED = new Map<string, { at: number; until: number }>();
// The most names it keeps: the largest `maxEntries` of the caches in the process.
let refusedMost = 0;

/**
 * The cache of one Catalog client and those derived from it: names, single flight, freshness, the fall-back to a
 * stale entry, and what keeps it closed when the store fails or lies.
 */
export class CacheCore {
  readonly #store: CacheStore;
  readonly #memory: MemoryStore | undefined;
  readonly #ttl: number;
  readonly #stale: number;
  readonly #site: string;
  readonly #secret: Promise<CryptoKey>;
  readonly #flying = new Map<string, Flight>();
  readonly #names = new Map<string, Promise<string>>();
  readonly #counts = { hits: 0, misses: 0, stale: 0, errors: 0, rejected: 0 };
  // The breaker: the store is skipped until then (0: closed); one operation at a time tries it after.
  #openUntil = 0;
  #trying = false;
  // Logs told of the current outage (one stale warning each); renewed once the server answers.
  #warned = new WeakSet<Log>();
  #outage = false;

  /** `settings`: the checked `cache` option; `site`: the API root; `apiKey`: the secret of names and MACs. */
  constructor(settings: CacheSettings, site: string, apiKey: string) {
    this.#ttl = settings.ttl;
    this.#stale = settings.stale;
    this.#memory = settings.store === undefined ? new MemoryStore(settings.most) : undefined;
    this.#store = settings.store ?? (this.#memory as MemoryStore);
    this.#site = site;
    this.#secret = hmacKey(apiKey);
    refusedMost = Math.max(refusedMost, settings.most);
  }

  /** The counters, copied. */
  snapshot(): CacheSnapshot {
    return Object.freeze({ ...this.#counts, entries: this.#memory?.size });
  }

  /**
   * Validates `code` through the cache: a fresh entry answers; otherwise the server does (one request however many
   * callers ask at once, each waiting with its own signal and deadline), and its answer is kept, a refused code
   * forgotten and remembered as refused, and a transient failure answered by an entry younger than `staleIfError`.
   */
  validate(code: string, caller: Caller): Promise<WithResponse<Purchase>> {
    const { op } = caller;
    if (op === undefined) return this.#validate(code, caller);
    // The caller's operation is the context of the lookup and of any request it sends, and ends with its answer.
    return op
      .run(() => this.#validate(code, caller))
      .then(
        (result) => {
          op.end({ response: result.response, cache: result.cache });
          return result;
        },
        (error: unknown) => {
          op.end({ error });
          throw error;
        },
      );
  }

  async #validate(code: string, caller: Caller): Promise<WithResponse<Purchase>> {
    const ends = caller.total === undefined ? NEVER : performance.now() + caller.total;
    const name = await this.#key(code);
    const rejected = this.#counts.rejected;
    const read =
      caller.fresh || this.#isRefused(name)
        ? undefined
        : await this.#read(name, code, caller.log, caller.signal, ends);
    // What sits under the name is not this code's: no other process's answer is worth waiting for there.
    const forged = this.#counts.rejected > rejected;
    // The server may have refused the code while the store was read: that entry answers nothing, fresh or stale.
    const entry = read === undefined || this.#isRefused(name) ? undefined : read;
    const age = entry === undefined ? 0 : Date.now() - entry.at;
    if (entry !== undefined && age < this.#ttl) {
      this.#counts.hits += 1;
      return answered(entry.data, 'hit');
    }
    const stale = entry !== undefined && age < this.#stale ? entry.data : undefined;
    // A 429's pause would hold the request: the entry at hand answers now.
    if (stale !== undefined && caller.paused())
      return this.#staleAnswer(stale, age, 'requests are paused after a 429', 'RateLimitError', caller.log);
    for (let round = 0; ; round += 1) {
      // `{ cache: false }` asks the server itself; no one joins a request sent before the code was refused.
      const current = caller.fresh ? undefined : this.#flying.get(name);
      const joined =
        current && (REFUSED.get(name)?.at ?? Number.NEGATIVE_INFINITY) > current.held.sent
          ? undefined
          : current;
      let flight = joined;
      try {
        const gone = left(caller, ends);
        if (gone) throw gone;
        flight ??= this.#fly(name, code, caller, ends, stale !== undefined, !forged);
        return await this.#join(name, flight, caller, joined ? ends : NEVER, joined !== undefined);
      } catch (error) {
        // A refusal seen while the request was out stands: no stale entry answers for the code.
        if (stale !== undefined && transient(error) && !this.#isRefused(name))
          return this.#staleAnswer(stale, age, (error as Error).message, (error as Error).name, caller.log);
        // A flight cut short for its first caller (no retry, or its earlier deadline): this caller asks again.
        const short =
          flight?.quick || (error instanceof APIConnectionTimeoutError && (flight?.ends ?? 0) < ends - 1);
        if (joined && round < 2 && error === flight?.failure && transient(error) && short) continue;
        throw error;
      }
    }
  }

  /** Starts the shared request for `name`, with its first caller's options and deadline, and a signal of its own. */
  #fly(name: string, code: string, caller: Caller, ends: number, quick: boolean, wait: boolean): Flight {
    const stop = new AbortController();
    const held = { claim: false, sent: NEVER };
    const flight = { waiting: new WaitQueue(), stop, ends, quick, held } as unknown as Flight;
    const answerIn = () => {
      flight.settled = true;
      while (flight.waiting.length > 0) flight.waiting.shift()?.grant();
    };
    const settle = () => {
      if (this.#flying.get(name) === flight) this.#flying.delete(name);
      answerIn();
    };
    // The refresh's claim goes back once its answer is in the store (or there is none to write: a refusal, a
    // failure), so the fleet's others waiting on it ask for themselves at once instead of waiting out `CLAIM_MS`.
    const release = () => {
      if (held.claim) this.#giveBack(name);
    };
    flight.answer = this.#source(name, code, caller, ends, stop.signal, quick, wait, held).then(
      async (result) => {
        // Another process's answer, read from the store: nothing to write (a claim taken as it landed goes back).
        if (result.cache === 'hit') {
          release();
          settle();
          return result;
        }
        const answer = { ...result, cache: 'miss' as const };
        // A request sent before this process saw the code refused: its callers, who asked before the refusal, have
        // its answer, but it is not kept, nor does it lift the refusal.
        if ((REFUSED.get(name)?.at ?? Number.NEGATIVE_INFINITY) > held.sent) {
          release();
          settle();
          return answer;
        }
        REFUSED.delete(name);
        if (this.#outage) {
          this.#outage = false;
          this.#warned = new WeakSet();
        }
        // The callers who joined have the answer now, whatever the store does; the first caller's waits for its
        // entry to be written (within half of what its deadline has left, at most 1 s), so a process that ends after
        // its call still leaves the entry to the fleet. The flight stays joinable until then.
        flight.early = answer;
        answerIn();
        await this.#write(name, result.data, caller.log, stop.signal, ends);
        release();
        settle();
        return answer;
      },
      (error: unknown) => {
        flight.failure = error;
        // Fail closed: a code the server refuses (refunded, say) is remembered here, whatever the store does.
        if (error instanceof InvalidPurchaseCodeError) {
          this.#refuse(name);
          void this.#forget(name, caller.log).then(release);
        } else release();
        settle();
        throw error;
      },
    );
    // Everyone may have left: the request's end is then no one's to hear.
    flight.answer.catch(() => {});
    this.#flying.set(name, flight);
    return flight;
  }

  /**
   * Where a flight's answer comes from: the server, unless the store is shared and another process is asking it
   * already (`claim`): then that process's answer, read from the store as it lands (a hit), within `CLAIM_MS`;
   * once that process gives its claim back with no fresh entry written (the server refused the code, or failed),
   * this one claims the refresh and asks for itself. `wait`: false when the store already showed an entry under the
   * name that was not this code's. `held.claim` says whether this flight holds the claim (its flight gives it back).
   * The store is read with the flight's own signal (it stops once no caller waits), not its first caller's, and no
   * entry answers a code this process has seen refused: such a code is always asked of the server.
   */
  async #source(
    name: string,
    code: string,
    caller: Caller,
    ends: number,
    signal: AbortSignal,
    quick: boolean,
    wait: boolean,
    held: Flight['held'],
  ): Promise<WithResponse<Purchase>> {
    const { claim } = this.#store;
    const fresh = (entry: { at: number } | undefined) =>
      entry !== undefined && Date.now() - entry.at < this.#ttl && !this.#isRefused(name);
    if (claim !== undefined && wait && !caller.fresh && !this.#isRefused(name)) {
      const take = async () => {
        let taking: Promise<unknown> | undefined;
        const mine = await this.#call(
          () => (taking = Promise.resolve(claim.call(this.#store, name, CLAIM_MS))),
          caller.log,
          signal,
          ends,
        );
        // Cut short (an abort, the deadline, the store's timeout): a claim that lands later is given back at once.
        if (mine === undefined) void taking?.then((late) => late === true && this.#giveBack(name), noop);
        return mine;
      };
      let mine = await take();
      const until = Math.min(ends, performance.now() + CLAIM_MS);
      while (mine === false && !signal.aborted && performance.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, until - performance.now())));
        const rejected = this.#counts.rejected;
        const entry = await this.#read(name, code, caller.log, signal, ends);
        if (entry !== undefined && fresh(entry)) {
          this.#counts.hits += 1;
          return answered(entry.data, 'hit');
        }
        // Refused in this process meanwhile: no other process's entry answers for the code.
        if (this.#isRefused(name)) break;
        // An entry that is not this code's sits under its name: waiting for another's answer proves nothing.
        if (this.#counts.rejected > rejected) break;
        // No fresh entry yet: the claim is free again when its holder has given it back without writing one.
        mine = await take();
        if (mine === true) {
          held.claim = true;
          // Its holder may have written its entry, then given the claim back, since the read above.
          const landed = await this.#read(name, code, caller.log, signal, ends);
          if (landed !== undefined && fresh(landed)) {
            this.#counts.hits += 1;
            return answered(landed.data, 'hit');
          }
        }
      }
      held.claim = mine === true;
      // The deadline came while another process held the refresh: its answer is the fleet's, and a request with no
      // time left would only be a second one.
      if (!held.claim && performance.now() >= ends)
        throw new APIConnectionTimeoutError(
          `${caller.label()} was not sent: the deadline came while another process of the fleet asked the server ` +
            `about this code (its claim on the refresh holds ${CLAIM_MS / 1000} s at most).`,
          { mayHaveSucceeded: false },
        );
    }
    this.#counts.misses += 1;
    const totalTimeout = ends === NEVER ? undefined : Math.max(1, ends - performance.now());
    held.sent = performance.now();
    return caller.ask({ signal, totalTimeout, quick });
  }

  /**
   * Waits for `flight` with the caller's own signal and deadline (`ends`; the first caller's is the request's own):
   * leaving rejects this caller alone; the request stops only once no one waits for it. A caller who `joined` has a
   * valid answer as soon as it is in; the first caller once its entry is written too.
   */
  async #join(
    name: string,
    flight: Flight,
    caller: Caller,
    ends: number,
    joined: boolean,
  ): Promise<WithResponse<Purchase>> {
    const { signal } = caller;
    try {
      await waitInQueue(
        flight.waiting,
        {
          log: () => {},
          retry: false,
          signal,
          timeoutMs: ends === NEVER ? undefined : Math.max(0, ends - performance.now()),
          timedOut: () => timeoutError(caller.label(), undefined, true),
        },
        ({ grant }) => ({ grant }),
        () => {
          // A caller that comes once the answer is in (its entry still being written) has it at once.
          while (flight.settled && flight.waiting.length > 0) flight.waiting.shift()?.grant();
        },
        () => {
          if (flight.waiting.length > 0 || flight.settled) return;
          if (this.#flying.get(name) === flight) this.#flying.delete(name);
          flight.stop.abort(signal?.reason);
        },
      );
    } catch (error) {
      throw left(caller, NEVER) ?? error;
    }
    // Each joiner has an answer of its own: one caller's change to its purchase shows in no other's.
    if (joined) return copied(flight.early ?? (await flight.answer));
    if (signal === undefined) return flight.answer;
    // The first caller waits for the entry's write too, which its own abort still ends.
    let stop = noop;
    const aborted = new Promise<never>((_, reject) => {
      const gone = () => reject(left(caller, NEVER));
      if (signal.aborted) return gone();
      signal.addEventListener('abort', gone, { once: true });
      stop = () => signal.removeEventListener('abort', gone);
    });
    return Promise.race([flight.answer, aborted]).finally(stop);
  }

  /** Keeps a server's answer: the purchase without its code, stamped, and (in a store of yours) its MAC. */
  async #write(name: string, purchase: Purchase, log: Log, signal: AbortSignal, ends: number): Promise<void> {
    const { purchase_code: _, ...rest } = purchase;
    const entry: Entry = { at: Date.now(), purchase: JSON.stringify(rest) };
    if (this.#memory === undefined) {
      if (this.#skips()) return;
      entry.mac = await this.#mac(name, entry);
    }
    await this.#call(() => this.#store.set(name, entry, this.#stale), log, signal, ends);
  }

  /**
   * The entry under `name` as this code's purchase (a copy of its own for each caller), or `undefined`, read within
   * `signal` and `ends`. An entry from a store of yours must carry this name's MAC, a stamp not ahead of this clock,
   * and a purchase.
   */
  async #read(
    name: string,
    code: string,
    log: Log,
    signal: AbortSignal | undefined,
    ends: number,
  ): Promise<{ at: number; data: Purchase } | undefined> {
    const value = await this.#call(() => this.#store.get(name), log, signal, ends);
    if (value == null) return undefined;
    const entry = value as Entry;
    try {
      // The in-memory store holds only what this cache wrote.
      if (this.#memory !== undefined) {
        const data = JSON.parse(entry.purchase) as Purchase;
        data.purchase_code = code;
        return { at: entry.at, data };
      }
      if (
        Number.isFinite(entry.at) &&
        entry.at <= Date.now() + SKEW_MS &&
        typeof entry.purchase === 'string' &&
        entry.mac === (await this.#mac(name, entry))
      ) {
        const parsed = PurchaseSchema.safeParse({ ...JSON.parse(entry.purchase), purchase_code: code });
        if (parsed.success) return { at: entry.at, data: parsed.data };
      }
    } catch {}
    this.#counts.rejected += 1;
    return undefined;
  }

  #staleAnswer(
    data: Purchase,
    age: number,
    why: string,
    errorName: string,
    log: Log,
  ): WithResponse<Purchase> {
    this.#counts.stale += 1;
    // One line per outage and logger; the counter says how many answers were stale.
    if (!this.#warned.has(log)) {
      this.#warned.add(log);
      this.#outage = true;
      log('warn', `purchase validation answered from the cache (stale): ${why}`, { ageMs: age, errorName });
    }
    return answered(data, 'stale');
  }

  /**
   * Deletes a refused code's entry. When the store fails to, the delete is tried again as soon as the breaker lets
   * the store be tried (every `BREAK_MS` while it fails; see `#call`), while the refusal stands and until the entry
   * would have expired: this process never answers it again (`#refused`), and once the store answers again the
   * fleet's other processes no longer find it either.
   */
  async #forget(name: string, log: Log, until = Date.now() + this.#stale): Promise<void> {
    const done = await this.#call(async () => {
      await this.#store.delete(name);
      return true;
    }, log);
    if (done === true || Date.now() + BREAK_MS >= until || !this.#isRefused(name)) return;
    // Just past the breaker's end (a timer may fire a millisecond before `Date.now()` says it is due: then the store
    // would still be skipped, and the delete wait another round).
    const wait = Math.max(0, this.#openUntil - Date.now()) + RETRY_MARGIN_MS;
    const timer = setTimeout(() => void this.#forget(name, log, until), wait);
    // A process may end meanwhile.
    (timer as { unref?: () => void }).unref?.();
  }

  #refuse(name: string): void {
    const until = Math.max(REFUSED.get(name)?.until ?? 0, Date.now() + this.#stale);
    REFUSED.delete(name);
    REFUSED.set(name, { at: performance.now(), until });
    if (REFUSED.size > refusedMost) REFUSED.delete(REFUSED.keys().next().value as string);
  }

  #isRefused(name: string): boolean {
    const until = REFUSED.get(name)?.until;
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    REFUSED.delete(name);
    return false;
  }

  /**
   * Gives back this process's claim on `name`'s refresh, whatever the breaker says: a claim kept holds the fleet's
   * other processes off the code for `CLAIM_MS`. A store that fails to has nothing else to lose.
   */
  #giveBack(name: string): void {
    const { release } = this.#store;
    if (release)
      void Promise.resolve()
        .then(() => release.call(this.#store, name))
        .then(noop, noop);
  }

  /** Whether the breaker skips the store now. */
  #skips(): boolean {
    return this.#trying || Date.now() < this.#openUntil;
  }

  /**
   * One store operation, bounded by the store timeout and by the caller's signal and deadline: a store that fails
   * or does not answer is a miss, said once per outage in a `warn` line, and skipped for a while after (a breaker).
   */
  async #call<T>(
    operation: () => T,
    log: Log,
    signal?: AbortSignal,
    ends = NEVER,
  ): Promise<Awaited<T> | undefined> {
    // The in-memory store answers at once and cannot fail: no timer for it.
    if (this.#memory !== undefined) return operation() as Awaited<T>;
    if (this.#skips()) return undefined;
    const trial = this.#openUntil !== 0;
    this.#trying = trial;
    try {
      // Half of what the call has left at most: a store that hangs leaves the server the other half.
      const ms = Math.max(0, Math.min(STORE_TIMEOUT_MS, (ends - performance.now()) / 2));
      const value = await bounded(Promise.resolve().then(operation), ms, signal);
      if (trial) {
        this.#openUntil = 0;
        log('info', 'the purchase cache store answers again.', {});
      }
      return value;
    } catch (error) {
      // The caller left (its abort or deadline): no fault of the store's.
      if (signal?.aborted || performance.now() >= ends) return undefined;
      this.#counts.errors += 1;
      if (this.#openUntil === 0) {
        log(
          'warn',
          `the purchase cache store failed (${(error as Error)?.message}): validations ask the server.`,
          { errorName: (error as Error)?.name },
        );
      }
      this.#openUntil = Date.now() + BREAK_MS;
      return undefined;
    } finally {
      if (trial) this.#trying = false;
    }
  }

  /**
   * The entry's name: an HMAC-SHA-256 of the site and the code, keyed by a secret derived from the API key. The last
   * names are kept (WebCrypto's sign is a job of its own: most of a hit's time), privately, and a bounded few.
   */
  #key(code: string): Promise<string> {
    const folded = code.toLowerCase();
    let name = this.#names.get(folded);
    if (name === undefined) {
      if (this.#names.size >= NAMES_KEPT) this.#names.clear();
      name = this.#sign(`${this.#site}\n${folded}`).then((mac) => `content-platform-sdk:purchase:${mac}`);
      this.#names.set(folded, name);
    }
    return name;
  }

  /** The MAC binding an entry to its name (so to its code and client), its stamp and its purchase. */
  #mac(name: string, entry: Entry): Promise<string> {
    return this.#sign(`${name}\n${entry.at}\n${entry.purchase}`);
  }

  async #sign(text: string): Promise<string> {
    const mac = await crypto.subtle.sign('HMAC', await this.#secret, new TextEncoder().encode(text));
    return base64url(new Uint8Array(mac));
  }
}

/**
 * Failures a stale entry may answer for: the server could not say (no answer, a timeout, any 5xx or 429, with or
 * without a Catalog error envelope). A refusal of the code is never one, whatever its status.
 */
function transient(error: unknown): boolean {
  if (error instanceof APIConnectionError) return true;
  if (!(error instanceof APIError) || error instanceof InvalidPurchaseCodeError) return false;
  return error.status >= 500 || error.status === 429;
}

function noop(): void {}

/** The caller's own end, if it has come: its abort, or its deadline passed. */
function left(caller: Caller, ends: number): unknown {
  const { signal } = caller;
  if (signal?.aborted)
    return new APIUserAbortError(`${caller.label()} was aborted by the caller.`, { cause: signal.reason });
  if (performance.now() >= ends) return timeoutError(caller.label(), undefined, false);
  return undefined;
}

/** `result` with a purchase of its own (nested objects too), for a caller who joined another's request. */
function copied(result: WithResponse<Purchase>): WithResponse<Purchase> {
  return { ...result, data: structuredClone(result.data) };
}

/** A purchase from the cache as a validation's result, with a stand-in 200 response saying where it came from. */
function answered(data: Purchase, cache: CacheState): WithResponse<Purchase> {
  const headers = { 'x-content-platform-cache': cache };
  return { data, response: new Response(null, { status: 200, headers }), cache };
}

/** The HMAC key: SHA-256 of a label and the API key, so the cache's names say nothing of the key itself. */
async function hmacKey(apiKey: string): Promise<CryptoKey> {
  const secret = await crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(`content-platform-sdk purchase cache\n${apiKey}`),
  );
  return crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** `promise`, or a rejection after `ms` (a store, or Redis, that does not answer) or on `signal`'s abort. */
export function bounded<T>(promise: Promise<T>, ms: number, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', aborted);
    };
    const aborted = () => {
      stop();
      reject(signal?.reason);
    };
    // The time is up once what already came in has been read: on a host too busy to run the event loop, the answer
    // may be waiting in the socket when the timer fires, and the timers' turn comes before the sockets'.
    const timer = setTimeout(
      () =>
        afterIO(() => {
          stop();
          reject(new Error(`no answer within ${Math.round(ms)} ms`));
        }),
      ms,
    );
    if (signal?.aborted) aborted();
    else signal?.addEventListener('abort', aborted, { once: true });
    promise.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error: unknown) => {
        stop();
        reject(error);
      },
    );
  });
}

/** Runs `task` after the I/O already received has been handled (`setImmediate` where there is one). */
const afterIO: (task: () => void) => void =
  typeof setImmediate === 'function' ? (task) => void setImmediate(task) : (task) => void setTimeout(task, 0);

/** The default store: in memory, the `most` entries last used, each until its TTL. */
class MemoryStore implements CacheStore {
  readonly #entries = new Map<string, { value: unknown; until: number }>();
  readonly #most: number;

  constructor(most: number) {
    this.#most = most;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): unknown {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    if (entry.until <= Date.now()) return undefined;
    // Used last: kept longest.
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: unknown, ttlMs: number): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, until: Date.now() + ttlMs });
    if (this.#entries.size > this.#most) this.#entries.delete(this.#entries.keys().next().value as string);
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }
}
