/**
 * How much of the SDK's cost over bare ky is the validation of the answer, and how much the rest of the SDK (the
 * transport, the throttle, the trace, the answer checks): each of the four timed calls made by the SDK, by bare ky,
 * and by bare ky followed by the SDK's own parser for that answer (the schema with its parser generated at build
 * time, as the SDK runs it: `safeParse` with the SDK's parse context). One call of each per round, the order rotating,
 * against the replay server of section 1g (the real servers' bytes, next to no server work), over 127.0.0.1.
 *
 *     bash scripts/node.sh sh -c 'tsup --silent && node bench/parse-share.ts [--rounds N]'
 *
 * Prints, per call, the medians of this process's CPU time a call (`process.cpuUsage`, user + system) and of wall
 * time: "validation" is (ky + parser) − ky, "the rest" is SDK − (ky + parser). Only differences measured in one run
 * mean anything on a shared machine. Runs the built SDK (dist/).
 */
import { readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { safeParse, type $ZodType as ZodType } from 'zod/v4/core';
import { type Call, operations } from './lib/calls.ts';
import { root } from './lib/env.ts';
import { startServer } from './lib/server.ts';
import { fx, median } from './lib/stats.ts';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '1500' } } });
const rounds = Number(args.rounds);
if (!Number.isInteger(rounds) || rounds < 10) throw new Error('--rounds must be a whole number, at least 10');

/** The answer schema each call parses with, by its name in the parsers chunks. */
const SCHEMAS: Record<string, string> = {
  'pixels.get': 'PixelResponseSchema',
  'pixels.list (100)': 'PixelPageSchema',
  'items.list (59)': 'ItemsEnvelopeSchema',
  'purchases.validate': 'PurchaseEnvelopeSchema',
};
// The SDK's parse context (src/core/transport/schema.ts): zod stops at the first issue.
const PARSE_CONTEXT = { abortEarly: true } as never;

const parsers = new Map<string, ZodType>();
for (const file of readdirSync(`${root}dist`).filter((f) => /^parsers\.generated-.*\.js$/.test(f))) {
  const chunk = (await import(`${root}dist/${file}`)) as { parsers: Map<string, ZodType> };
  for (const [name, schema] of chunk.parsers) parsers.set(name, schema);
}

const { info, child } = await startServer();
try {
  const ops = operations({
    base: info.replay,
    managementKey: info.managementKey,
    catalogKey: info.catalogKey,
    purchaseCode: info.purchaseCode,
  });
  console.log(
    `# Validation's share of the SDK's cost over bare ky (replayed answers, ${rounds} rounds a call)\n\n` +
      '| call | SDK − ky, CPU | validation | the rest | SDK − ky, wall | validation | the rest |\n' +
      '|---|---:|---:|---:|---:|---:|---:|',
  );
  for (const op of ops) {
    const schema = parsers.get(SCHEMAS[op.name] as string);
    if (schema === undefined) throw new Error(`no parser ${SCHEMAS[op.name]} in dist: build first`);
    const [sdk, ky] = op.calls;
    const kyParsed: Call = async () => {
      const parsed = safeParse(schema, await ky(), PARSE_CONTEXT);
      if (!parsed.success) throw new Error(`${op.name}: the SDK's parser refused bare ky's answer`);
      return parsed.data;
    };
    const variants = [sdk, ky, kyParsed];
    const cpu: number[][] = [[], [], []];
    const wall: number[][] = [[], [], []];
    const warmup = Math.ceil(rounds / 10);
    for (let round = 0; round < rounds + warmup; round += 1) {
      for (let k = 0; k < variants.length; k += 1) {
        const i = (round + k) % variants.length;
        const started = process.cpuUsage();
        const t0 = performance.now();
        await (variants[i] as Call)();
        const ms = performance.now() - t0;
        const used = process.cpuUsage(started);
        if (round >= warmup) {
          cpu[i]?.push(used.user + used.system);
          wall[i]?.push(ms * 1000);
        }
      }
    }
    const [s, k, p] = cpu.map(median) as [number, number, number];
    const [sw, kw, pw] = wall.map(median) as [number, number, number];
    const cell = (x: number) => `${fx(x, 0)} µs`;
    console.log(
      `| ${op.name} | ${cell(s - k)} | ${cell(p - k)} | ${cell(s - p)} | ${cell(sw - kw)} | ${cell(pw - kw)} | ${cell(sw - pw)} |`,
    );
  }
} finally {
  child.kill('SIGTERM');
}
