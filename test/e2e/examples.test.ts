import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

/** Runs an example as a user would (`npx tsx examples/<name>.ts`), with no server configured. */
async function example(name: string) {
  const env = { ...process.env };
  delete env.CONTENT_PLATFORM_MANAGEMENT_API_KEY;
  delete env.CONTENT_PLATFORM_CATALOG_API_KEY;
  delete env.CONTENT_PLATFORM_BASE_URL;
  delete env.CONTENT_PLATFORM_SITE_URL;
  return run(process.execPath, ['--import', 'tsx', `examples/${name}.ts`], { env, timeout: 60_000 });
}

describe('examples', () => {
  // tsup builds each to dist/examples/<name>.js with the SDK left as an import of the package's name, which inside
  // an installed package resolves to the package itself: a relative import of src/ would ship a second SDK (or
  // break), and a dev dependency would not be installed. scripts/consumers.ts runs the built files from node_modules.
  it('import the SDK by its package name, and nothing a user of the package does not have', () => {
    // The observability example also needs the OpenTelemetry packages it names (a user installs them to run it).
    const allowed =
      /^(content-platform-sdk(\/testing|\/otel)?|ky|node:[a-z/_]+|\.\/support\/[a-z-]+\.js|@opentelemetry\/(api|sdk-trace-base|context-async-hooks))$/;
    const files = readdirSync('examples', { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.ts'),
    );
    expect(files).toContain('demo.ts');
    for (const file of files) {
      const specifiers = [...readFileSync(`examples/${file}`, 'utf8').matchAll(/ from '([^']+)'/g)].map(
        (m) => m[1],
      );
      expect(
        specifiers.filter((s) => !allowed.test(s ?? '')),
        file,
      ).toEqual([]);
    }
  });

  it('the demo tours all fourteen operations and every typed error, and exits 0', async () => {
    const { stdout } = await example('demo');
    for (const operation of [
      'pixels.list',
      'pixels.create',
      'pixels.get',
      'pixels.update',
      'pixels.delete',
      'domains.list',
      'domains.create',
      'domains.get',
      'domains.update',
      'domains.delete',
      'account.details',
      'items.list',
      'items.get',
      'purchases.validate',
    ]) {
      expect(stdout).toMatch(new RegExp(`^\\s+\\d+\\. ${operation.replace('.', '\\.')}\\s`, 'm'));
    }
    expect(stdout).toMatch(
      /^ {2}✓ ItemNotFoundError +an unknown item: code item_not_found, msg «المنتج غير موجود»$/m,
    );
    expect(stdout.match(/^ {2}✓ /gm)).toHaveLength(9);
    expect(stdout).toContain('Tour complete.');
    expect(stdout).toMatch(/against the reference server at http:\/\/127\.0\.0\.1:\d+/);
  }, 60_000);

  it.each([
    [
      'management',
      [
        "422 as expected: { name: [ 'The name has already been taken.' ] }",
        '404 as expected: GET http://127.0.0.1',
        'caught before any request: pixels.list: per_page must be one of 10, 25, 50, 100; got 30.',
      ],
    ],
    [
      'catalog',
      [
        'Ahmed Hassan (@',
        'ItemNotFoundError (code item_not_found): the server said "المنتج غير موجود"',
        'InvalidPurchaseCodeError (code invalid_purchase_code): the server said "كود الشراء غير صحيح"',
      ],
    ],
  ])(
    'examples/%s.ts runs on its own against the embedded server',
    async (name, lines) => {
      const { stdout } = await example(name);
      expect(stdout).toMatch(/API on the reference server at http:\/\/127\.0\.0\.1:\d+/);
      for (const line of lines) expect(stdout).toContain(line);
    },
    60_000,
  );

  it('examples/tracing.ts sends one trace across a retry, a new span per attempt', async () => {
    const { stdout } = await example('tracing');
    const sent = [
      ...stdout.matchAll(/^attempt (\d): (\d+), traceparent 00-([0-9a-f]{32})-([0-9a-f]{16})-01$/gm),
    ];
    expect(sent.map((m) => [m[1], m[2]])).toEqual([
      ['0', '503'],
      ['1', '200'],
    ]);
    expect(sent[0]?.[3]).toBe(sent[1]?.[3]);
    expect(sent[0]?.[4]).not.toBe(sent[1]?.[4]);
    expect(stdout).toMatch(/^pixel #1 /m);
  }, 60_000);

  it('examples/observability.ts prints the span tree: a retried get, a Catalog GET with its key masked, a cache miss then a hit', async () => {
    const { stdout } = await example('observability');
    const tree = stdout
      .trim()
      .replace(/127\.0\.0\.1:\d+/g, 'HOST')
      .split('\n');
    expect(tree).toEqual([
      'pixels.get http.response.status_code=200 content_platform.attempts=2 event:retry',
      '  GET url.full=http://HOST/api/v1/pixels/1 http.response.status_code=503 error.type=503',
      '  GET url.full=http://HOST/api/v1/pixels/1 http.response.status_code=200 http.request.resend_count=1',
      'account.details http.response.status_code=200 content_platform.attempts=1',
      '  GET url.full=http://HOST/api/account/details?api_key=*** http.response.status_code=200',
      'purchases.validate http.response.status_code=200 content_platform.attempts=1 content_platform.cache.result=miss',
      '  POST url.full=http://HOST/api/purchases/validation http.response.status_code=200',
      'purchases.validate http.response.status_code=200 content_platform.attempts=0 content_platform.cache.result=hit',
    ]);
  }, 60_000);

  it('examples/metrics.ts records each attempt with its status and number, the Catalog key redacted', async () => {
    const { stdout } = await example('metrics');
    const lines = stdout.split('\n').filter((line) => / → \d+ \(attempt \d\) in [\d.]+ ms$/.test(line));
    expect(lines.map((line) => line.replace(/http:\/\/127\.0\.0\.1:\d+/, '').replace(/ in .*$/, ''))).toEqual(
      [
        'GET /api/v1/pixels?per_page=10 → 503 (attempt 1)',
        'GET /api/v1/pixels?per_page=10 → 200 (attempt 2)',
        'GET /api/items/all?api_key=*** → 200 (attempt 1)',
        'POST /api/purchases/validation → 200 (attempt 1)',
      ],
    );
    expect(stdout).toContain('4 attempts recorded; Catalog key in a recorded URL: no');
  }, 60_000);

  it('examples/bulk-import.ts: through a 503, a lost answer and a stop, every row once; run again, it finishes', async () => {
    const { stdout } = await example('bulk-import');
    const lines = stdout.replace(/127\.0\.0\.1:\d+/g, 'HOST').split('\n');
    expect(lines[0]).toBe('Bulk import on the reference server at http://HOST');
    const at = lines.indexOf('run 1, stopped after 8 rows:');
    expect(lines.slice(at, at + 16).map((line) => line.replace(/#\d+/, '#ID'))).toEqual([
      'run 1, stopped after 8 rows:',
      '  progress: 0 1 2 3 4 5 6 7 8 of 12 done, 1 failed',
      '  the first two rows on the wire:',
      '    POST /api/v1/pixels → 503',
      '    GET /api/v1/pixels?search=Launch+FB&search_by=name&per_page=100 → 200',
      '    POST /api/v1/pixels → lose-response',
      '    GET /api/v1/pixels?search=Launch+FB&search_by=name&per_page=100 → 200',
      '    POST /api/v1/pixels → 503',
      '    GET /api/v1/pixels?search=Launch+GA&search_by=name&per_page=100 → 200',
      '    POST /api/v1/pixels → 201',
      '  line 2 (Launch FB): existed, #ID (stored by the try whose answer was lost)',
      '  line 7 (Launch Bing): failed, pixels.createMany: row 5: type must be one of adroll, bing, facebook, google-ads, google-analytics, google-tag-manager, linkedin, pinterest, quora, x; got "bnig".',
      '  6 created, 1 existed, 1 failed, 4 skipped (stopped)',
      '',
      'run 2, the typo fixed, the same rows:',
      '  5 created, 7 existed, 0 failed, 0 skipped',
    ]);
    expect(stdout).toContain('on the server: 12 "Launch" pixels, each once\nexit code: 0\n');
  }, 60_000);

  it('examples/sync.ts prints the plan, refuses the edited domain as a conflict, and converges on a new plan', async () => {
    const { stdout } = await example('sync');
    const lines = stdout
      .replace(/127\.0\.0\.1:\d+/g, 'HOST')
      .replace(/\(#\d+\)/g, '(#ID)')
      .split('\n');
    expect(lines).toEqual([
      'Sync on the reference server at http://HOST',
      '',
      'the account has: go.example.org, links.example.com, short.example.net',
      '',
      'Plan for domains: 1 to create, 2 to update, 1 to delete, 0 unchanged.',
      '  + create  shop.example.com  (index_page: "https://shop.example.com")',
      '  ~ update  links.example.com (#ID)  not_found_page: "https://example.com/404" → "https://example.com/missing"',
      '  ~ update  go.example.org (#ID)  index_page: "https://example.org" → "https://example.org/start"',
      '  - delete  short.example.net (#ID)',
      '',
      'meanwhile, a colleague sets the 404 page of go.example.org',
      'writes sent: POST 503, POST 201, PUT 200, DELETE lose-response, DELETE 404',
      'applied: 1 created, 1 updated, 1 deleted, 1 conflicts, 0 failed',
      '  create shop.example.com: created',
      '  update links.example.com: updated',
      '  update go.example.org: conflict (changed since the plan: its 404 page is now https://example.org/oops)',
      '  delete short.example.net: deleted',
      '',
      'run again: a new plan, from what is there now',
      'Plan for domains: 0 to create, 1 to update, 0 to delete, 2 unchanged.',
      '  ~ update  go.example.org (#ID)  index_page: "https://example.org" → "https://example.org/start"',
      'applied: 0 created, 1 updated, 0 deleted, 0 conflicts, 0 failed',
      '  update go.example.org: updated',
      '',
      'and once more: Plan for domains: 0 to create, 0 to update, 0 to delete, 3 unchanged.',
      "go.example.org keeps the colleague's 404 page (its row gives none): https://example.org/oops",
      '',
    ]);
  }, 60_000);

  it('examples/wrapper.ts: keys checked at start, a create cut mid-flight made once, errors a caller can act on', async () => {
    const { stdout } = await example('wrapper');
    // verifyCredentials: one cheap request per API, through the wrapper's own ky instance and hooks.
    expect(stdout).toMatch(
      /^\[acme\] GET http:\/\/127\.0\.0\.1:\d+\/api\/account\/details\?api_key=\*\*\* → 200 \(try 1\)\ncredentials: ok$/m,
    );
    // mayHaveSucceeded: the wrapper looked the pixel up by name before creating it again, and made it once.
    expect(stdout).toMatch(
      /\?search=Acme\+launch&per_page=100 → 200 \(try 1\)\n\[acme\] POST \S+\/pixels → 201/,
    );
    expect(stdout).toContain('copies of it: 1');
    expect(stdout).toMatch(
      /^AcmeError retryable=true: content platform: GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/pixels\/\d+ failed with 503 .*\(after 3 attempt\(s\), request req-acme-1\)$/m,
    );
    expect(stdout).toContain(
      'log fields: level, msg, method, url, attempt, status, durationMs; a retry line: yes',
    );
    expect(stdout).toMatch(
      /^\[acme\] POST http:\/\/127\.0\.0\.1:\d+\/api\/purchases\/validation → 404 \(try 1\)$/m,
    );
    expect(stdout).toContain('licensed: true');
    expect(stdout).toContain('licensed (unknown code): false');
  }, 60_000);

  it('examples/license-server.ts answers from the cache: a hit, an invalid code refused, stale while the marketplace is down, a refund refused', async () => {
    const { stdout } = await example('license-server');
    const valid = (cache: string) =>
      `GET /license?code=…0001 → 200 {"valid":true,"item":{"id":101,"name":"Graphics Item 1"},"license":"regular","supportedUntil":"2099-12-31T23:59:59.000000Z","cache":"${cache}"}`;
    expect(stdout.replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:PORT').split('\n')).toEqual([
      'license server on http://127.0.0.1:PORT, asking the marketplace at http://127.0.0.1:PORT',
      valid('miss'),
      valid('hit'),
      'GET /license?code=…0000 → 403 {"valid":false}',
      'past the ttl, the marketplace failing every request:',
      valid('stale'),
      'GET /license?code=…0002 → 503 {"error":"the marketplace cannot be reached; try again later"}',
      'the marketplace back, the first code refunded:',
      'GET /license?code=…0001 → 403 {"valid":false}',
      'catalog.cache: { hits: 1, misses: 5, stale: 1, errors: 0, rejected: 0, entries: 0 }',
      '',
    ]);
  }, 60_000);
});
