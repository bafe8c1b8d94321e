import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CatalogClient, ManagementClient } from '../../src/index.js';
import {
  describeSummary,
  describeText,
  type ServerInfo,
  serverInfo,
  summarize,
} from '../../src/testing/adapters/banner.js';
import { parseCli, USAGE } from '../../src/testing/adapters/cli.js';
import { createReferenceServer, SEED_PURCHASE_CODES } from '../../src/testing/index.js';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const READY = 'Ctrl+C stops it and prints a summary.\n';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

// Seed files for `--seed FILE`, in a folder of this run.
const seeds = mkdtempSync(join(tmpdir(), 'bin-seeds-'));
afterAll(() => rmSync(seeds, { recursive: true, force: true }));
function seedFile(name: string, text: string): string {
  const path = join(seeds, name);
  writeFileSync(path, text);
  return path;
}

function bin(...args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/testing/bin.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (c: string) => {
    out += c;
  });
  child.stderr?.setEncoding('utf8').on('data', (c: string) => {
    err += c;
  });
  const exit = once(child, 'exit').then(([code]) => code as number);
  /** Resolves with stdout once `ready` holds, rejects if the process exits first. */
  const until = (ready: (out: string) => boolean) =>
    new Promise<string>((resolve, reject) => {
      const check = () => ready(out) && resolve(out);
      child.stdout?.on('data', check);
      void exit.then((code) => reject(new Error(`exited with ${code}: ${out}${err}`)));
    });
  return { child, exit, until, output: () => ({ out, err }) };
}

describe('content-platform-reference-server (bin)', () => {
  it('prints its URL, keys, codes, settings and export lines as text, serves, and sums up on SIGTERM', async () => {
    const run = bin('--port', '0', '--flavor', 'spec');
    const out = await run.until((o) => o.endsWith(READY));
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
    expect(out).toContain(`Content Platform reference server ${version} (spec flavor) listening on ${url}\n`);
    expect(out).toContain(`Management API: ${url}/api/v1   keys: test-mgmt-key-workspace-alpha, `);
    expect(out).toContain(
      `Catalog API:    ${url}/api      keys: test-catalog-key-main, test-catalog-key-no-items`,
    );
    expect(out).toContain(
      [
        '  Rate limit:     none (--rate-limit N enforces one)',
        '  Latency:        none',
        '  Failures:       none',
        '',
        'Point the SDK and the examples at it (paste into a shell):',
        `export CONTENT_PLATFORM_BASE_URL=${url}`,
        'export CONTENT_PLATFORM_MANAGEMENT_API_KEY=test-mgmt-key-workspace-alpha',
        `export CONTENT_PLATFORM_SITE_URL=${url}`,
        'export CONTENT_PLATFORM_CATALOG_API_KEY=test-catalog-key-main',
        '',
        READY,
      ].join('\n'),
    );
    const res = await fetch(`${url}/api/v1/pixels/1`, {
      headers: { authorization: 'Bearer test-mgmt-key-workspace-alpha' },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).data.name).toBe('Facebook Main');
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(run.output().out.slice(out.length)).toBe('Stopped (SIGTERM): served 1 request, 0 answered 429.\n');
  }, 20_000);

  it('on SIGINT prints one line: the requests it served and how many met a 429', async () => {
    const run = bin('--port', '0', '--rate-limit', '2', '--rate-window', '600000');
    const out = await run.until((o) => o.endsWith(READY));
    expect(out).toContain('  Rate limit:     2 requests per key every 600 s, then 429 with Retry-After\n');
    const url = /listening on (http:\S+)/.exec(out)?.[1];
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await fetch(`${url}/api/v1/pixels/1`, {
        headers: { authorization: 'Bearer test-mgmt-key-workspace-alpha', accept: 'application/json' },
      });
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 429]);
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);
    expect(run.output()).toEqual({
      out: `${out}Stopped (SIGINT): served 3 requests, 1 answered 429.\n`,
      err: '',
    });
  }, 20_000);

  it('--version (or -v) prints the package version and exits 0', async () => {
    for (const flag of ['--version', '-v']) {
      const run = bin(flag);
      expect(await run.exit).toBe(0);
      expect(run.output()).toEqual({ out: `${version}\n`, err: '' });
    }
  }, 20_000);

  it('--host 0.0.0.0 is bound as given (tried here on a port held on 127.0.0.1, so nothing listens beyond loopback)', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const run = bin('--port', String(port), '--host', '0.0.0.0');
      expect(await run.exit).toBe(1);
      expect(run.output()).toEqual({
        out: '',
        err: `content-platform-reference-server: port ${port} on 0.0.0.0 is in use; choose another with --port, or --port 0 for a free one.\n`,
      });
    } finally {
      taken.close();
    }
  }, 20_000);

  it('--json prints one JSON line a script can configure the SDK from; --port 0 picks a free port', async () => {
    const run = bin(
      '--port',
      '0',
      '--json',
      '--pixels',
      '30',
      '--purchase-code',
      'MY-CODE-1',
      '--rate-limit',
      '7',
      '--latency',
      '1-3',
      '--failure-rate',
      '0.1',
      '--seed',
      '4',
    );
    const line = await run.until((o) => o.endsWith('\n'));
    expect(line.trim().split('\n')).toHaveLength(1);
    const info = JSON.parse(line) as ServerInfo;
    const url = info.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const port = Number(new URL(url).port);
    expect(port).toBeGreaterThan(0);
    expect(info).toEqual({
      version,
      url,
      listen: { host: '127.0.0.1', port, allInterfaces: false },
      flavor: 'laravel',
      locale: 'ar',
      rateLimit: { limit: 7, windowMs: 60_000 },
      faults: {
        latencyMs: [1, 3],
        failureRate: 0.1,
        failureStatuses: [500, 503],
        loseResponseRate: 0,
        seed: 4,
      },
      management: {
        baseUrl: url,
        apiRoot: `${url}/api/v1`,
        keys: [
          'test-mgmt-key-workspace-alpha',
          'test-mgmt-key-workspace-beta',
          'test-mgmt-key-workspace-empty',
        ],
      },
      catalog: {
        siteUrl: url,
        apiRoot: `${url}/api`,
        keys: ['test-catalog-key-main', 'test-catalog-key-no-items'],
      },
      purchaseCodes: {
        valid: [
          '5f3c2a10-1d2e-4f6a-9b8c-000000000001',
          '5f3c2a10-1d2e-4f6a-9b8c-000000000002',
          '5f3c2a10-1d2e-4f6a-9b8c-000000000003',
          '5f3c2a10-1d2e-4f6a-9b8c-000000000004',
          'MY-CODE-1',
        ],
        invalid: '00000000-0000-4000-8000-000000000000',
      },
      env: {
        CONTENT_PLATFORM_BASE_URL: url,
        CONTENT_PLATFORM_MANAGEMENT_API_KEY: 'test-mgmt-key-workspace-alpha',
        CONTENT_PLATFORM_SITE_URL: url,
        CONTENT_PLATFORM_CATALOG_API_KEY: 'test-catalog-key-main',
      },
    });
    // The injected failures are retried, silently.
    const mgmt = new ManagementClient({
      baseUrl: info.env.CONTENT_PLATFORM_BASE_URL,
      apiKey: info.env.CONTENT_PLATFORM_MANAGEMENT_API_KEY,
      maxRetries: 5,
      logLevel: 'off',
    });
    const { data: page, response } = await mgmt.pixels.list().withResponse();
    expect(page.meta.total).toBe(12 + 30);
    expect(response.headers.get('x-ratelimit-limit')).toBe('7');
    const catalog = new CatalogClient({
      siteUrl: info.catalog.siteUrl,
      apiKey: info.catalog.keys[0],
      maxRetries: 5,
      logLevel: 'off',
    });
    expect(await catalog.purchases.validate('MY-CODE-1')).toMatchObject({
      item: { id: 101 },
      license: 'regular',
    });
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    const lines = run.output().out.trim().split('\n');
    expect(lines).toHaveLength(2);
    const summary = JSON.parse(lines[1] as string);
    expect(summary).toMatchObject({ stopped: 'SIGTERM', rateLimited: 0 });
    expect(summary.requests).toBeGreaterThanOrEqual(2);
    expect(summary.requests).toBe(2 + summary.injectedFailures);
  }, 20_000);

  it('a port in use is one line on stderr and exit code 1, not a stack trace', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const run = bin('--port', String(port));
      expect(await run.exit).toBe(1);
      expect(run.output()).toEqual({
        out: '',
        err: `content-platform-reference-server: port ${port} on 127.0.0.1 is in use; choose another with --port, or --port 0 for a free one.\n`,
      });
    } finally {
      taken.close();
    }
  }, 20_000);

  it('an empty host, another spelling of every interface, or a flag past its bound: exit 2 before listening', async () => {
    const prefix = 'content-platform-reference-server: ';
    const help = ' (--help lists the options)\n';
    const cases = [
      [
        ['--host', ''],
        '--host must be an interface address or name, such as 127.0.0.1, ::1, localhost, or 0.0.0.0 for all of them; got ""',
      ],
      [
        ['--host', '', '--json'],
        '--host must be an interface address or name, such as 127.0.0.1, ::1, localhost, or 0.0.0.0 for all of them; got ""',
      ],
      [
        ['--host', '0'],
        '--host 0 means every interface: write 0.0.0.0 (or ::) to listen on all of them, or 127.0.0.1 for this machine only',
      ],
      [
        ['--host', '0.0', '--json'],
        '--host 0.0 means every interface: write 0.0.0.0 (or ::) to listen on all of them, or 127.0.0.1 for this machine only',
      ],
      [
        ['--host', '::ffff:0.0.0.0'],
        '--host ::ffff:0.0.0.0 means every interface: write 0.0.0.0 (or ::) to listen on all of them, or 127.0.0.1 for this machine only',
      ],
      [['--pixels', '100000000'], '--pixels must be a whole number from 0 to 100000, got 100000000'],
      [
        ['--latency', '99999999999', '--json'],
        '--latency must be a whole number from 0 to 60000, got 99999999999',
      ],
    ] as const;
    // On a port this test holds on 127.0.0.1: a bin that went on to listen would fail there (EADDRINUSE, exit 1)
    // instead of binding every interface, so even a regression never listens beyond loopback.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const runs = cases.map(([args]) => bin('--port', String(port), ...args));
      const exits = await Promise.all(runs.map((run) => run.exit));
      cases.forEach(([, message], i) => {
        expect(exits[i]).toBe(2);
        expect(runs[i]?.output()).toEqual({ out: '', err: `${prefix}${message}${help}` });
      });
    } finally {
      taken.close();
    }
  }, 30_000);

  it('--seed FILE (JSON and NDJSON, beside --seed N) adds their records: listed by the API, codes valid', async () => {
    const json = seedFile(
      'rehearsal.json',
      JSON.stringify({
        pixels: [{ name: 'Rehearsal Launch', type: 'facebook', value: '1234567890' }],
        domains: [{ name: 'go.rehearsal.test' }],
      }),
    );
    const codes = Array.from({ length: 1000 }, (_, i) => `REHEARSAL-${String(i).padStart(4, '0')}`);
    const ndjson = seedFile(
      'codes.ndjson',
      `# a thousand codes\n${codes.map((code) => JSON.stringify({ kind: 'purchase', purchase_code: code })).join('\n')}\n`,
    );
    const run = bin(
      '--port',
      '0',
      '--json',
      '--seed',
      json,
      '--seed',
      '6',
      '--seed',
      ndjson,
      '--lose-rate',
      '0.05',
    );
    const info = JSON.parse(await run.until((o) => o.endsWith('\n'))) as ServerInfo;
    expect(info.faults).toEqual({
      latencyMs: 0,
      failureRate: 0,
      failureStatuses: [500, 503],
      loseResponseRate: 0.05,
      seed: 6,
    });
    expect(info.purchaseCodes.valid).toHaveLength(4 + 1000);
    expect(info.purchaseCodes.valid.slice(4)).toEqual(codes);
    const mgmt = new ManagementClient({
      baseUrl: info.url,
      apiKey: info.management.keys[0],
      logLevel: 'off',
    });
    const catalog = new CatalogClient({ siteUrl: info.url, apiKey: info.catalog.keys[0], logLevel: 'off' });
    // Reads are retried over a lost answer; every record is there.
    const [pixel] = await mgmt.pixels.list({ search: 'Rehearsal' }).toArray({ limit: 5 });
    expect(pixel).toMatchObject({ id: 15, name: 'Rehearsal Launch', type: 'facebook', value: '1234567890' });
    const [domain] = await mgmt.domains.list({ search: 'rehearsal' }).toArray({ limit: 5 });
    expect(domain).toMatchObject({ id: 5, name: 'go.rehearsal.test' });
    expect(await catalog.purchases.validate('REHEARSAL-0999')).toMatchObject({
      item: { id: 101 },
      license: 'regular',
    });
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  }, 20_000);

  it('a bad seed file is one line on stderr naming --seed, the file, the line and the field; exit 2', async () => {
    const bad = seedFile(
      'bad.ndjson',
      '{"kind":"pixel","name":"Fine","type":"x","value":"1"}\n{"kind":"pixel","name":"Bad","type":"tiktok","value":"1"}\n',
    );
    const taken = seedFile('taken.json', '{"domains": [{"name": "ok.test"}, {"name": "links.EXAMPLE.com"}]}');
    const missing = join(seeds, 'missing.json');
    const cases = [
      [
        ['--seed', bad],
        `--seed ${bad}, line 2: pixel "type" must be one of adroll, bing, facebook, google-ads, google-analytics, google-tag-manager, linkedin, pinterest, quora, x; got "tiktok"`,
      ],
      [
        ['--seed', taken, '--json'],
        `--seed ${taken}, domains[1]: domain name "links.EXAMPLE.com" is already seeded (domain names are unique across workspaces, in any letter case)`,
      ],
      [
        ['--seed', missing],
        `--seed ${missing}: no such file (a --seed of digits only is the fault seed; any other value, a seed file)`,
      ],
    ] as const;
    const runs = cases.map(([args]) => bin('--port', '0', ...args));
    const exits = await Promise.all(runs.map((run) => run.exit));
    cases.forEach(([, message], i) => {
      expect(exits[i]).toBe(2);
      expect(runs[i]?.output()).toEqual({ out: '', err: `content-platform-reference-server: ${message}\n` });
    });
  }, 30_000);

  it('a bad argument is one line on stderr and exit code 2', async () => {
    for (const [args, message] of [
      [['--flavor', 'xml'], '--flavor must be laravel or spec'],
      [['--bogus'], "Unknown option '--bogus'"],
      [['--failure-rate', '2'], '--failure-rate must be between 0 and 1, got 2'],
    ] as const) {
      const run = bin(...args);
      expect(await run.exit).toBe(2);
      expect(run.output().err).toBe(
        `content-platform-reference-server: ${message} (--help lists the options)\n`,
      );
    }
  }, 30_000);
});

describe('parseCli', () => {
  it('maps every flag to the server options', () => {
    expect(
      parseCli([
        '--port=0',
        '--host',
        '::1',
        '--flavor=spec',
        '--locale=en',
        '--base-path=/market',
        '--pixels=3',
        '--domains=4',
        '--items=5',
        '--purchase-code=A',
        '--purchase-code=B',
        '--rate-limit=60',
        '--rate-window=1000',
        '--latency=50-200',
        '--failure-rate=0.2',
        '--lose-rate=0.05',
        '--seed=9',
        '--seed=rehearsal.ndjson',
      ]),
    ).toEqual({
      kind: 'run',
      port: 0,
      host: '::1',
      json: false,
      server: {
        flavor: 'spec',
        locale: 'en',
        basePath: '/market',
        seed: { pixels: 3, domains: 4, items: 5, purchaseCodes: ['A', 'B'] },
        rateLimit: { limit: 60, windowMs: 1000 },
        faults: { latencyMs: [50, 200], failureRate: 0.2, loseResponseRate: 0.05, seed: 9 },
      },
      seedFiles: ['rehearsal.ndjson'],
    });
  });

  it('defaults: port 4010 on 127.0.0.1, the laravel flavor, no faults, no enforced limit', () => {
    expect(parseCli([])).toEqual({
      kind: 'run',
      port: 4010,
      host: '127.0.0.1',
      json: false,
      server: {
        flavor: 'laravel',
        locale: 'ar',
        seed: { pixels: 0, domains: 0, items: 0, purchaseCodes: [] },
        faults: {},
      },
    });
    expect(parseCli(['--latency', '25'])).toMatchObject({ server: { faults: { latencyMs: 25 } } });
    expect(parseCli(['-h'])).toEqual({ kind: 'help' });
    expect(parseCli(['--version'])).toEqual({ kind: 'version' });
    expect(parseCli(['-v', '--port', '1'])).toEqual({ kind: 'version' });
  });

  it('names the flag and the value it refuses', () => {
    for (const [args, message] of [
      [['--port', '70000'], '--port must be a whole number from 0 to 65535, got 70000'],
      [['--pixels', '2.5'], '--pixels must be a whole number from 0 to 100000, got 2.5'],
      [['--rate-limit', '0'], '--rate-limit must be a whole number from 1 to 1000000, got 0'],
      [
        ['--rate-limit', '5', '--rate-window', '0'],
        '--rate-window must be a whole number from 1 to 86400000, got 0',
      ],
      [['--rate-window', '1000'], '--rate-window needs --rate-limit'],
      [['--latency', '9-x'], '--latency must be a whole number from 0 to 60000, got x'],
      [['--locale', 'fr'], '--locale must be ar or en'],
    ] as const) {
      expect(parseCli(args)).toEqual({ kind: 'usage-error', message });
    }
    // node:util's own message (its wording varies by Node version), first line only.
    expect(parseCli(['--port', '-1'])).toEqual({
      kind: 'usage-error',
      message: expect.stringMatching(/^Option '--port'[^\n]*$/),
    });
  });
});

describe('parseCli: every flag validated and bounded', () => {
  const everywhere = (host: string) =>
    `--host ${host} means every interface: write 0.0.0.0 (or ::) to listen on all of them, or 127.0.0.1 for this machine only`;
  const notHost = (shown: string) =>
    `--host must be an interface address or name, such as 127.0.0.1, ::1, localhost, or 0.0.0.0 for all of them; got ${shown}`;

  it.each([
    [['--host', ''], notHost('""')],
    [['--host', ' '], notHost('" "')],
    [['--host', 'a b'], notHost('"a b"')],
    [['--host', '[::1]'], notHost('[::1]')],
    [['--host', '1.2.3.4.5'], notHost('1.2.3.4.5')],
    [['--host', '0'], everywhere('0')],
    [['--host', '0.0'], everywhere('0.0')],
    [['--host', '00'], everywhere('00')],
    [['--host', '0x0'], everywhere('0x0')],
    [['--host', '0.0.0.0.'], everywhere('0.0.0.0.')],
    [['--host', '::ffff:0.0.0.0'], everywhere('::ffff:0.0.0.0')],
    [['--host', '::ffff:0:0'], everywhere('::ffff:0:0')],
    [['--host', '::0.0.0.0'], everywhere('::0.0.0.0')],
    [['--host', '0::'], everywhere('0::')],
    [['--pixels', '100000000'], '--pixels must be a whole number from 0 to 100000, got 100000000'],
    [['--domains', '100001'], '--domains must be a whole number from 0 to 100000, got 100001'],
    [['--items', '1e5'], '--items must be a whole number from 0 to 100000, got 1e5'],
    [['--latency', '99999999999'], '--latency must be a whole number from 0 to 60000, got 99999999999'],
    [['--latency', '10-60001'], '--latency must be a whole number from 0 to 60000, got 60001'],
    [['--latency', '1-2-3'], '--latency range must be MIN-MAX, got 1-2-3'],
    [['--rate-limit', '1000001'], '--rate-limit must be a whole number from 1 to 1000000, got 1000001'],
    [
      ['--rate-limit', '5', '--rate-window', '86400001'],
      '--rate-window must be a whole number from 1 to 86400000, got 86400001',
    ],
    [['--seed', '4294967296'], '--seed must be a whole number from 0 to 4294967295, got 4294967296'],
    [['--seed', '-1'], expect.stringMatching(/^Option '--seed'/)],
    [['--failure-rate', '1e-1'], '--failure-rate must be between 0 and 1, got 1e-1'],
    [['--failure-rate', ''], '--failure-rate must be between 0 and 1, got ""'],
    [['--lose-rate', '1.5'], '--lose-rate must be between 0 and 1, got 1.5'],
    [['--lose-rate', '5%'], '--lose-rate must be between 0 and 1, got 5%'],
    [
      ['--failure-rate', '0.6', '--lose-rate', '0.5'],
      '--failure-rate and --lose-rate are shares of the same requests: together at most 1, got 0.6 + 0.5',
    ],
    [['--seed', ''], '--seed must be a whole number (the fault seed) or a seed file, got ""'],
    [
      ['--seed', '99999999999999999999'],
      '--seed must be a whole number from 0 to 4294967295, got 99999999999999999999',
    ],
    [['--port', ''], '--port must be a whole number from 0 to 65535, got ""'],
    [
      ['--purchase-code', ''],
      '--purchase-code must be 1 to 100 letters, digits, - or _ (such as a UUID), got ""',
    ],
    [
      ['--purchase-code', 'a\nb'],
      '--purchase-code must be 1 to 100 letters, digits, - or _ (such as a UUID), got "a\\nb"',
    ],
    [
      ['--purchase-code', 'x'.repeat(101)],
      `--purchase-code must be 1 to 100 letters, digits, - or _ (such as a UUID), got ${'x'.repeat(60)}…`,
    ],
    [
      ['--base-path', 'market'],
      '--base-path must look like /market (segments of letters, digits and . _ ~ -), got market',
    ],
    [
      ['--base-path', '/a/../b'],
      '--base-path must look like /market (segments of letters, digits and . _ ~ -), got /a/../b',
    ],
  ])('%j is refused', (args, message) => {
    expect(parseCli(args)).toEqual({ kind: 'usage-error', message });
  });

  it('more than 1000 purchase codes are refused', () => {
    const args = Array.from({ length: 1001 }, (_, i) => `--purchase-code=code-${i}`);
    expect(parseCli(args)).toEqual({
      kind: 'usage-error',
      message: '--purchase-code is given 1001 times; at most 1000',
    });
  });

  it('takes every bound itself, and the wildcard as 0.0.0.0, ::, ::0 or all eight groups', () => {
    expect(
      parseCli([
        '--pixels=100000',
        '--domains=100000',
        '--items=100000',
        '--latency=0-60000',
        '--rate-limit=1000000',
        '--rate-window=86400000',
        '--seed=4294967295',
        '--port=65535',
        `--purchase-code=${'a'.repeat(100)}`,
        '--base-path=/a.b/~c_d-e/',
      ]),
    ).toMatchObject({
      kind: 'run',
      port: 65_535,
      server: {
        seed: { pixels: 100_000, domains: 100_000, items: 100_000 },
        rateLimit: { limit: 1_000_000, windowMs: 86_400_000 },
        faults: { latencyMs: [0, 60_000], seed: 4_294_967_295 },
      },
    });
    for (const host of ['0.0.0.0', '::', '::0', '0:0:0:0:0:0:0:0', '127.0.0.1', '127.1', '::1', 'localhost'])
      expect(parseCli(['--host', host])).toMatchObject({ kind: 'run', host });
  });

  it('--help states the bounds', () => {
    for (const bound of [
      '0 to 65535',
      '(at most 100000)',
      'at most 1000;',
      'up to 100 characters',
      '1 to 1000000',
      '1 to 86400000',
      '0 to 60000',
      '0 to 4294967295',
    ])
      expect(USAGE).toContain(bound);
  });

  it('--seed is the fault seed when it is all digits, else a seed file; the last number wins, every file loads', () => {
    expect(
      parseCli(['--seed', 'a.json', '--seed', '4', '--seed', './2024', '--seed', '5', '--seed', '1e3']),
    ).toEqual({
      kind: 'run',
      port: 4010,
      host: '127.0.0.1',
      json: false,
      server: {
        flavor: 'laravel',
        locale: 'ar',
        seed: { pixels: 0, domains: 0, items: 0, purchaseCodes: [] },
        faults: { seed: 5 },
      },
      seedFiles: ['a.json', './2024', '1e3'],
    });
    expect(parseCli(['--seed', '0'])).not.toHaveProperty('seedFiles');
    expect(parseCli(['--failure-rate', '0.7', '--lose-rate', '0.3'])).toMatchObject({
      server: { faults: { failureRate: 0.7, loseResponseRate: 0.3 } },
    });
    expect(USAGE).toContain(
      '  --lose-rate R         share of requests (0-1) processed (a create stored), then their\n',
    );
    expect(USAGE).toContain(
      '  --seed FILE           add the pixels, domains and purchase codes of a seed file (JSON or\n',
    );
  });
});

describe('serverInfo', () => {
  it('reads the base path and the valid purchase codes from the server itself', () => {
    const server = createReferenceServer({ basePath: '/market/', seed: { purchaseCodes: ['EXTRA-1'] } });
    const info = serverInfo(server, { url: 'http://127.0.0.1:4010', host: '127.0.0.1', port: 4010 }, '9.9.9');
    expect(info).toMatchObject({ version: '9.9.9', url: 'http://127.0.0.1:4010', rateLimit: false });
    expect(info.management).toMatchObject({
      baseUrl: 'http://127.0.0.1:4010/market',
      apiRoot: 'http://127.0.0.1:4010/market/api/v1',
    });
    expect(info.catalog.apiRoot).toBe('http://127.0.0.1:4010/market/api');
    expect(info.env.CONTENT_PLATFORM_SITE_URL).toBe('http://127.0.0.1:4010/market');
    expect(info.purchaseCodes.valid).toEqual([
      ...Object.values(server.fixtures.purchaseCodes).filter(
        (c) => c !== server.fixtures.purchaseCodes.invalid,
      ),
      'EXTRA-1',
    ]);
  });
});

describe('describeText', () => {
  const at = { url: 'http://127.0.0.1:4010', host: '127.0.0.1', port: 4010 };
  const text = (server: ReturnType<typeof createReferenceServer>, where = at) =>
    describeText(serverInfo(server, where, '1.2.3')).join('\n');

  it('echoes the rate limit, a fixed latency and the failure rate with its seed, as the server holds them', () => {
    const server = createReferenceServer({
      rateLimit: { limit: 1, windowMs: 1500 },
      faults: { latencyMs: 40, failureRate: 0.125, failureStatuses: [502], seed: 7 },
    });
    expect(text(server)).toContain(
      [
        '  Rate limit:     1 request per key every 1500 ms, then 429 with Retry-After',
        '  Latency:        40 ms a request',
        '  Failures:       12.5% of requests answered 502 (seed 7)',
      ].join('\n'),
    );
    server.faults.set({ latencyMs: [5, 9] });
    expect(text(server)).toContain('  Latency:        5-9 ms a request (seed 1)\n  Failures:       none\n');
    server.faults.set({ failureRate: 0.1, loseResponseRate: 0.05, seed: 3 });
    expect(text(server)).toContain(
      '  Failures:       10% of requests answered 500 or 503, 5% processed, then the connection dropped unanswered (seed 3)\n',
    );
    server.faults.set({ loseResponseRate: 0.25 });
    expect(text(server)).toContain(
      '  Failures:       25% of requests processed, then the connection dropped unanswered (seed 1)\n',
    );
  });

  it('writes out up to 10 valid purchase codes, then says how many there are', () => {
    const seed = Object.values(SEED_PURCHASE_CODES).filter((c) => c !== SEED_PURCHASE_CODES.invalid);
    const six = createReferenceServer({
      seed: { purchaseCodes: ['A-1', 'A-2', 'A-3', 'A-4', 'A-5', 'A-6'] },
    });
    expect(text(six)).toContain(
      `  Purchase codes: valid ${[...seed, 'A-1', 'A-2', 'A-3', 'A-4', 'A-5', 'A-6'].join(', ')}; invalid `,
    );
    const many = createReferenceServer({
      seed: { purchaseCodes: ['A-1', 'A-2', 'A-3', 'A-4', 'A-5', 'A-6', 'A-7'] },
    });
    expect(text(many)).toContain(
      `  Purchase codes: valid ${seed.join(', ')}, … (11 in all; --json lists every one); invalid 00000000-0000-4000-8000-000000000000\n`,
    );
  });

  it('prints export lines a shell reads back unchanged, with the base path', () => {
    const server = createReferenceServer({ basePath: '/market', managementKeys: ["it's a key"] });
    expect(text(server)).toContain(
      [
        'export CONTENT_PLATFORM_BASE_URL=http://127.0.0.1:4010/market',
        `export CONTENT_PLATFORM_MANAGEMENT_API_KEY='it'\\''s a key'`,
        'export CONTENT_PLATFORM_SITE_URL=http://127.0.0.1:4010/market',
      ].join('\n'),
    );
  });

  it('on 0.0.0.0 prints the loopback URL, which the SDK accepts (the wildcard address it refuses), and says so', () => {
    const server = createReferenceServer();
    const out = text(server, { url: 'http://127.0.0.1:4010', host: '0.0.0.0', port: 4010 });
    expect(out).toMatch(
      /listening on port 4010 of all interfaces \(0\.0\.0\.0\); use http:\/\/127\.0\.0\.1:4010\n/,
    );
    expect(out).toContain(
      `  Other machines reach it at http://<this machine's address>:4010; the SDK calls http:// to a host that is not loopback only with allowInsecureHttp: true.\n`,
    );
    expect(out).toContain('export CONTENT_PLATFORM_BASE_URL=http://127.0.0.1:4010\n');
    expect(() => new ManagementClient({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'k' })).not.toThrow();
    expect(() => new ManagementClient({ baseUrl: 'http://0.0.0.0:4010', apiKey: 'k' })).toThrow(
      /http:\/\/ to 0\.0\.0\.0/,
    );
  });

  it('on :: gives the IPv6 loopback URL; on a host that is not loopback, says the SDK needs allowInsecureHttp', () => {
    const server = createReferenceServer();
    const wildcard = text(server, { url: 'http://[::1]:4010', host: '::', port: 4010 });
    expect(wildcard).toMatch(
      /^Content Platform reference server 1\.2\.3 \(laravel flavor\) listening on port 4010 of all interfaces \(::\); use http:\/\/\[::1\]:4010\n/,
    );
    expect(() => new ManagementClient({ baseUrl: 'http://[::1]:4010', apiKey: 'k' })).not.toThrow();
    const lan = text(server, { url: 'http://192.168.1.5:4010', host: '192.168.1.5', port: 4010 });
    expect(lan).toContain(
      'listening on http://192.168.1.5:4010\n  Note: the SDK calls http:// to a host that is not loopback only with allowInsecureHttp: true.\n',
    );
    expect(text(server)).not.toContain('allowInsecureHttp');
  });
});

describe('summarize', () => {
  it('counts the requests served, the 429s and the injected failures', async () => {
    const server = createReferenceServer({ rateLimit: { limit: 1 } });
    const get = () =>
      server.fetch('http://x.test/api/v1/pixels/1', {
        headers: { authorization: `Bearer ${server.keys.management[0]}`, accept: 'application/json' },
      });
    await get();
    await get();
    server.faults.script([{ status: 503 }]);
    await get();
    const summary = summarize(server, 'SIGINT');
    expect(summary).toEqual({
      stopped: 'SIGINT',
      requests: 3,
      rateLimited: 1,
      injectedFailures: 1,
      lostResponses: 0,
    });
    expect(describeSummary(summary)).toBe(
      'Stopped (SIGINT): served 3 requests, 1 answered 429, 1 injected failure.',
    );
    server.reset();
    expect(describeSummary(summarize(server, 'SIGTERM'))).toBe(
      'Stopped (SIGTERM): served 0 requests, 0 answered 429.',
    );
  });

  it('counts the answers lost, scripted or drawn', async () => {
    const server = createReferenceServer({ faults: { loseResponseRate: 1 } });
    const get = () =>
      server.fetch('http://x.test/api/v1/pixels/1', {
        headers: { authorization: `Bearer ${server.keys.management[0]}`, accept: 'application/json' },
      });
    await get().catch(() => undefined);
    server.faults.set({});
    server.faults.script(['lose-response']);
    await get().catch(() => undefined);
    await get();
    const summary = summarize(server, 'SIGINT');
    expect(summary).toEqual({
      stopped: 'SIGINT',
      requests: 3,
      rateLimited: 0,
      injectedFailures: 0,
      lostResponses: 2,
    });
    expect(describeSummary(summary)).toBe(
      'Stopped (SIGINT): served 3 requests, 0 answered 429, 2 answers lost.',
    );
    expect(describeSummary({ ...summary, injectedFailures: 1, lostResponses: 1 })).toBe(
      'Stopped (SIGINT): served 3 requests, 0 answered 429, 1 injected failure, 1 answer lost.',
    );
  });
});
