// Section 1b: the cost of each client layer alone, with no socket and no server work — every variant gets the
// same canned answer from an in-memory fetch.
import { createReferenceServer } from 'content-platform-sdk/testing';
import { check, operations } from '../lib/calls.ts';
import type { Context, Section } from '../lib/env.ts';
import { median, us } from '../lib/stats.ts';

export interface LayerFigures {
  name: string;
  sdk: number;
  ky: number;
  fetch: number;
  openai: number;
}

/** A fetch answering every path with the reference server's answer to it, recorded once. */
async function cannedFetch() {
  const server = createReferenceServer({ seed: { pixels: 188, items: 50 } });
  // A port nothing listens on (never reached: the canned fetch answers), and not one fetch refuses.
  const base = 'http://127.0.0.1:8';
  const managementKey = server.keys.management[0] as string;
  const catalogKey = server.keys.catalog[0] as string;
  const purchaseCode = server.fixtures.purchaseCodes.supported;
  const canned = new Map<string, { text: string; headers: [string, string][]; status: number }>();
  const grab = async (path: string, init: RequestInit = {}) => {
    const r = await server.fetch(new Request(`${base}${path}`, init));
    canned.set(path.split('?')[0] as string, {
      text: await r.text(),
      headers: [...r.headers],
      status: r.status,
    });
  };
  const h = { accept: 'application/json', authorization: `Bearer ${managementKey}` };
  await grab('/api/v1/pixels/1', { headers: h });
  await grab('/api/v1/pixels?per_page=100', { headers: h });
  await grab(`/api/items/all?api_key=${catalogKey}`);
  await grab('/api/purchases/validation', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ purchase_code: purchaseCode, api_key: catalogKey }),
  });
  const fake = async (input: Request | string | URL) => {
    const c = canned.get(new URL(input instanceof Request ? input.url : String(input)).pathname);
    if (!c) throw new Error(`no canned answer for ${String(input)}`);
    return new Response(c.text, { status: c.status, headers: c.headers });
  };
  return { base, managementKey, catalogKey, purchaseCode, fetch: fake };
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
