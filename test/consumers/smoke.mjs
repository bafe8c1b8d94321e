// The smoke test that every consumer project and every runtime runs against the installed tarball.
// It takes the package's two entry points as arguments (so a CommonJS consumer passes what `require`
// gave it) and drives both clients against the reference server from the same tarball.

/**
 * @param {typeof import('content-platform-sdk')} sdk the package's main entry
 * @param {typeof import('content-platform-sdk/testing')} testing its `/testing` entry
 * @param {{ transport?: 'http' | 'in-process' }} [options] `http`: `listen()` on 127.0.0.1 (default);
 *   `in-process`: the server's `fetch` handler as the clients' `fetch`, for runtimes without node:http
 * @returns {Promise<{ transport: string, checks: number }>}
 */
export async function smoke(sdk, testing, { transport = 'http' } = {}) {
  let checks = 0;
  const check = (ok, what) => {
    if (!ok) throw new Error(`smoke check failed: ${what}`);
    checks++;
  };
  const rejects = async (promise, Class, what) => {
    try {
      await promise;
    } catch (error) {
      check(error instanceof Class && error instanceof sdk.ContentPlatformError, `${what}: ${error}`);
      check(error.name === Class.name, `${what}: name is ${error.name}`);
      return error;
    }
    throw new Error(`smoke check failed: ${what} did not reject`);
  };

  const api = testing.createReferenceServer();
  let baseUrl = 'https://links.reference.test';
  let siteUrl = 'https://market.reference.test';
  let fetch;
  let close = async () => {};
  if (transport === 'http') {
    const server = await testing.listen(api, { port: 0 });
    check(server.url.startsWith('http://127.0.0.1:'), `listen() is on loopback: ${server.url}`);
    baseUrl = siteUrl = server.url;
    close = server.close;
  } else {
    fetch = api.fetch;
  }

  try {
    const transportOption = fetch ? { fetch } : {};
    const mgmt = new sdk.ManagementClient({ baseUrl, apiKey: api.keys.management[0], ...transportOption });
    const pixel = await mgmt.pixels.create({ name: 'Smoke', type: 'facebook', value: '123' });
    check(Number.isInteger(pixel.id) && pixel.name === 'Smoke', 'pixels.create');

    const page = await mgmt.pixels.list({ per_page: 10 });
    check(Array.isArray(page.data) && page.data.length > 0 && page.meta.total >= 1, 'pixels.list');
    const ids = [];
    for await (const p of mgmt.pixels.list({ per_page: 10 })) ids.push(p.id);
    check(ids.length === page.meta.total && ids.includes(pixel.id), 'for await over every page');

    const { data, response } = await mgmt.pixels.get(pixel.id).withResponse();
    check(data.id === pixel.id && response.status === 200, 'pixels.get().withResponse()');
    check((await mgmt.pixels.delete(pixel.id)).deleted === true, 'pixels.delete');
    const notFound = await rejects(mgmt.pixels.get(pixel.id), sdk.NotFoundError, 'get a deleted pixel');
    check(notFound instanceof sdk.APIError && notFound.status === 404, 'NotFoundError is a 404 APIError');
    const bad = await rejects(mgmt.pixels.list({ per_page: 30 }), sdk.InvalidParamsError, 'per_page 30');
    check(bad.param === 'per_page', 'InvalidParamsError names per_page');

    const catalog = new sdk.CatalogClient({ siteUrl, apiKey: api.keys.catalog[0], ...transportOption });
    check(typeof (await catalog.account.details()).username === 'string', 'account.details');
    const items = await catalog.items.list();
    check(items.length > 0 && items.every((i) => Array.isArray(i.tags)), 'items.list');
    check((await catalog.items.get(items[0].id)).id === items[0].id, 'items.get');
    const missing = await rejects(
      catalog.items.get(api.fixtures.itemIds.missing),
      sdk.ItemNotFoundError,
      'get a missing item',
    );
    check(missing instanceof sdk.CatalogError && missing.code === 'item_not_found', 'ItemNotFoundError code');
    const purchase = await catalog.purchases.validate(api.fixtures.purchaseCodes.supported);
    check(typeof purchase.license_type === 'string', 'purchases.validate');
    await rejects(
      catalog.purchases.validate(api.fixtures.purchaseCodes.invalid),
      sdk.InvalidPurchaseCodeError,
      'an invalid purchase code',
    );
  } finally {
    await close();
  }
  return { transport, checks };
}

/** Names the runtime this runs on, with its version. */
export function runtimeName() {
  const g = globalThis;
  if (g.Bun) return `bun ${g.Bun.version}`;
  if (g.Deno) return `deno ${g.Deno.version.deno}`;
  if (g.process?.versions?.node) return `node ${g.process.versions.node}`;
  return g.navigator?.userAgent ?? 'unknown runtime';
}
