// Section 1c: what the rate-limit throttle costs a call, over the socket against a server that sends the
// rate-limit headers with a limit far away: the SDK as shipped against the same SDK with `rateLimit: false`
// (which still reads the headers, for `client.rateLimit`), and bare ky, interleaved in a rotating order.
import { ManagementClient } from 'content-platform-sdk';
import ky from 'ky';
import type { Context, Section } from '../lib/env.ts';
import { fx, median, pairedRatio, us } from '../lib/stats.ts';
import { interleaved, type Samples } from './latency.ts';

export interface ThrottleFigures {
  /** Throttle on / off: ratio of the wall-time medians. */
  onOff: number;
  /** Throttle on / off: median of the per-round ratios. */
  pairedOnOff: number;
  /** Throttle on / off: ratio of the client-CPU medians. */
  cpuOnOff: number;
}

export async function throttle({ info, quick }: Context): Promise<Section<Record<string, ThrottleFigures>>> {
  const lines = [
    '## 1c. The throttle alone (interleaved, rotating order, medians)',
    '',
    'The SDK as shipped (throttle on) against the same SDK with `rateLimit: false`, and bare ky, over the socket; the',
    'server sends `X-RateLimit-*` headers with a limit far away. With `false` the SDK still reads the headers.',
    '',
    '| call | throttle on | throttle off | bare ky | on / off | on / off (paired) | on / off, client CPU | client CPU on · off · ky |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const options = { baseUrl: info.small, apiKey: info.managementKey };
  const on = new ManagementClient(options);
  const off = new ManagementClient({ ...options, rateLimit: false });
  const headers = { accept: 'application/json', authorization: `Bearer ${info.managementKey}` };
  const bare = ky.create({ prefix: `${info.small}/api/v1/`, headers });
  const ops = [
    {
      name: 'pixels.get',
      rounds: 3000,
      calls: [() => on.pixels.get(1), () => off.pixels.get(1), () => bare.get('pixels/1').json()],
    },
    {
      name: 'pixels.list (100)',
      rounds: 1500,
      calls: [
        () => on.pixels.list({ per_page: 100 }),
        () => off.pixels.list({ per_page: 100 }),
        () => bare.get('pixels', { searchParams: { per_page: 100 } }).json(),
      ],
    },
  ];
  const figures: Record<string, ThrottleFigures> = {};
  for (const op of ops) {
    const rounds = Math.max(100, Math.round(op.rounds * (quick ? 0.2 : 1)));
    const [a, b, k] = (await interleaved(op.calls, rounds, Math.round(rounds / 10))) as [
      Samples,
      Samples,
      Samples,
    ];
    const f: ThrottleFigures = {
      onOff: median(a.wall) / median(b.wall),
      pairedOnOff: pairedRatio(a.wall, b.wall),
      cpuOnOff: median(a.cpu) / median(b.cpu),
    };
    figures[op.name] = f;
    const cpu = [a, b, k].map((r) => us(median(r.cpu))).join(' · ');
    lines.push(
      `| ${op.name} | ${us(median(a.wall))} | ${us(median(b.wall))} | ${us(median(k.wall))} | ${fx(f.onOff)}× | ` +
        `${fx(f.pairedOnOff)}× | ${fx(f.cpuOnOff)}× | ${cpu} |`,
    );
  }
  lines.push('');
  return { figures, lines };
}
