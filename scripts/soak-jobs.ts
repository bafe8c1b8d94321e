/**
 * Long-jobs soak (`npm run soak:jobs`): the bulk jobs of issue 34, each handed over at once to one client built with
 * default options, against the reference server's rate limiter as the package's bin runs it (10 requests a second
 * per key, over a real 127.0.0.1 socket with `listen()`), with 10 % of answers an injected 500 or 503 (the server's
 * `failureRate`) and, on creates, a lossy-answer fault (5 %: the pixel is stored, then the connection drops).
 *
 * Jobs, each in a child process of its own (so its memory is the client's alone; the server stays in this one):
 *   create          2 000 `pixels.create` on one ManagementClient;
 *   validate        5 000 `purchases.validate` on one CatalogClient, no cache;
 *   validate-cache  the same 5 000 with `cache: { ttl }`.
 * The validations draw from 1 000 distinct codes, half valid (the seed's fixtures and codes added to the server's
 * seed), half unknown (the seed's invalid code and made-up ones), shuffled: an audit meets each about five times.
 *
 * Checks, per job: 0 lost creates (each one resolved and stored exactly once, or rejected; a rejected one that was
 * stored must say `mayHaveSucceeded: true`), 0 wrong answers (a valid code refused or an unknown one accepted), 429s
 * under 5 % of the requests the server received, 0 `RateLimitError` on the validations. Prints which requests got
 * the 429s and when, peak RSS, heap and RSS after GC at the start and end of the job, and wall time. Exits 1 on any
 * violation or missed target.
 *
 * Options (env): SOAK_JOBS (create,validate,validate-cache), SOAK_CREATES (2000), SOAK_VALIDATIONS (5000),
 * SOAK_CODES (distinct codes, 1000), SOAK_RATE (10), SOAK_WINDOW_MS (1000), SOAK_FAILURE_RATE (0.1),
 * SOAK_LOSE_RATE (0.05), SOAK_LATENCY_MS (0), SOAK_CACHE_TTL_MS (600000), SOAK_SEED (42), SOAK_TIMELINE (1: print
 * each rate-limit window that met a 429).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { CatalogClient, InvalidPurchaseCodeError, ManagementClient, RateLimitError } from '../src/index.js';
// The reference server's own PRNG: the same seed gives the same codes, faults and order.
import { prng } from '../src/testing/core/faults.js';
import {
  createReferenceServer,
  type FetchHandler,
  listen,
  SEED_PURCHASE_CODES,
} from '../src/testing/index.js';

const env = process.env;
const JOBS = (env.SOAK_JOBS ?? 'create,validate,validate-cache').split(',').map((j) => j.trim());
const CREATES = Number(env.SOAK_CREATES ?? 2_000);
const VALIDATIONS = Number(env.SOAK_VALIDATIONS ?? 5_000);
const CODES = Number(env.SOAK_CODES ?? 1_000);
const RATE = Number(env.SOAK_RATE ?? 10);
const WINDOW_MS = Number(env.SOAK_WINDOW_MS ?? 1_000);
const FAILURE_RATE = Number(env.SOAK_FAILURE_RATE ?? 0.1);
const LOSE_RATE = Number(env.SOAK_LOSE_RATE ?? 0.05);
const LATENCY_MS = Number(env.SOAK_LATENCY_MS ?? 0);
const CACHE_TTL_MS = Number(env.SOAK_CACHE_TTL_MS ?? 600_000);
const SEED = Number(env.SOAK_SEED ?? 42);
const TIMELINE = env.SOAK_TIMELINE === '1';
const MAX_429_SHARE = 0.05;
const KNOWN_JOBS = ['create', 'validate', 'validate-cache'] as const;
type Job = (typeof KNOWN_JOBS)[number];

const SELF = fileURLToPath(import.meta.url);
const PREFIX = 'jobs-';

/** What one call of a job came to, as the child reports it. */
interface Outcome {
  /** The error's class name; absent when the call resolved. */
  error?: string;
  /** The error's `mayHaveSucceeded`, when it has one. */
  may?: boolean;
  /** The error's HTTP status, when it has one. */
  status?: number;
}

/** The child's report: the outcome of every call in order, its memory and its wall time. */
interface JobReport {
  job: Job;
  ms: number;
  outcomes: Outcome[];
  start: { heap: number; rss: number };
  end: { heap: number; rss: number };
  peakRss: number;
  /** Lines the default logger wrote (to the console, at its default level). */
  logLines: number;
}

/** One request as the server in front saw it. */
interface Seen {
  /** ms since the job's first request arrived, when this one arrived and when it was answered. */
  at: number;
  done: number;
  /** Requests of this job already at the server when it arrived. */
  alongside: number;
  status: number | 'dropped';
  /** An injected 500/503 (no rate-limit headers), or a lost answer. */
  fault?: 'status' | 'lose-response';
  remaining?: number;
  retryAfter?: number;
  label: string;
}

/** The validations' codes: `CODES` distinct, half valid, and the order a job asks them in (the same in every process). */
function codePlan(): { valid: string[]; invalid: string[]; order: { code: string; valid: boolean }[] } {
  const random = prng(SEED + 7);
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
  const fixtures = SEED_PURCHASE_CODES;
  const half = Math.max(1, Math.floor(CODES / 2));
  const fixedValid = [
    fixtures.supported,
    fixtures.supportExpired,
    fixtures.supportDisabled,
    fixtures.downloaded,
  ];
  const valid = [...fixedValid, ...Array.from({ length: Math.max(0, half - fixedValid.length) }, uuid)];
  const invalid = [fixtures.invalid, ...Array.from({ length: Math.max(0, CODES - half - 1) }, uuid)];
  const pool = shuffle(random, [
    ...valid.map((code) => ({ code, valid: true })),
    ...invalid.map((code) => ({ code, valid: false })),
  ]);
  // Each code as often as any other (give or take one), in a shuffled order: a shrunk run mixes both kinds too.
  const order = shuffle(
    random,
    Array.from({ length: VALIDATIONS }, (_, i) => pool[i % pool.length] as (typeof pool)[number]),
  );
  return { valid, invalid, order };
}

/** Fisher-Yates with the given PRNG, in place. */
function shuffle<T>(random: () => number, list: T[]): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j] as T, list[i] as T];
  }
  return list;
}

if (env.SOAK_JOBS_CHILD) await child(env.SOAK_JOBS_CHILD as Job);
else
  await parent().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });

/** One job in this process, with default client options: prints its report as the last line, JSON. */
async function child(job: Job): Promise<void> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const { BASE_URL: baseUrl, API_KEY: apiKey } = env;
  // Default options: only where the server is and the key (and, for that job, the cache).
  const mgmt = job === 'create' ? new ManagementClient({ baseUrl, apiKey }) : undefined;
  const catalog =
    job === 'create'
      ? undefined
      : new CatalogClient({
          siteUrl: baseUrl,
          apiKey,
          ...(job === 'validate-cache' ? { cache: { ttl: CACHE_TTL_MS } } : {}),
        });
  const codes = job === 'create' ? [] : codePlan().order.map((c) => c.code);
  const count = job === 'create' ? CREATES : codes.length;
  // The default logger writes to the console: count its lines, print none.
  let logLines = 0;
  for (const level of ['error', 'warn', 'info', 'debug'] as const) {
    console[level] = () => {
      logLines += 1;
    };
  }
  gc();
  const start = { heap: process.memoryUsage().heapUsed, rss: process.memoryUsage().rss };
  const started = performance.now();
  const settled = await Promise.allSettled(
    Array.from({ length: count }, (_, i) =>
      mgmt
        ? mgmt.pixels.create({ name: `${PREFIX}${i}`, type: 'facebook', value: String(100_000 + i) })
        : (catalog as CatalogClient).purchases.validate(codes[i] as string),
    ),
  );
  const ms = performance.now() - started;
  const outcomes: Outcome[] = settled.map((s) => {
    if (s.status === 'fulfilled') return {};
    const e = s.reason as { name?: string; mayHaveSucceeded?: unknown; status?: unknown };
    const outcome: Outcome = { error: String(e?.name ?? typeof e) };
    if (typeof e?.mayHaveSucceeded === 'boolean') outcome.may = e.mayHaveSucceeded;
    if (typeof e?.status === 'number') outcome.status = e.status;
    return outcome;
  });
  settled.length = 0;
  gc();
  const end = { heap: process.memoryUsage().heapUsed, rss: process.memoryUsage().rss };
  const peakRss = process.resourceUsage().maxRSS * 1024;
  const report: JobReport = { job, ms, outcomes, start, end, peakRss, logLines };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

async function parent(): Promise<void> {
  for (const job of JOBS) {
    if (!KNOWN_JOBS.includes(job as Job)) {
      console.error(`soak:jobs: unknown job ${JSON.stringify(job)} in SOAK_JOBS (${KNOWN_JOBS.join(', ')})`);
      process.exit(2);
    }
  }
  const plan = codePlan();
  const server = createReferenceServer({
    rateLimit: { limit: RATE, windowMs: WINDOW_MS },
    faults: { failureRate: FAILURE_RATE, seed: SEED, ...(LATENCY_MS > 0 ? { latencyMs: LATENCY_MS } : {}) },
    seed: { purchaseCodes: plan.valid.slice(4) },
  });
  const mgmtKey = server.keys.management[0] as string;
  const catalogKey = server.keys.catalog[0] as string;
  const lose = prng(SEED + 3);
  let jobStart = performance.now();
  let seen: Seen[] = [];
  let atServer = 0;

  // In front of the server: records every request's arrival, answer and rate-limit headers, and scripts the lost
  // answer of a create just before the server's own decide() runs (synchronously, so no other request takes it).
  const front: FetchHandler = {
    async fetch(request) {
      const at = performance.now() - jobStart;
      const record: Seen = { at, done: at, alongside: atServer, status: 'dropped', label: '' };
      atServer += 1;
      try {
        if (request.method === 'POST' && new URL(request.url).pathname.endsWith('/v1/pixels')) {
          record.label = new URLSearchParams(await request.clone().text()).get('name') ?? '?';
          if (lose() < LOSE_RATE) {
            server.faults.script(['lose-response']);
            record.fault = 'lose-response';
          }
        } else record.label = 'validation';
        const response = await server.fetch(request);
        record.status = response.status;
        const remaining = response.headers.get('x-ratelimit-remaining');
        if (remaining !== null) record.remaining = Number(remaining);
        else if (response.status >= 500) record.fault = 'status';
        const retryAfter = response.headers.get('retry-after');
        if (retryAfter !== null) record.retryAfter = Number(retryAfter);
        return response;
      } finally {
        atServer -= 1;
        record.done = performance.now() - jobStart;
        seen.push(record);
      }
    },
  };
  const live = await listen(front, { port: 0, host: '127.0.0.1' });
  console.log(
    `soak:jobs: reference server at ${live.url}, ${RATE} requests per ${WINDOW_MS} ms per key, ${Math.round(FAILURE_RATE * 100)} % of answers 500/503${LOSE_RATE > 0 ? `, ${Math.round(LOSE_RATE * 100)} % of creates stored then their answer lost` : ''}${LATENCY_MS > 0 ? `, ${LATENCY_MS} ms latency` : ''}; default client options, every call handed over at once`,
  );
  const failures: string[] = [];
  try {
    for (const job of JOBS as Job[]) {
      server.reset();
      seen = [];
      atServer = 0;
      jobStart = performance.now();
      const report = await runChild(job, live.url, job === 'create' ? mgmtKey : catalogKey);
      // Times from the first request's arrival (the child's start-up is not the job's).
      seen.sort((a, b) => a.at - b.at);
      const first = seen[0]?.at ?? 0;
      for (const s of seen) {
        s.at -= first;
        s.done -= first;
      }
      const violations =
        job === 'create'
          ? checkCreates(report, server.store.pixels(mgmtKey))
          : checkValidations(report, plan);
      violations.push(...printRequests(job, report, seen));
      printMemory(report);
      if (violations.length > 0) {
        console.log(`  ${violations.length} violation(s):`);
        for (const v of violations.slice(0, 30)) console.log(`    - ${v}`);
        failures.push(...violations.map((v) => `${job}: ${v}`));
      } else console.log('  OK');
    }
  } finally {
    await live.close();
  }
  if (failures.length > 0) {
    console.error(`\nsoak:jobs: ${failures.length} violation(s) or missed target(s)`);
    process.exit(1);
  }
  console.log('\nsoak:jobs: OK');
}

/** Runs one job in a child process (this file, under tsx, with its heap collectable) and reads its report. */
function runChild(job: Job, baseUrl: string, apiKey: string): Promise<JobReport> {
  return new Promise((resolve, reject) => {
    const run = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', SELF], {
      env: { ...env, SOAK_JOBS_CHILD: job, BASE_URL: baseUrl, API_KEY: apiKey },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    run.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
    });
    run.once('error', reject);
    run.once('exit', (code) => {
      const line = text
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .at(-1);
      if (code === 0 && line) resolve(JSON.parse(line) as JobReport);
      else reject(new Error(`soak:jobs: the ${job} job exited ${code} without its report`));
    });
  });
}

/** Reconciles the creates with the store: every create resolved and stored once, or rejected and said so. */
function checkCreates(report: JobReport, pixels: { name: string }[]): string[] {
  const violations: string[] = [];
  const stored = new Map<string, number>();
  for (const p of pixels) if (p.name.startsWith(PREFIX)) stored.set(p.name, (stored.get(p.name) ?? 0) + 1);
  let resolved = 0;
  let flaggedStored = 0;
  let flaggedNotStored = 0;
  const rejected = new Map<string, number>();
  report.outcomes.forEach((o, i) => {
    const name = `${PREFIX}${i}`;
    const count = stored.get(name) ?? 0;
    stored.delete(name);
    if (count > 1) violations.push(`${name} stored ${count} times (duplicated)`);
    if (!o.error) {
      resolved += 1;
      if (count === 0) violations.push(`${name} resolved but is not stored (lost)`);
      return;
    }
    const kind = `${o.error}${o.status ? ` ${o.status}` : ''}`;
    rejected.set(kind, (rejected.get(kind) ?? 0) + 1);
    if (o.may === true) {
      if (count > 0) flaggedStored += 1;
      else flaggedNotStored += 1;
    } else if (count > 0)
      violations.push(`${name} is stored, but its ${kind} said nothing of mayHaveSucceeded (lost silently)`);
  });
  for (const name of stored.keys()) violations.push(`${name} stored but never created`);
  const lost = violations.length;
  console.log(`\ncreate: ${report.outcomes.length} pixels.create on one ManagementClient, all at once`);
  console.log(
    `  ${resolved} resolved and stored once; ${report.outcomes.length - resolved} rejected (${[...rejected]
      .map(([k, n]) => `${k}: ${n}`)
      .join(
        ', ',
      )}), of which ${flaggedStored} stored and flagged mayHaveSucceeded, ${flaggedNotStored} flagged and not stored`,
  );
  console.log(`  lost creates: ${lost} (target 0)`);
  return violations;
}

/** Checks every validation's answer against the seed: a valid code resolves, an unknown one is refused. */
function checkValidations(report: JobReport, plan: ReturnType<typeof codePlan>): string[] {
  const violations: string[] = [];
  const errors = new Map<string, number>();
  let resolved = 0;
  let refused = 0;
  let wrong = 0;
  report.outcomes.forEach((o, i) => {
    const { valid } = plan.order[i] as { valid: boolean };
    if (!o.error) {
      resolved += 1;
      if (!valid) wrong += 1;
    } else if (o.error === InvalidPurchaseCodeError.name) {
      refused += 1;
      if (valid) wrong += 1;
    } else {
      const kind = `${o.error}${o.status ? ` ${o.status}` : ''}`;
      errors.set(kind, (errors.get(kind) ?? 0) + 1);
    }
  });
  const rateLimited = report.outcomes.filter((o) => o.error === RateLimitError.name).length;
  const cache = report.job === 'validate-cache' ? `, cache: { ttl: ${CACHE_TTL_MS} }` : ', no cache';
  console.log(
    `\n${report.job}: ${report.outcomes.length} purchases.validate on one CatalogClient${cache}, all at once (${CODES} distinct codes, half valid)`,
  );
  console.log(
    `  ${resolved} valid, ${refused} refused as invalid (${wrong} wrong answers); ${report.outcomes.length - resolved - refused} errors${errors.size > 0 ? ` (${[...errors].map(([k, n]) => `${k}: ${n}`).join(', ')})` : ''}`,
  );
  console.log(`  RateLimitError: ${rateLimited} (target 0)`);
  if (wrong > 0) violations.push(`${wrong} wrong answers`);
  if (rateLimited > 0) violations.push(`${rateLimited} RateLimitError (target 0)`);
  return violations;
}

/** What the server received: the 429s' share and which requests got them, and when. */
function printRequests(job: Job, report: JobReport, seen: Seen[]): string[] {
  const n = seen.length;
  const count = (f: (s: Seen) => boolean) => seen.filter(f).length;
  const tooMany = seen.filter((s) => s.status === 429);
  const share = n === 0 ? 0 : tooMany.length / n;
  const injected = count((s) => s.fault === 'status');
  const lostAnswers = count((s) => s.fault === 'lose-response');
  console.log(
    `  requests received ${n} for ${report.outcomes.length} calls: ${count((s) => s.status !== 429 && typeof s.status === 'number' && s.status < 500)} answered, ${tooMany.length} 429 (${(100 * share).toFixed(2)} %, target < ${100 * MAX_429_SHARE} %), ${injected} injected 500/503${job === 'create' ? `, ${lostAnswers} answers lost` : ''}; ${report.logLines} lines from the default logger`,
  );
  // Rate-limit windows, as the server counts them: one starts with an answer whose Remaining is limit - 1, or more
  // than the one before (when the window's first request lost its answer). A request whose answer was lost spent
  // the window's budget unseen: the client's count of what is left is then one too high; the 429s after one are
  // told apart. (A lost request arriving once its window is spent is taken for the next one's first.)
  const windows: { start: number; ok: number; limited: Seen[]; lost: boolean; spent: boolean }[] = [];
  const afterLoss = new Set<Seen>();
  let before = -1;
  let lostAhead = false;
  for (const s of seen) {
    if (s.status !== 429 && s.remaining !== undefined) {
      if (s.remaining === RATE - 1 || s.remaining > before) {
        windows.push({ start: s.at, ok: 0, limited: [], lost: lostAhead, spent: false });
        lostAhead = false;
      }
      before = s.remaining;
    }
    const w = windows.at(-1);
    if (s.fault === 'lose-response') {
      if (w && !w.spent) w.lost = true;
      else lostAhead = true;
    }
    if (!w) continue;
    if (s.status === 429) {
      w.limited.push(s);
      w.spent = true;
      if (w.lost) afterLoss.add(s);
    } else if (s.remaining !== undefined) {
      w.ok += 1;
      if (s.remaining === 0) w.spent = true;
    }
  }
  let alone = 0;
  let inPause = 0;
  let lastPauseEnd = Number.NEGATIVE_INFINITY;
  const intoWindow: number[] = [];
  for (const s of tooMany) {
    if (s.at < lastPauseEnd) inPause += 1;
    if (s.alongside === 0) alone += 1;
    lastPauseEnd = Math.max(lastPauseEnd, s.done + (s.retryAfter ?? 0) * 1000);
    const w = windows.findLast((x) => x.start <= s.at);
    if (w) intoWindow.push(s.at - w.start);
  }
  intoWindow.sort((a, b) => a - b);
  const median = intoWindow[Math.floor(intoWindow.length / 2)] ?? 0;
  const spent = windows.filter((w) => w.limited.length > 0).length;
  const maxAlongside = Math.max(0, ...seen.map((s) => s.alongside + 1));
  const seconds = report.ms / 1000;
  console.log(
    `  ${windows.length} windows of ${WINDOW_MS} ms opened, ${spent} of them met a 429 (${windows.filter((w) => w.limited.length > 1).length} more than one); ${(n / seconds).toFixed(1)} requests/s, ${(windows.reduce((a, w) => a + w.ok, 0) / seconds).toFixed(1)} answered within the limit/s; at most ${maxAlongside} requests at the server at once`,
  );
  if (tooMany.length > 0) {
    console.log(
      `  the 429s: ${afterLoss.size} in a window where an answer had been lost before them, ${tooMany.length - afterLoss.size} in one without; ${alone} with no other request at the server, ${tooMany.length - alone} alongside others; ${inPause} arrived while an earlier 429's Retry-After was still running; median ${median.toFixed(0)} ms into their window (retry-after ${[...new Set(tooMany.map((s) => s.retryAfter))].join('/')} s); to ${job === 'create' ? `${new Set(tooMany.map((s) => s.label)).size} distinct creates` : 'validations'}`,
    );
  }
  if (TIMELINE) {
    for (const w of windows.filter((x) => x.limited.length > 0).slice(0, 40)) {
      console.log(
        `    window at ${(w.start / 1000).toFixed(3)} s: ${w.ok} counted, 429 at ${w.limited.map((s) => `+${(s.at - w.start).toFixed(0)} ms (${s.alongside} alongside)`).join(', ')}`,
      );
    }
  }
  return share < MAX_429_SHARE
    ? []
    : [`429s are ${(100 * share).toFixed(2)} % of the requests (target < ${100 * MAX_429_SHARE} %)`];
}

function printMemory(report: JobReport): void {
  const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  console.log(
    `  client process: heap after GC ${mib(report.start.heap)} MiB at start → ${mib(report.end.heap)} MiB at end; RSS ${mib(report.start.rss)} → ${mib(report.end.rss)} MiB, peak ${mib(report.peakRss)} MiB; wall ${(report.ms / 1000).toFixed(1)} s`,
  );
}
