// Queued calls leave in O(1) each (#34, item 4): aborting 5 000 queued validations took 4.8 s, each leave searching
// the queue and building a pattern of its purchase code's every form for a message that names only the URL. These
// tests count the work instead of timing it: no array search on a leave, no pattern built per aborted call.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CatalogClient } from '../../src/catalog/index.js';
import { withCodes } from '../../src/core/errors/redact.js';
import { drain, Throttle, type Ticket, WaitQueue, waitInQueue } from '../../src/core/throttle/index.js';
import { APIUserAbortError } from '../../src/index.js';
import { createReferenceServer } from '../../src/testing/index.js';

const ticket = (extra: Partial<Ticket> = {}): Ticket => ({
  log: () => {},
  retry: false,
  timedOut: () => new Error('timed out in the queue'),
  ...extra,
});

/** Counts the calls of the array methods that search or shift an array while `run` runs. */
function arraySearches(run: () => void): number {
  const spies = (['indexOf', 'lastIndexOf', 'findIndex', 'splice', 'filter', 'includes'] as const).map(
    (name) => vi.spyOn(Array.prototype, name),
  );
  try {
    run();
    return spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

/** Counts the regular expressions built (`new RegExp`, `RegExp()`) while `run` runs; literals are built once. */
async function regExpsBuilt(run: () => Promise<unknown>): Promise<number> {
  const original = globalThis.RegExp;
  let built = 0;
  globalThis.RegExp = new Proxy(original, {
    construct(target, args) {
      built += 1;
      return Reflect.construct(target, args);
    },
    apply(target, self, args) {
      built += 1;
      return Reflect.apply(target, self, args);
    },
  });
  try {
    await run();
    return built;
  } finally {
    globalThis.RegExp = original;
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('WaitQueue', () => {
  it('is first come first served, a retry first, with its length exact as waiters leave from anywhere', () => {
    const queue = new WaitQueue<string>();
    expect([queue.length, queue.peek(), queue.shift()]).toEqual([0, undefined, undefined]);
    const places = ['a', 'b', 'c', 'd'].map((name) => queue.add(name));
    queue.add('retry', true);
    expect(queue.length).toBe(5);
    expect(queue.remove(places[2] as (typeof places)[number])).toBe(true);
    // Out already: nothing changes (an abort after the turn was granted, a timer after the abort).
    expect(queue.remove(places[2] as (typeof places)[number])).toBe(false);
    expect(queue.length).toBe(4);
    expect(queue.peek()).toBe('retry');
    expect(queue.shift()).toBe('retry');
    expect(queue.remove(places[3] as (typeof places)[number])).toBe(true);
    expect(queue.length).toBe(2);
    expect(drain(queue)).toEqual(['a', 'b']);
    expect([queue.length, queue.peek()]).toEqual([0, undefined]);
    // A place shifted out cannot be taken out again.
    expect(queue.remove(places[0] as (typeof places)[number])).toBe(false);
    expect(queue.length).toBe(0);
  });

  it('a waiter at the end of 100 000 leaves without a search, and so does each of them, last first', async () => {
    const queue = new WaitQueue<{ name: number; grant(): void }>();
    const stops: AbortController[] = [];
    const waits: Promise<unknown>[] = [];
    let left = 0;
    for (let name = 0; name < 100_000; name += 1) {
      const stop = new AbortController();
      stops.push(stop);
      waits.push(
        waitInQueue(
          queue,
          ticket({ signal: stop.signal }),
          ({ grant }) => ({ name, grant }),
          () => {},
          () => {
            left += 1;
          },
        ).catch((error: unknown) => error),
      );
    }
    expect(queue.length).toBe(100_000);
    // The old queue searched all 100 000 for the last one (indexOf), then spliced it out.
    expect(arraySearches(() => stops.at(-1)?.abort(new Error('gone')))).toBe(0);
    expect([queue.length, left]).toEqual([99_999, 1]);
    expect(
      arraySearches(() => {
        for (let i = stops.length - 2; i >= 1; i -= 1) stops[i]?.abort(new Error('gone'));
      }),
    ).toBe(0);
    expect([queue.length, left]).toEqual([1, 99_999]);
    // The one left is the first, and its turn comes.
    expect(queue.peek()?.name).toBe(0);
    queue.shift()?.grant();
    await expect(waits[0]).resolves.toBeUndefined();
    expect((await waits[1]) as Error).toMatchObject({ message: 'gone' });
    expect(queue.length).toBe(0);
  });
});

describe('a throttle with thousands of calls queued', () => {
  it('counts exactly the calls that still wait as any of them abort, and grants the rest in order', async () => {
    const throttle = new Throttle({ maxConcurrent: 1 });
    expect(throttle.tryTake()).toBe(true);
    const granted: number[] = [];
    const stops = Array.from({ length: 5_000 }, () => new AbortController());
    const turns = stops.map((stop, i) =>
      (throttle.take(ticket({ signal: stop.signal })) as Promise<void>).then(
        () => granted.push(i),
        (error: unknown) => error,
      ),
    );
    expect(throttle.snapshot().queued).toBe(5_000);
    // Every other one, from the back: each leaves in one step, and the count follows.
    expect(
      arraySearches(() => {
        for (let i = 4_999; i >= 0; i -= 2) stops[i]?.abort(new Error('gone'));
      }),
    ).toBe(0);
    expect(throttle.snapshot().queued).toBe(2_500);
    for (let i = 0; i < 3; i += 1) {
      throttle.release();
      await Promise.resolve();
      await Promise.resolve();
    }
    expect(granted).toEqual([0, 2, 4]);
    expect(throttle.snapshot().queued).toBe(2_497);
    for (const stop of stops) stop.abort(new Error('gone'));
    await Promise.all(turns);
    expect(throttle.snapshot().queued).toBe(0);
  });
});

describe('aborting queued validations', () => {
  /** A client whose first request hangs (until its signal aborts), so every other call queues behind it. */
  function behindAHungRequest(cache: boolean) {
    const server = createReferenceServer();
    let first = true;
    const fetch = async (input: Request | string | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      if (!first) return server.fetch(request);
      first = false;
      return new Promise<Response>((_, reject) => {
        request.signal.addEventListener('abort', () => reject(request.signal.reason));
      });
    };
    return new CatalogClient({
      apiKey: server.keys.catalog[0] as string,
      siteUrl: 'http://127.0.0.1:8080',
      fetch,
      maxRetries: 0,
      logLevel: 'off',
      rateLimit: { maxConcurrent: 1 },
      ...(cache ? { cache: { ttl: 60_000 } } : {}),
    });
  }

  for (const cache of [false, true]) {
    it(`builds no pattern of a code per aborted call (${cache ? 'with' : 'without'} a cache): its message names the URL only`, async () => {
      const client = behindAHungRequest(cache);
      const hold = new AbortController();
      const held = client.purchases.validate('hung-0000-0000-0000', { signal: hold.signal }).catch((e) => e);
      const codes = Array.from(
        { length: 2_000 },
        (_, i) => `queued-${i}-aaaa-bbbb-${String(i).padStart(12, '0')}`,
      );
      const stops = codes.map(() => new AbortController());
      const calls = codes.map((code, i) =>
        client.purchases.validate(code, { signal: stops[i]?.signal }).then(
          () => undefined,
          (error: unknown) => error as Error,
        ),
      );
      await vi.waitFor(() => expect(client.rateLimit.queued).toBe(2_000));
      let errors: (Error | undefined)[] = [];
      const built = await regExpsBuilt(async () => {
        for (const stop of stops) stop.abort();
        errors = await Promise.all(calls);
      });
      // Before: one pattern of every form of each code (2 000), each costing more than the rest of the abort.
      expect(built).toBeLessThan(10);
      expect(client.rateLimit.queued).toBe(0);
      for (const [i, error] of errors.entries()) {
        expect(error).toBeInstanceOf(APIUserAbortError);
        expect(error?.message).toBe(
          'POST http://127.0.0.1:8080/api/purchases/validation was aborted by the caller.',
        );
        expect(JSON.stringify(error)).not.toContain(codes[i]);
      }
      hold.abort();
      await held;
    });
  }

  it('builds no pattern for a refused code either: the Arabic body Laravel escapes (\\u0643) holds no code', async () => {
    const server = createReferenceServer();
    const client = new CatalogClient({
      apiKey: server.keys.catalog[0] as string,
      siteUrl: 'http://127.0.0.1:8080',
      fetch: server.fetch,
      maxRetries: 0,
      logLevel: 'off',
    });
    await client.purchases.validate('warm-up-0000-0000').catch(() => {});
    const codes = Array.from(
      { length: 200 },
      (_, i) => `refused-${i}-4f6a-9b8c-${String(i).padStart(12, '0')}`,
    );
    let errors: Error[] = [];
    const built = await regExpsBuilt(async () => {
      errors = await Promise.all(
        codes.map((code) =>
          client.purchases.validate(code).then(
            () => new Error('valid'),
            (error: unknown) => error as Error,
          ),
        ),
      );
    });
    expect(built).toBeLessThan(10);
    for (const [i, error] of errors.entries()) {
      expect(error.name).toBe('InvalidPurchaseCodeError');
      expect(JSON.stringify(error)).not.toContain(codes[i]);
    }
  });

  it('masks a code in every form whatever surrounds it, though it builds its pattern only for a text that may hold one', () => {
    const code = fc
      .string({
        unit: fc.constantFrom(...'abcXYZ0189+/=~!\'()._- "\\%&#@'.split('')),
        minLength: 8,
        maxLength: 40,
      })
      .filter((c) => /[a-z0-9]/i.test(c) && c.trim() === c);
    const escaped = (text: string, which: RegExp, u = 'u') =>
      text.replace(which, (c) => `\\${u}${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const formEncoded = (text: string) => new URLSearchParams([['', text]]).toString().slice(1);
    const forms = (secret: string) => {
      const once = [encodeURIComponent(secret), formEncoded(secret)];
      return [
        ...once,
        ...once.flatMap((form) => [encodeURIComponent(form), formEncoded(form)]),
        encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
        JSON.stringify(secret).slice(1, -1),
        secret.replaceAll('/', '\\/'),
        escaped(secret, /[^a-z0-9]/gi),
        escaped(secret, /./g).toUpperCase().replaceAll('\\U', '\\u'),
        escaped(secret, /[a-z]/g, 'U'),
      ].filter((form) => form !== secret);
    };
    // Around it: anything, an Arabic body as Laravel escapes it, a URL.
    const around = fc.oneof(
      fc.string(),
      fc.constant('{"msg":"\\u0643\\u0648\\u062f"}'),
      fc.constant('https://x.test/a?b=1'),
    );
    fc.assert(
      fc.property(code, around, around, fc.nat(12), fc.boolean(), (secret, before, after, which, upper) => {
        const all = forms(secret);
        const form = which < all.length ? (all[which] as string) : upper ? secret.toUpperCase() : secret;
        const out = withCodes((text) => text, [secret])(`${before}${form}${after}`);
        expect(out.toLowerCase()).not.toContain(secret.toLowerCase());
        for (const shown of all) expect(out).not.toContain(shown);
      }),
      { numRuns: 2_000 },
    );
  });

  it('still masks a code wherever a text may hold it: raw in any case, encoded, escaped', () => {
    const code = 'c0de-5f3c-2a10-9b8c';
    const scrub = withCodes((text) => text, [code]);
    const forms = [
      code,
      code.toUpperCase(),
      encodeURIComponent(`a b ${code}`),
      JSON.stringify(code).replace(/c/g, '\\u0063'),
      `purchase_code=${code}`,
    ];
    for (const form of forms) expect(scrub(`said: ${form}.`)).not.toMatch(/c0de-5f3c|C0DE-5F3C|\\u0063/i);
    expect(scrub(`said: ${code.toUpperCase()}.`)).toBe('said: ***9b8c.');
    // A code of other characters than printable ASCII is looked for by its pattern, whatever the text.
    const arabic = 'كود-الشراء-1234';
    expect(withCodes((text) => text, [arabic])(`code ${arabic}`)).toBe('code ***1234');
  });
});
