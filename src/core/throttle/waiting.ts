import type { Ticket } from './fleet.js';

/** How a waiter in a queue ends: `grant` lets it through; `settle` only drops its abort listener and timer. */
export interface WaitEnds {
  /** Settles, then resolves the wait: the waiter has its turn. */
  grant(): void;
  /** Drops the abort listener and the timer, before the wait is resolved some other way. */
  settle(): void;
  /** Resolves the wait (after `settle`). */
  resolve(): void;
  /** Rejects the wait (after `settle`). */
  reject(error: unknown): void;
}

/** A place in a {@link WaitQueue}: linked to its neighbours, or to itself once out. */
interface Place<W> {
  value: W;
  prev: Place<W>;
  next: Place<W>;
}

/**
 * The waiters of a throttle or a shared request, first come first served: a ring of places around an empty one, so
 * a waiter that leaves (its abort, its time limit) unlinks its own place without looking for it. Aborting thousands
 * of queued calls costs each the same, wherever it stands; an array's search and splice cost each the queue's length.
 */
export class WaitQueue<W> {
  #length = 0;
  readonly #ring = { prev: undefined, next: undefined } as unknown as Place<W>;

  constructor() {
    this.#ring.prev = this.#ring.next = this.#ring;
  }

  /** How many wait: exact, whoever left. */
  get length(): number {
    return this.#length;
  }

  /** The first waiter, left in place. */
  peek(): W | undefined {
    return this.#ring.next.value;
  }

  /** Takes the first waiter out. */
  shift(): W | undefined {
    const place = this.#ring.next;
    this.remove(place);
    return place.value;
  }

  /** Queues `value` last, or first (`first`: a retry); its place is what `remove` takes. */
  add(value: W, first = false): Place<W> {
    const prev = first ? this.#ring : this.#ring.prev;
    const place = { value, prev, next: prev.next };
    prev.next = place.next.prev = place;
    this.#length += 1;
    return place;
  }

  /** Takes a place out of the queue: `false` when it was out already. */
  remove(place: Place<W>): boolean {
    if (place.next === place) return false;
    place.prev.next = place.next;
    place.next.prev = place.prev;
    place.prev = place.next = place;
    this.#length -= 1;
    return true;
  }
}

/** Takes every waiter out of `queue`, in order: a function, not a method, so the main entry (no fleet) carries none. */
export function drain<W>(queue: WaitQueue<W>): W[] {
  const all: W[] = [];
  while (queue.length > 0) all.push(queue.shift() as W);
  return all;
}

/**
 * Waits in `queue` for a turn: `make` builds the waiter from how its wait ends; it goes first for a retry, last
 * otherwise; then `added` runs (to grant what the limits allow). The ticket's abort or time limit takes the waiter out
 * and rejects the wait, then `left` runs. One queue discipline for a client's throttle and a fleet's.
 */
export function waitInQueue<W>(
  queue: WaitQueue<W>,
  ticket: Ticket,
  make: (ends: WaitEnds) => W,
  added: () => void,
  left?: () => void,
): Promise<void> {
  const { signal, timeoutMs } = ticket;
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = () => {
      signal?.removeEventListener('abort', onAbort);
      clearTimeout(timer);
    };
    const leave = (error: unknown) => {
      if (!queue.remove(place)) return;
      settle();
      reject(error);
      left?.();
    };
    const onAbort = () => leave(signal?.reason);
    const place = queue.add(
      make({
        grant: () => {
          settle();
          resolve();
        },
        settle,
        resolve,
        reject,
      }),
      ticket.retry,
    );
    // Leaving twice does nothing (the place is out), so the listener need not be `once`; a time already past fires at
    // once (setTimeout takes a negative delay as none).
    signal?.addEventListener('abort', onAbort);
    if (timeoutMs !== undefined) timer = setTimeout(() => leave(ticket.timedOut()), timeoutMs);
    added();
  });
}
