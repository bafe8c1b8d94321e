// Child process of the benchmark: serves the reference servers over node:http on 127.0.0.1 and prints one JSON line
// with their URLs and keys. Run apart from the client so the client's timings and heap are its own.
import { createReferenceServer, listen, SEED_MANAGEMENT_KEYS } from 'content-platform-sdk/testing';
import { benchServer, PURCHASE_CODES, record, replay } from './lib/reference.ts';

const WALK_TOTAL = 100_000;

// Latency server: the real servers' wire shapes and rate-limit headers (see benchServer in lib/reference.ts).
const small = benchServer();
// Walk server: exactly 100 000 pixels in the first workspace (12 seeded + generated), no rate-limit headers.
const big = createReferenceServer({ seed: { pixels: WALK_TOTAL - 12 } });

const [smallHttp, bigHttp] = await Promise.all([listen(small, { port: 0 }), listen(big, { port: 0 })]);
// Replay server (section 1g): the latency server's answers to the four timed calls, recorded once through its own
// URL and sent back byte for byte through the same node:http adapter, with next to no server work.
const replayHttp = await listen(replay(await record(small, smallHttp.url)), { port: 0 });
process.stdout.write(
  `${JSON.stringify({
    small: smallHttp.url,
    big: bigHttp.url,
    replay: replayHttp.url,
    managementKey: SEED_MANAGEMENT_KEYS[0],
    catalogKey: small.keys.catalog[0],
    purchaseCode: small.fixtures.purchaseCodes.supported,
    purchaseCodes: PURCHASE_CODES,
    walkTotal: big.store.pixels(SEED_MANAGEMENT_KEYS[0]).length,
  })}\n`,
);

const stop = () => {
  void Promise.all([smallHttp.close(), bigHttp.close(), replayHttp.close()]).then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('disconnect', stop);
