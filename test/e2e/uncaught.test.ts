// What an SDK error that nobody catches prints. Node's printer calls util.inspect with `customInspect: false`, so the
// error's own [util.inspect.custom] never runs there: it shows the enumerable own fields. Those are the short facts
// (status, code, attempts, requestId…) that have a value; an answer's headers and body, and a fact without a value
// (`requestId` when the server sent none), are kept on fields that are not enumerable.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';

const CHILD = fileURLToPath(new URL('./uncaught-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs uncaught-child.ts for `which` under this test's own Node; resolves to its exit code and stderr. */
function uncaught(which: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, which], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('an uncaught SDK error, as Node prints it', () => {
  it('a NotFoundError: name, message, status and attempts; no Headers, no body', async () => {
    const { code, stderr } = await uncaught('not-found');
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /NotFoundError: GET https:\/\/links\.example\.com\/api\/v1\/pixels\/999999 failed with 404: "Resource not found\."/,
    );
    expect(stderr).toContain('status: 404');
    expect(stderr).toContain('attempts: 1');
    // Exactly the facts that have a value: no `requestId: undefined`.
    expect(stderr).toMatch(/ \{\n {2}attempts: 1,\n {2}status: 404\n\}\n/);
    expect(stderr).not.toContain('undefined');
    expect(stderr).not.toContain('Headers');
    expect(stderr).not.toContain('headers');
    expect(stderr).not.toContain('body');
    expect(stderr).not.toMatch(/message: 'Resource not found\.'/);
    expect(stderr).not.toContain('mk_UNCAUGHT_1');
  }, 30_000);

  it("an ItemNotFoundError: its code too; not the envelope's msg or body", async () => {
    const { code, stderr } = await uncaught('catalog');
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /ItemNotFoundError: GET https:\/\/market\.example\.com\/api\/items\/item\?item_id=999999&api_key=\*\*\*: item not found/,
    );
    expect(stderr).toContain("code: 'item_not_found'");
    expect(stderr).toContain('status: 404');
    expect(stderr).toMatch(/ \{\n {2}attempts: 1,\n {2}status: 404,\n {2}code: 'item_not_found'\n\}\n/);
    expect(stderr).not.toContain('undefined');
    expect(stderr).not.toContain('Headers');
    expect(stderr).not.toContain('body');
    expect(stderr).not.toMatch(/\bmsg: /);
    expect(stderr).not.toContain('ck_UNCAUGHT_2');
  }, 30_000);

  it('an APIConnectionError: its code and mayHaveSucceeded, and the cause behind it', async () => {
    const { code, stderr } = await uncaught('refused');
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /APIConnectionError: GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/pixels failed: could not reach the server \(ECONNREFUSED\)\./,
    );
    expect(stderr).toContain("code: 'ECONNREFUSED'");
    expect(stderr).toContain('mayHaveSucceeded: false');
    expect(stderr).toMatch(
      / \{\n {2}attempts: 1,\n {2}code: 'ECONNREFUSED',\n {2}mayHaveSucceeded: false,\n {2}\[cause\]: /,
    );
    expect(stderr).not.toContain('undefined');
    expect(stderr).not.toContain('mk_UNCAUGHT_1');
  }, 30_000);

  it('an InternalServerError with a request id: the id kept, no retryAfter or mayHaveSucceeded it has no value for', async () => {
    const { code, stderr } = await uncaught('request-id');
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /InternalServerError: GET https:\/\/links\.example\.com\/api\/v1\/pixels\/1 failed with 503/,
    );
    expect(stderr).toMatch(/ \{\n {2}attempts: 1,\n {2}requestId: 'req-UNCAUGHT-3',\n {2}status: 503\n\}\n/);
    expect(stderr).not.toContain('undefined');
    expect(stderr).not.toContain('mk_UNCAUGHT_1');
  }, 30_000);

  it('is what inspect shows without custom inspection: the summary fields only, for every class that has more', async () => {
    const { APIError, CatalogError, ResponseValidationError, UnprocessableEntityError } = await import(
      '../../src/index.js'
    );
    const headers = new Headers({ 'x-secret-header': 'HEADER-VALUE' });
    const errors = [
      new APIError({ status: 418, headers, body: { detail: 'BODY-VALUE' }, message: 'm' }),
      new UnprocessableEntityError({
        status: 422,
        headers,
        body: 'BODY-VALUE',
        message: 'm',
        fieldErrors: { name: ['FIELD-VALUE'] },
      }),
      new CatalogError({
        status: 404,
        headers,
        body: 'BODY-VALUE',
        message: 'm',
        code: 'unknown',
        msg: 'MSG-VALUE',
      }),
      new ResponseValidationError({
        status: 200,
        body: 'BODY-VALUE',
        message: 'm',
        issues: [{ path: ['ISSUE-PATH'], message: 'x' }],
      }),
    ];
    expect(errors.map((error) => Object.keys(error))).toEqual([
      ['attempts', 'status'],
      ['attempts', 'status'],
      ['attempts', 'status', 'code'],
      ['attempts', 'status'],
    ]);
    for (const error of errors) {
      const printed = inspect(error, { customInspect: false, depth: 5 });
      expect(printed).not.toMatch(
        /HEADER-VALUE|BODY-VALUE|FIELD-VALUE|MSG-VALUE|ISSUE-PATH|Headers|undefined/,
      );
      // Without a value, still a field to read.
      expect('requestId' in error && error.requestId === undefined).toBe(true);
    }
    // Still there to read, and in toJSON().
    const [api, unprocessable, catalog, invalid] = errors as [
      InstanceType<typeof APIError>,
      InstanceType<typeof UnprocessableEntityError>,
      InstanceType<typeof CatalogError>,
      InstanceType<typeof ResponseValidationError>,
    ];
    expect(api.headers.get('x-secret-header')).toBe('HEADER-VALUE');
    expect(api.toJSON()).toMatchObject({ body: { detail: 'BODY-VALUE' } });
    expect(unprocessable.fieldErrors).toEqual({ name: ['FIELD-VALUE'] });
    expect(catalog.toJSON()).toMatchObject({ msg: 'MSG-VALUE', body: 'BODY-VALUE' });
    expect(invalid.issues).toEqual([{ path: ['ISSUE-PATH'], message: 'x' }]);
  });
});
