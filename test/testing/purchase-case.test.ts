import { describe, expect, it } from 'vitest';
import { serverInfo } from '../../src/testing/adapters/banner.js';
import { parseCli } from '../../src/testing/adapters/cli.js';
import { createReferenceServer, type ReferenceServer } from '../../src/testing/index.js';
import { read, setup } from './helpers.js';

// Letter case of purchase codes on the reference server, as on the real one: Marketbob stores a code (a UUID, in
// lower case) in a unique MySQL column of collation utf8mb4_unicode_ci and looks it up with `where('code', …)`, which
// ignores case; the answer carries the stored spelling (`'purchase_code' => $this->code`).
const INVALID = { status: 404, body: { status: 'خطأ', msg: 'كود الشراء غير صحيح' } };
const at = { url: 'http://127.0.0.1:4010', host: '127.0.0.1', port: 4010 };

/** Mixed case: every other letter upper. */
const mixed = (code: string) =>
  [...code].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c.toLowerCase())).join('');

function validation(server: ReferenceServer) {
  const [key = ''] = server.keys.catalog;
  return async (code: string) =>
    read(
      await server.fetch(
        new Request('https://links.example.test/api/purchases/validation', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'content-platform-sdk/0.2.0' },
          body: JSON.stringify({ api_key: key, purchase_code: code }),
        }),
      ),
    );
}

describe('reference server: a purchase code matches in any letter case', () => {
  it.each(['laravel', 'spec'] as const)(
    'validates a stored code spelled in upper, lower or mixed case, answering with the stored spelling (%s)',
    async (flavor) => {
      const { catalog, catalogKey, server } = setup({ flavor });
      const code = server.fixtures.purchaseCodes.supported;
      for (const spelling of [code.toUpperCase(), mixed(code), code]) {
        const { status, body } = await read(
          await catalog('POST', 'purchases/validation', {
            json: { api_key: catalogKey, purchase_code: spelling },
          }),
        );
        expect(status).toBe(200);
        const purchase = flavor === 'laravel' ? body.item : body.data.purchase;
        expect(purchase.purchase_code).toBe(code);
        expect(purchase.item.id).toBe(101);
      }
      // Folding the case is all: another code, or this one plus a character, is still refused.
      const ask = validation(server);
      expect(await ask(server.fixtures.purchaseCodes.invalid)).toEqual(INVALID);
      expect((await ask(`${code.toUpperCase()}0`)).status).toBe(404);
    },
  );

  it('a refund given in any case refuses the code in every case', async () => {
    const server = createReferenceServer();
    const ask = validation(server);
    const code = server.fixtures.purchaseCodes.supportExpired;
    expect(server.store.refundPurchase(mixed(code))).toBe(true);
    for (const spelling of [code, code.toUpperCase(), mixed(code)])
      expect(await ask(spelling)).toEqual(INVALID);
    // Refunded once: no second spelling of it is left behind.
    expect(server.store.refundPurchase(code.toUpperCase())).toBe(false);
    expect(server.store.purchases().map((p) => p.purchase_code)).not.toContain(code);
  });

  it('a purchase added in upper case validates in lower case; one already held in another case is refused', async () => {
    const server = createReferenceServer();
    const [first] = server.store.purchases();
    if (!first) throw new Error('no seeded purchase');
    const code = 'AB12CD34-0000-4000-8000-00000000CAFE';
    server.store.addPurchase({ ...first, purchase_code: code });
    const { status, body } = await validation(server)(code.toLowerCase());
    expect(status).toBe(200);
    expect(body.item.purchase_code).toBe(code);
    let error: unknown;
    try {
      server.store.addPurchase({ ...first, purchase_code: code.toLowerCase() });
    } catch (e) {
      error = e;
    }
    expect((error as Error).message).toBe(
      'reference server: the account holds that purchase code already (in some letter case)',
    );
    expect(
      server.store.purchases().filter((p) => p.purchase_code.toLowerCase() === code.toLowerCase()),
    ).toHaveLength(1);
  });
});

describe('reference server: the bin’s --purchase-code seeds, in any case', () => {
  it('a seed validates in any case; a second spelling of a code is kept once, so a refund ends every spelling', async () => {
    const supported = '5f3c2a10-1d2e-4f6a-9b8c-000000000001';
    const cli = parseCli([
      '--purchase-code',
      'My-Code-1',
      '--purchase-code',
      'MY-CODE-1',
      '--purchase-code',
      supported.toUpperCase(),
    ]);
    if (cli.kind !== 'run') throw new Error(`parsed as ${cli.kind}`);
    const server = createReferenceServer(cli.server);
    const ask = validation(server);
    for (const spelling of ['my-code-1', 'MY-CODE-1', 'My-Code-1']) {
      const { status, body } = await ask(spelling);
      expect(status).toBe(200);
      expect(body.item.purchase_code).toBe('My-Code-1');
    }
    // One purchase per code, as the real unique column holds: the seeded one keeps its spelling and its purchase.
    expect(serverInfo(server, at, '0.0.0').purchaseCodes.valid).toEqual([
      ...Object.values(server.fixtures.purchaseCodes).filter(
        (c) => c !== server.fixtures.purchaseCodes.invalid,
      ),
      'My-Code-1',
    ]);
    expect((await ask(supported.toUpperCase())).body.item.item.id).toBe(101);
    expect(server.store.refundPurchase('my-code-1')).toBe(true);
    for (const spelling of ['my-code-1', 'MY-CODE-1', 'My-Code-1'])
      expect(await ask(spelling)).toEqual(INVALID);
    // reset() reloads the seeds with the same rule.
    server.reset();
    expect((await ask('MY-CODE-1')).status).toBe(200);
    expect(
      server.store.purchases().filter((p) => p.purchase_code.toLowerCase() === 'my-code-1'),
    ).toHaveLength(1);
  });
});
