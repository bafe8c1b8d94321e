// Fault injection for the purchase cache (issue 33, "Done when"): stores that throw, hang, or lie (another key's
// value, a future stamp, a non-purchase), single-flight callers aborting at random (seeded), against the reference
// server over 127.0.0.1 where some codes are valid and some refused. Whatever happens: never a valid answer for a
// refused code, never a caller past its own deadline (a scheduling margin allowed), never a rejection caused by
// another caller's abort.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  type CacheStore,
  CatalogClient,
  InvalidPurchaseCodeError,
} from '../../src/index.js';
import {
  createReferenceServer,
  type ListeningServer,
  listen,
  SEED_CATALOG_KEYS,
  SEED_PURCHASE_CODES,
} from '../../src/testing/index.js';

const KEY = SEED_CATALOG_KEYS[0];
const VALID: string[] = [SEED_PURCHASE_CODES.supported, SEED_PURCHASE_CODES.downloaded];
const REFUSED: string[] = [SEED_PURCHASE_CODES.supportExpired];
const MARGIN_MS = 150;
const api = createReferenceServer({ rateLimit: false });
let live: ListeningServer;
beforeAll(async () => {
  live = await listen(api, { port: 0 });
});
afterAll(async () => {
  await live.close();
});

type Fault = 'ok' | 'throw' | 'hang' | 'other' | 'future' | 'junk';
/** A store over a Map whose every operation may fail or lie, as `faults` says, one draw per operation. */
function faultyStore(next: () => Fault): CacheStore {
  const kept = new Map<string, unknown>();
  const anyOther = (key: string) => [...kept].find(([name]) => name !== key)?.[1];
  const run = <T>(fault: Fault, answer: () => T): T | Promise<T> => {
    if (fault === 'throw') throw new Error('store fault');
    if (fault === 'hang') return new Promise<T>(() => {});
    return answer();
  };
  return {
    get: (key) => {
      const fault = next();
      return run(fault, () => {
        const value = kept.get(key) as { at: number; purchase: string; mac?: string } | undefined;
        if (fault === 'other') return anyOther(key);
        if (fault === 'future' && value) return { ...value, at: Date.now() + 3_600_000 };
        if (fault === 'junk' && value) return { ...value, purchase: '{"license_type":1}' };
        return value;
      });
    },
    set: (key, value) => run(next(), () => void kept.set(key, value)),
    delete: (key) => run(next(), () => void kept.delete(key)),
  };
}

interface Plan {
  code: string;
  abortAfter: number | undefined;
  totalTimeout: number | undefined;
  startAfter: number;
}

describe('the purchase cache under injected faults', () => {
  it('never answers a refused code valid, never keeps a caller past its deadline, never fails one for another', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<Fault>('ok', 'ok', 'ok', 'throw', 'hang', 'other', 'future', 'junk'), {
          minLength: 40,
          maxLength: 40,
        }),
        fc.array(
          fc.record({
            code: fc.constantFrom(...VALID, ...REFUSED),
            abortAfter: fc.option(fc.integer({ min: 0, max: 200 }), { nil: undefined }),
            totalTimeout: fc.option(fc.integer({ min: 50, max: 400 }), { nil: undefined }),
            startAfter: fc.integer({ min: 0, max: 60 }),
          }),
          { minLength: 4, maxLength: 12 },
        ),
        fc.integer({ min: 0, max: 120 }),
        async (faults, plans: Plan[], latency) => {
          api.reset();
          api.faults.set({ latencyMs: latency });
          for (const code of REFUSED) api.store.refundPurchase(code);
          let draw = 0;
          const store = faultyStore(() => faults[draw++ % faults.length] as Fault);
          const client = new CatalogClient({
            siteUrl: live.url,
            apiKey: KEY,
            maxRetries: 0,
            logLevel: 'off',
            cache: { ttl: 60_000, staleIfError: 600_000, store },
          });
          // Valid codes validated once first, so the store holds entries to lie with.
          for (const code of VALID) await client.purchases.validate(code).catch(() => {});
          await Promise.all(
            plans.map(async (plan) => {
              await new Promise((resolve) => setTimeout(resolve, plan.startAfter));
              const controller = plan.abortAfter === undefined ? undefined : new AbortController();
              const timer = controller && setTimeout(() => controller.abort(), plan.abortAfter);
              const started = performance.now();
              let outcome: { value?: unknown; error?: unknown };
              try {
                outcome = {
                  value: await client.purchases.validate(plan.code, {
                    signal: controller?.signal,
                    totalTimeout: plan.totalTimeout,
                  }),
                };
              } catch (error) {
                outcome = { error };
              }
              clearTimeout(timer);
              const took = performance.now() - started;
              const where = JSON.stringify({ plan, latency, took: Math.round(took) });
              if (REFUSED.includes(plan.code)) expect(outcome.value, where).toBeUndefined();
              if (plan.totalTimeout !== undefined)
                expect(took, where).toBeLessThan(plan.totalTimeout + MARGIN_MS);
              if (outcome.error instanceof APIUserAbortError)
                expect(controller?.signal.aborted, where).toBe(true);
              if (outcome.error !== undefined && !(outcome.error instanceof APIUserAbortError)) {
                // Its own deadline, or the server refusing the code: nothing else fails a caller here.
                const own =
                  (outcome.error instanceof APIConnectionTimeoutError && plan.totalTimeout !== undefined) ||
                  (outcome.error instanceof InvalidPurchaseCodeError && REFUSED.includes(plan.code));
                expect(own, `${where} ${String(outcome.error)}`).toBe(true);
              }
            }),
          );
        },
      ),
      { seed: 33, numRuns: 25, endOnFailure: true },
    );
  }, 120_000);
});
