// Section 1g: the four calls on the real servers' payloads — what each is answered with (checked against
// REAL-SERVERS.md), and the SDK and openai-node against bare ky on those answers, served by the reference server and
// replayed byte for byte with next to no server work. All six calls of an operation interleaved, order rotating.
import { check, operations } from '../lib/calls.ts';
import type { Context, Section } from '../lib/env.ts';
import {
  checkRealShape,
  describe,
  type OperationName,
  type Recorded,
  recorded,
  requests,
} from '../lib/reference.ts';
import { fx, median, pairedRatio } from '../lib/stats.ts';
import { interleaved, type Samples } from './latency.ts';

/** SDK and openai-node against bare ky on one server. */
export interface Against {
  /** SDK / bare ky, ratio of the medians (wall time). */
  sdkKy: number;
  /** openai-node / bare ky, ratio of the medians (wall time). */
  openaiKy: number;
  /** SDK / bare ky, median of the per-round ratios. */
  pairedSdkKy: number;
  /** Client CPU time per call, SDK minus bare ky (ms, medians). */
  sdkCpuMinusKy: number;
  /** Client CPU time per call, openai-node minus bare ky (ms, medians). */
  openaiCpuMinusKy: number;
  /** bare ky's median wall time (ms). */
  ky: number;
}

export interface PayloadFigures {
  /** Against the reference server (the server of section 1). */
  served: Against;
  /** Against the same answers replayed byte for byte. */
  replayed: Against;
  /** Body bytes of the answer. */
  bytes: number;
}

/** Rounds per call on a full run (a fifth of them with --quick, at least 100). */
const ROUNDS: Record<string, number> = {
  'pixels.get': 1500,
  'pixels.list (100)': 1000,
  'items.list (59)': 800,
  'purchases.validate': 1500,
};

function against([sdk, ky, openai]: Samples[]): Against {
  const m = (s: Samples | undefined) => median(s?.wall ?? []);
  const cpu = (s: Samples | undefined) => median(s?.cpu ?? []);
  return {
    sdkKy: m(sdk) / m(ky),
    openaiKy: m(openai) / m(ky),
    pairedSdkKy: pairedRatio(sdk?.wall ?? [], ky?.wall ?? []),
    sdkCpuMinusKy: cpu(sdk) - cpu(ky),
    openaiCpuMinusKy: cpu(openai) - cpu(ky),
    ky: m(ky),
  };
}

/** The answers the server of section 1 gives the four calls, each checked to be the real servers' shape. */
export async function answersOf(
  base: string,
  keys: { managementKey: string; catalogKey: string; purchaseCode: string },
): Promise<Record<OperationName, Recorded>> {
  const out = {} as Record<OperationName, Recorded>;
  for (const [name, request] of Object.entries(requests(keys, base)) as [OperationName, Request][]) {
    const answer = await recorded(await fetch(request));
    checkRealShape(name, answer);
    out[name] = answer;
  }
  return out;
}

export async function payloads(
  { info, quick }: Context,
  { title = true }: { title?: boolean } = {},
): Promise<Section<Record<string, PayloadFigures>>> {
  const keys = {
    managementKey: info.managementKey,
    catalogKey: info.catalogKey,
    purchaseCode: info.purchaseCode,
  };
  const served = await answersOf(info.small, keys);
  const replayed = await answersOf(info.replay, keys);
  for (const [name, answer] of Object.entries(served) as [OperationName, Recorded][]) {
    // Same bytes: the body and every header the server set (the adapter adds Date, Connection and framing).
    const again = replayed[name];
    const set = (r: Recorded) =>
      JSON.stringify(r.headers.filter(([h]) => !['date', 'connection', 'keep-alive'].includes(h)));
    const volatile = /"x-ratelimit-remaining","\d+"/g;
    if (
      again.text !== answer.text ||
      set(again).replace(volatile, '') !== set(answer).replace(volatile, '')
    ) {
      throw new Error(`${name}: the replay server does not send the reference server's bytes`);
    }
  }
  const lines = [
    ...(title
      ? [
          "## 1g. Real payloads: the real servers' shapes, served and replayed (interleaved, rotating order, medians)",
          '',
        ]
      : []),
    "What the four calls are answered with (the server of sections 1–3; REAL-SERVERS.md's shapes, checked on every run,",
    'the same bytes for every client):',
    '',
    '| call | body | shape | headers |',
    '|---|---:|---|---|',
    ...(Object.entries(served) as [OperationName, Recorded][]).map(([name, answer]) =>
      describe(name, answer),
    ),
    '',
    'SDK, bare ky and openai-node (generic `get` / `post`) on those answers, from the reference server ("served") and',
    'from a server that replays them byte for byte with next to no work of its own ("replayed"): the six calls of an',
    "operation interleaved in one rotating order. CPU = this process's CPU time a call, more than bare ky's.",
    '',
    '| call | SDK / ky served | openai / ky served | SDK / ky (paired) served | SDK / ky replayed | openai / ky replayed | client CPU SDK − ky · openai − ky | ky replayed / ky served |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const figures: Record<string, PayloadFigures> = {};
  const onServed = operations({ base: info.small, ...keys });
  const onReplay = operations({ base: info.replay, ...keys });
  for (const [i, op] of onServed.entries()) {
    const rep = onReplay[i];
    if (!rep) throw new Error(`no replayed ${op.name}`);
    await check(op);
    await check(rep);
    // SDK, bare ky and openai-node (not raw fetch), served and replayed.
    const calls = [op.calls[0], op.calls[1], op.calls[3], rep.calls[0], rep.calls[1], rep.calls[3]];
    const rounds = Math.max(100, Math.round((ROUNDS[op.name] ?? 1000) * (quick ? 0.2 : 1)));
    const samples = await interleaved(calls, rounds, Math.round(rounds / 10));
    const f: PayloadFigures = {
      served: against(samples.slice(0, 3)),
      replayed: against(samples.slice(3)),
      bytes: served[op.name as OperationName].text.length,
    };
    figures[op.name] = f;
    const { served: s, replayed: r } = f;
    const cpu = `${fx(s.sdkCpuMinusKy * 1000, 0)} µs · ${fx(s.openaiCpuMinusKy * 1000, 0)} µs`;
    lines.push(
      `| ${op.name} | ${fx(s.sdkKy)}× | ${fx(s.openaiKy)}× | ${fx(s.pairedSdkKy)}× | ${fx(r.sdkKy)}× | ` +
        `${fx(r.openaiKy)}× | ${cpu} | ${fx(r.ky / s.ky)}× |`,
    );
  }
  lines.push('');
  return { figures, lines };
}
