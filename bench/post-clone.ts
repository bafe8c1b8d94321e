/**
 * What a POST costs ky for its retries: `purchases.validate` on the real servers' payloads (section 1g's server,
 * served and replayed), the SDK, bare ky (its default: 2 retries), bare ky with `retry: 0` and openai-node's generic
 * `post`, interleaved in one rotating order; then, in this process alone, what building a POST Request costs with
 * and without the `clone()` ky makes of it before every attempt while a retry is allowed (the body's stream teed).
 *
 *     bash scripts/node.sh sh -c 'tsup --silent && node bench/post-clone.ts [--rounds N]'
 *
 * The SDK retries a validation (a read-only POST) through ky, so it pays the clone as bare ky does; openai-node
 * rebuilds a request per attempt and pays none. Prints Markdown; writes nothing. Runs the built SDK (dist/).
 */
import { parseArgs } from 'node:util';
import { CatalogClient } from 'content-platform-sdk';
import ky from 'ky';
import OpenAI from 'openai';
import { startServer } from './lib/server.ts';
import { fx, median } from './lib/stats.ts';
import { interleaved } from './scenarios/latency.ts';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '4000' } } });
const rounds = Number(args.rounds);
if (!Number.isInteger(rounds) || rounds < 100) {
  console.error('--rounds must be a whole number, at least 100');
  process.exit(2);
}

const { info, child } = await startServer();
try {
  console.log(
    `# What ky's retries cost a POST (\`purchases.validate\`, ${rounds} rounds)\n\n` +
      '| server | SDK / ky | ky `retry: 0` / ky | openai / ky | client CPU − ky: SDK · ky `retry: 0` · openai |\n' +
      '|---|---:|---:|---:|---:|',
  );
  for (const [name, base] of [
    ['served', info.small],
    ['replayed', info.replay],
  ] as const) {
    const headers = { accept: 'application/json', 'user-agent': 'content-platform-sdk/bench' };
    const catalog = new CatalogClient({ siteUrl: base, apiKey: info.catalogKey });
    const kyDefault = ky.create({ prefix: `${base}/api/`, headers });
    const kyNoRetry = ky.create({ prefix: `${base}/api/`, headers, retry: 0 });
    const openai = new OpenAI({
      baseURL: `${base}/api`,
      apiKey: 'unused',
      maxRetries: 2,
      organization: null,
      project: null,
    });
    const body = () => ({ purchase_code: info.purchaseCode, api_key: info.catalogKey });
    const samples = await interleaved(
      [
        () => catalog.purchases.validate(info.purchaseCode),
        () => kyDefault.post('purchases/validation', { json: body() }).json(),
        () => kyNoRetry.post('purchases/validation', { json: body() }).json(),
        () => openai.post('/purchases/validation', { body: body() }),
      ],
      rounds,
      Math.round(rounds / 10),
    );
    const wall = samples.map((s) => median(s.wall));
    const cpu = samples.map((s) => median(s.cpu) * 1000);
    const [sdk = 0, kyd = 1, kyn = 0, oai = 0] = wall;
    const [sdkCpu = 0, kydCpu = 0, kynCpu = 0, oaiCpu = 0] = cpu;
    const minus = (x: number) => `${x >= kydCpu ? '+' : '−'}${Math.abs(x - kydCpu).toFixed(0)} µs`;
    console.log(
      `| ${name} | ${fx(sdk / kyd)}× | ${fx(kyn / kyd)}× | ${fx(oai / kyd)}× | ` +
        `${minus(sdkCpu)} · ${minus(kynCpu)} · ${minus(oaiCpu)} |`,
    );
  }

  // The Request ky builds for the call, alone and with the clone it makes before an attempt that may be retried.
  const url = `${info.replay}/api/purchases/validation`;
  const text = JSON.stringify({ purchase_code: info.purchaseCode, api_key: info.catalogKey });
  const build = () =>
    new Request(url, { method: 'POST', body: text, headers: { 'content-type': 'application/json' } });
  const time = (fn: () => unknown) => {
    for (let i = 0; i < 10_000; i += 1) fn();
    const start = performance.now();
    for (let i = 0; i < 50_000; i += 1) fn();
    return ((performance.now() - start) / 50_000) * 1000;
  };
  const costs = { plain: [] as number[], cloned: [] as number[] };
  for (let block = 0; block < 6; block += 1) {
    costs.plain.push(time(build));
    costs.cloned.push(time(() => build().clone()));
  }
  const plain = median(costs.plain);
  const cloned = median(costs.cloned);
  console.log(
    `\nA POST Request with its JSON body: ${plain.toFixed(1)} µs to build, ${cloned.toFixed(1)} µs with ` +
      `\`clone()\` (${fx(cloned / plain)}×, medians of 6 blocks).`,
  );
} finally {
  child.kill('SIGTERM');
}
