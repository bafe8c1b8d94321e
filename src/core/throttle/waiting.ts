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

/**
 * Waits in `queue` for a turn: `make` builds the waiter from how its wait ends; it goes first for a retry, last
 * otherwise; then `added` runs (to grant what the limits allow). The ticket's abort or time limit takes the waiter out
 * and rejects the wait, then `left` runs. One queue discipline for a client's throttle and a fleet's.
 */
export function waitInQueue<W>(
  queue: W[],
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
      if (timer !== undefined) clearTimeout(timer);
    };
    const leave = (error: unknown) => {
      const at = queue.indexOf(waiter);
      if (at === -1) return;
      queue.splice(at, 1);
      settle();
      reject(error);
      left?.();
    };
    const onAbort = () => leave(signal?.reason);
    const waiter = make({
      grant: () => {
        settle();
        resolve();
      },
      settle,
      resolve,
      reject,
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    if (timeoutMs !== undefined) timer = setTimeout(() => leave(ticket.timedOut()), Math.max(0, timeoutMs));
    if (ticket.retry) queue.unshift(waiter);
    else queue.push(waiter);
    added();
  });
}
