import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogClient, ManagementClient } from '../../src/index.js';
import { parseCli, type ServerInfo, serverInfo } from '../../src/testing/adapters/cli.js';
import { createReferenceServer } from '../../src/testing/index.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

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
  it('prints its URL, keys and codes as text, serves, and exits 0 on SIGTERM', async () => {
    const run = bin('--port', '0', '--flavor', 'spec');
    const out = await run.until((o) => o.includes('Use it:'));
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
    expect(out).toContain('(spec flavor)');
    expect(out).toContain(`Management API: ${url}/api/v1   keys: test-mgmt-key-workspace-alpha, `);
    expect(out).toContain(
      `Catalog API:    ${url}/api      keys: test-catalog-key-main, test-catalog-key-no-items`,
    );
    expect(out).toContain(`CONTENT_PLATFORM_BASE_URL=${url} CONTENT_PLATFORM_MANAGEMENT_API_KEY=`);
    const res = await fetch(`${url}/api/v1/pixels/1`, {
      headers: { authorization: 'Bearer test-mgmt-key-workspace-alpha' },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).data.name).toBe('Facebook Main');
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
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
    );
    const line = await run.until((o) => o.endsWith('\n'));
    expect(line.trim().split('\n')).toHaveLength(1);
    const info = JSON.parse(line) as ServerInfo;
    const url = info.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Number(new URL(url).port)).toBeGreaterThan(0);
    expect(info).toEqual({
      url,
      flavor: 'laravel',
      locale: 'ar',
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
    const mgmt = new ManagementClient({
      baseUrl: info.env.CONTENT_PLATFORM_BASE_URL,
      apiKey: info.env.CONTENT_PLATFORM_MANAGEMENT_API_KEY,
    });
    const { data: page, response } = await mgmt.pixels.list().withResponse();
    expect(page.meta.total).toBe(12 + 30);
    expect(response.headers.get('x-ratelimit-limit')).toBe('7');
    const catalog = new CatalogClient({
      siteUrl: info.catalog.siteUrl,
      apiKey: info.catalog.keys[0],
    });
    expect(await catalog.purchases.validate('MY-CODE-1')).toMatchObject({
      item: { id: 101 },
      license: 'regular',
    });
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
        '--seed=9',
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
        faults: { latencyMs: [50, 200], failureRate: 0.2, seed: 9 },
      },
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
  });

  it('names the flag and the value it refuses', () => {
    for (const [args, message] of [
      [['--port', '70000'], '--port must be 0 to 65535, got 70000'],
      [['--pixels', '2.5'], '--pixels must be a whole number ≥ 0, got 2.5'],
      [['--rate-limit', '0'], '--rate-limit must be a whole number ≥ 1, got 0'],
      [['--rate-limit', '5', '--rate-window', '0'], '--rate-window must be a whole number ≥ 1, got 0'],
      [['--rate-window', '1000'], '--rate-window needs --rate-limit'],
      [['--latency', '9-x'], '--latency must be a whole number ≥ 0, got x'],
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

describe('serverInfo', () => {
  it('reads the base path and the valid purchase codes from the server itself', () => {
    const server = createReferenceServer({ basePath: '/market/', seed: { purchaseCodes: ['EXTRA-1'] } });
    const info = serverInfo(server, 'http://127.0.0.1:4010');
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
