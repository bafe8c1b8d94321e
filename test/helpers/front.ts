// A front for a reference server in tests about pacing: it counts the requests it holds at once (`now`, `most`) and
// may hold each one `holdMs`, or until its `gate` opens, before passing it on, so a test can see how many a client
// keeps in flight. A gate holds them until the test has seen what it waits for, however slow the machine.
import type { FetchHandler } from '../../src/testing/index.js';

/** What a counting front has seen, and how long it holds each request (settable by the test). */
export interface Held {
  now: number;
  most: number;
  holdMs: number;
  /** While set, each request arriving is held until it resolves (after `holdMs`). */
  gate?: Promise<void> | undefined;
}

/** A gate for `Held.gate`, and the function that opens it. */
export function gate(): { closed: Promise<void>; open: () => void } {
  let open = () => {};
  const closed = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { closed, open };
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
        if (held.gate) await held.gate;
        return await handler.fetch(request);
      } finally {
        held.now -= 1;
      }
    },
  };
  return { front, held };
}
