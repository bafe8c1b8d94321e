// Child process of the benchmark: serves two reference servers over node:http on 127.0.0.1 and prints one
// JSON line with their URLs and keys. Run apart from the client so the client's timings and heap are its own.
import { createReferenceServer, listen, SEED_MANAGEMENT_KEYS } from 'content-platform-sdk/testing';

const WALK_TOTAL = 100_000;
// Valid purchase codes beyond the seed's, for section 1e (many codes through the cache).
const CODES = Array.from({ length: 50 }, (_, i) => `b3c4e5f6-0000-4000-8000-${String(i).padStart(12, '0')}`);

// Latency server: 12 + 188 pixels (two full pages of 100) and 9 + 50 items with media. It sends the real servers'
// rate-limit headers with a limit far away, so the SDK's throttle reads every answer, as it does in production.
const small = createReferenceServer({
  seed: { pixels: 188, items: 50, purchaseCodes: CODES },
  rateLimit: { limit: 1_000_000_000 },
});
// Walk server: exactly 100 000 pixels in the first workspace (12 seeded + generated), no rate-limit headers.
const big = createReferenceServer({ seed: { pixels: WALK_TOTAL - 12 } });

const [smallHttp, bigHttp] = await Promise.all([listen(small, { port: 0 }), listen(big, { port: 0 })]);
process.stdout.write(
  `${JSON.stringify({
    small: smallHttp.url,
    big: bigHttp.url,
    managementKey: SEED_MANAGEMENT_KEYS[0],
    catalogKey: small.keys.catalog[0],
    purchaseCode: small.fixtures.purchaseCodes.supported,
    purchaseCodes: CODES,
    walkTotal: big.store.pixels(SEED_MANAGEMENT_KEYS[0]).length,
  })}\n`,
);

const stop = () => {
  void Promise.all([smallHttp.close(), bigHttp.close()]).then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('disconnect', stop);
