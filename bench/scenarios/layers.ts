// Section 1b: the cost of each client layer alone, with no socket and no server work — every variant gets the
// same canned answer from an in-memory fetch: section 1's answers (real shapes, rate-limit headers), recorded once.
import { check, operations } from '../lib/calls.ts';
import type { Context, Section } from '../lib/env.ts';
import { answerer, benchServer, keysOf, record } from '../lib/reference.ts';
import { median, us } from '../lib/stats.ts';

export interface LayerFigures {
  name: string;
  sdk: number;
  ky: number;
  fetch: number;
  openai: number;
}

/**
 * A fetch answering each of the four calls with the answer the server of section 1 gives it (the same
 * configuration, `benchServer`: the real servers' shapes and rate-limit headers), recorded once.
 */
async function cannedFetch() {
  const server = benchServer();
  // A port nothing listens on (never reached: the canned fetch answers), and not one fetch refuses.
  const base = 'http://127.0.0.1:8';
  const answer = answerer(await record(server, base));
  const fake = async (input: Request | string | URL) => {
    const response = answer(input instanceof Request ? input.url : String(input));
    if (!response) throw new Error(`no canned answer for ${String(input)}`);
    return response;
  };
  return { base, ...keysOf(server), fetch: fake };
}

/** Batches of 100 calls, variants interleaved, medians of the per-call time. */
export async function layers({ quick }: Context): Promise<Section<LayerFigures[]>> {
  const rounds = quick ? 8 : 25;
  const lines = [
    '## 1b. The layers alone: the same canned answer from an in-memory fetch (no socket, no server)',
    '',
    'Batches of 100 calls, variants interleaved, medians. What each layer costs this process per call.',
    '',
    '| call | SDK | bare ky | fetch + res.json() | openai | SDK − ky |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  const figures: LayerFigures[] = [];
  for (const op of operations(await cannedFetch())) {
    await check(op);
    const times = op.calls.map(() => [] as number[]);
    for (let round = -3; round < rounds; round += 1) {
      for (const [i, call] of op.calls.entries()) {
        const t = performance.now();
        for (let k = 0; k < 100; k += 1) await call();
        if (round >= 0) times[i]?.push((performance.now() - t) / 100);
      }
    }
    const [sdk, ky, fetch, openai] = times.map(median) as [number, number, number, number];
    figures.push({ name: op.name, sdk, ky, fetch, openai });
    lines.push(`| ${op.name} | ${us(sdk)} | ${us(ky)} | ${us(fetch)} | ${us(openai)} | ${us(sdk - ky)} |`);
  }
  lines.push('');
  return { figures, lines };
}
