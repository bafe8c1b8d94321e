// A front for a reference server in tests about pacing: it counts the requests it holds at once (`now`, `most`) and
// may hold each one `holdMs` before passing it on, so a test can see how many a client keeps in flight.
import type { FetchHandler } from '../../src/testing/index.js';

/** What a counting front has seen, and how long it holds each request (settable by the test). */
export interface Held {
  now: number;
  most: number;
  holdMs: number;
}

/** `handler` behind a front that counts the requests it holds at once; `before` may answer a request itself. */
export function countingFront(
  handler: FetchHandler,
  holdMs = 0,
  before?: (request: Request) => Response | undefined,
): { front: FetchHandler; held: Held } {
  const held: Held = { now: 0, most: 0, holdMs };
  const front: FetchHandler = {
    async fetch(request) {
      const answered = before?.(request);
      if (answered) return answered;
      held.now += 1;
      held.most = Math.max(held.most, held.now);
      try {
        if (held.holdMs > 0) await new Promise((resolve) => setTimeout(resolve, held.holdMs));
        return await handler.fetch(request);
      } finally {
        held.now -= 1;
      }
    },
  };
  return { front, held };
}
