import { expect, it } from 'vitest';
import {
  AccountRequestError,
  AuthenticationError,
  CatalogClient,
  InvalidParamsError,
  InvalidPurchaseCodeError,
  ItemNotFoundError,
  isAudioItem,
  isImageItem,
  isVideoItem,
  ManagementClient,
  NoItemsError,
  NotFoundError,
  type Pixel,
  RateLimitError,
  UnprocessableEntityError,
} from '../../src/index.js';
import type { Flavor, ReferenceServer, ReferenceServerOptions } from '../../src/testing/index.js';
import { failure } from '../helpers/failure.js';

/** What one adapter (msw or node:http) gives the shared scenarios. */
export interface Connected {
  server: ReferenceServer;
  baseUrl: string;
  siteUrl: string;
}

/** Builds the two clients for a connection; `key` picks another workspace or a wrong key. */
export function clients(c: Connected, keys: { mgmt?: string; catalog?: string } = {}) {
  return {
    mgmt: new ManagementClient({
      baseUrl: c.baseUrl,
      apiKey: keys.mgmt ?? c.server.keys.management[0]!,
      maxRetries: 0,
    }),
    catalog: new CatalogClient({
      siteUrl: c.siteUrl,
      apiKey: keys.catalog ?? c.server.keys.catalog[0]!,
      maxRetries: 0,
    }),
  };
}

const alpha = (c: Connected) => c.server.keys.management[0]!;
const byName = (a: Pixel, b: Pixel) =>
  a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id;

/**
 * The fourteen operations and every error condition, end to end: SDK → adapter → reference server.
 * `connect` is called per test (a fresh, reset server each time).
 */
export function defineScenarios(
  flavor: Flavor,
  connect: (options?: ReferenceServerOptions) => Promise<Connected>,
) {
  it('pixels.list filters and sorts as asked, and the result matches the store', async () => {
    const c = await connect();
    const page = await clients(c).mgmt.pixels.list({
      type: 'facebook',
      sort_by: 'name',
      sort: 'asc',
      per_page: 25,
    });
    const expected = c.server.store
      .pixels(alpha(c))
      .filter((p) => p.type === 'facebook')
      .sort(byName);
    expect(page.data).toEqual(expected);
    expect(page.meta).toMatchObject({ current_page: 1, last_page: 1, per_page: 25, total: expected.length });
    expect(page.hasNextPage()).toBe(false);
  });

  it('pixels.list pages: for await walks every pixel across pages with the filters carried', async () => {
    const c = await connect();
    const { mgmt } = clients(c);
    for (let i = 0; i < 23; i += 1)
      await mgmt.pixels.create({ name: `Bulk ${i}`, type: 'bing', value: String(i) });
    const walked: Pixel[] = [];
    for await (const pixel of mgmt.pixels.list({
      type: 'bing',
      search: 'bulk',
      sort_by: 'id',
      sort: 'asc',
      per_page: 10,
    }))
      walked.push(pixel);
    expect(walked.map((p) => p.name)).toEqual(Array.from({ length: 23 }, (_, i) => `Bulk ${i}`));
    const listed = c.server.requests.filter(
      (r) => r.method === 'GET' && new URL(r.url).pathname === '/api/v1/pixels',
    );
    expect(listed.map((r) => new URL(r.url).search)).toEqual([
      '?search=bulk&type=bing&sort_by=id&sort=asc&per_page=10',
      '?search=bulk&type=bing&sort_by=id&sort=asc&per_page=10&page=2',
      '?search=bulk&type=bing&sort_by=id&sort=asc&per_page=10&page=3',
    ]);
  });

  it('pixels.create, get, update (only the sent fields) and delete', async () => {
    const c = await connect();
    const { mgmt } = clients(c);
    const created = await mgmt.pixels.create({ name: 'E2E بكسل 🚀', type: 'linkedin', value: 'a&b=c+d' });
    expect(created).toMatchObject({ name: 'E2E بكسل 🚀', type: 'linkedin', value: 'a&b=c+d' });
    expect(created.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(c.server.store.pixels(alpha(c)).at(-1)).toEqual(created);
    await expect(mgmt.pixels.get(created.id)).resolves.toEqual(created);
    const updated = await mgmt.pixels.update(created.id, { value: 'v2' });
    expect(updated).toMatchObject({ id: created.id, name: 'E2E بكسل 🚀', type: 'linkedin', value: 'v2' });
    await expect(mgmt.pixels.delete(created.id)).resolves.toEqual({
      id: created.id,
      object: 'pixel',
      deleted: true,
    });
    expect(c.server.store.pixels(alpha(c)).some((p) => p.id === created.id)).toBe(false);
    expect(await failure(mgmt.pixels.get(created.id))).toBeInstanceOf(NotFoundError);
  });

  it('domains.list, create, get, update and delete', async () => {
    const c = await connect();
    const { mgmt } = clients(c);
    const list = await mgmt.domains.list({ sort_by: 'name', sort: 'asc' });
    expect(list.data.map((d) => d.name)).toEqual(
      c.server.store
        .domains(alpha(c))
        .map((d) => d.name)
        .sort(),
    );
    const domain = await mgmt.domains.create({
      name: 'e2e.example.org',
      not_found_page: 'https://example.org/404',
    });
    expect(domain).toMatchObject({
      name: 'e2e.example.org',
      url: 'https://e2e.example.org',
      index_page: null,
      not_found_page: 'https://example.org/404',
    });
    await expect(mgmt.domains.get(domain.id)).resolves.toEqual(domain);
    const updated = await mgmt.domains.update(domain.id, { index_page: 'https://example.org/' });
    expect(updated).toMatchObject({
      name: 'e2e.example.org',
      index_page: 'https://example.org/',
      not_found_page: 'https://example.org/404',
    });
    await expect(mgmt.domains.delete(domain.id)).resolves.toEqual({
      id: domain.id,
      object: 'domain',
      deleted: true,
    });
    expect(await failure(mgmt.domains.get(domain.id))).toBeInstanceOf(NotFoundError);
  });

  it('Management errors: wrong key, another workspace, taken and too long names, bad params', async () => {
    const c = await connect();
    const { mgmt } = clients(c);
    expect(await failure(clients(c, { mgmt: 'wrong-key' }).mgmt.pixels.list())).toBeInstanceOf(
      AuthenticationError,
    );
    const beta = c.server.store.pixels(c.server.keys.management[1]!)[0]!;
    expect(await failure(mgmt.pixels.get(beta.id))).toBeInstanceOf(NotFoundError);
    const taken = (await failure(
      mgmt.pixels.create({ name: c.server.store.pixels(alpha(c))[0]!.name, type: 'x', value: '1' }),
    )) as UnprocessableEntityError;
    expect(taken).toBeInstanceOf(UnprocessableEntityError);
    expect(taken.fieldErrors).toEqual({ name: ['The name has already been taken.'] });
    const before = c.server.requests.length;
    // The real servers' limit on a pixel name (32 characters) is checked before sending.
    const long = await failure(mgmt.pixels.create({ name: 'x'.repeat(33), type: 'x', value: '1' }));
    expect(long).toBeInstanceOf(InvalidParamsError);
    expect((long as InvalidParamsError).param).toBe('name');
    // @ts-expect-error 30 is not an allowed per_page
    expect(await failure(mgmt.pixels.list({ per_page: 30 }))).toBeInstanceOf(InvalidParamsError);
    // @ts-expect-error 'tiktok' is not a pixel type
    expect(await failure(mgmt.pixels.create({ name: 'T', type: 'tiktok', value: '1' }))).toBeInstanceOf(
      InvalidParamsError,
    );
    expect(await failure(mgmt.pixels.get('../1'))).toBeInstanceOf(InvalidParamsError);
    expect(c.server.requests.length).toBe(before);
  });

  it('account.details and items.list match the store', async () => {
    const c = await connect();
    const { catalog } = clients(c);
    const account = await catalog.account.details();
    const stored = c.server.store.account(c.server.keys.catalog[0]!)!;
    expect(account).toMatchObject({
      username: stored.username,
      email: stored.email,
      balance: stored.balance,
    });
    expect(account.profile.heading).toBe(stored.profile.heading);
    expect(account.profile.social_links).toEqual(stored.profile.social_links ?? {});
    const items = await catalog.items.list();
    expect(items.map((i) => i.id)).toEqual(c.server.store.items().map((i) => i.id));
    expect(items.filter(isImageItem).map((i) => i.id)).toEqual(c.server.fixtures.itemIds.image);
    expect(items.filter(isAudioItem).map((i) => i.id)).toEqual(c.server.fixtures.itemIds.audio);
    expect(items.filter(isVideoItem).map((i) => i.id)).toEqual(c.server.fixtures.itemIds.video);
    for (const item of items)
      expect(Array.isArray(item.tags) && Array.isArray(item.media.screenshots ?? [])).toBe(true);
  });

  it('items.get gives each media kind with its own fields', async () => {
    const c = await connect();
    const { catalog } = clients(c);
    const [image, audio, video] = await Promise.all([101, 104, 107].map((id) => catalog.items.get(id)));
    const stored = c.server.store.items().find((i) => i.id === 101)!;
    expect(image).toMatchObject({
      id: 101,
      tags: stored.tags,
      media: { kind: 'image', screenshots: stored.media.screenshots },
    });
    expect(audio?.media.kind).toBe('audio');
    expect(audio && isAudioItem(audio) ? audio.media.preview_audio : undefined).toMatch(/^https:\/\//);
    expect(video && isVideoItem(video) ? video.media.preview_video : undefined).toMatch(/^https:\/\//);
  });

  it('purchases.validate: supported, expired, support disabled, downloaded', async () => {
    const c = await connect();
    const { catalog } = clients(c);
    const codes = c.server.fixtures.purchaseCodes;
    const supported = await catalog.purchases.validate(codes.supported);
    expect(supported).toMatchObject({ purchase_code: codes.supported, item: { id: 101 } });
    expect(supported.supported_until).toBe('2099-12-31T23:59:59.000000Z');
    const expired = await catalog.purchases.validate(codes.supportExpired);
    expect(Date.parse(expired.supported_until!)).toBeLessThan(Date.now());
    const disabled = await catalog.purchases.validate(codes.supportDisabled);
    expect('supported_until' in disabled).toBe(false);
    expect((await catalog.purchases.validate(codes.downloaded)).downloaded).toBe(true);
    // The key travels in the JSON body of the POST, never in its URL.
    const posts = c.server.requests.filter((r) => r.method === 'POST');
    expect(posts.every((r) => !new URL(r.url).search.includes('api_key'))).toBe(true);
  });

  it('Catalog errors: each condition of spec §7 as its class, msg verbatim', async () => {
    const c = await connect();
    const { catalog } = clients(c);
    const item = (await failure(catalog.items.get(c.server.fixtures.itemIds.missing))) as ItemNotFoundError;
    expect(item).toBeInstanceOf(ItemNotFoundError);
    expect(item.msg).toBe('المنتج غير موجود');
    const code = (await failure(
      catalog.purchases.validate(c.server.fixtures.purchaseCodes.invalid),
    )) as InvalidPurchaseCodeError;
    expect(code).toBeInstanceOf(InvalidPurchaseCodeError);
    expect(code.msg).toBe('كود الشراء غير صحيح');
    const noItems = await failure(clients(c, { catalog: c.server.keys.catalog[1]! }).catalog.items.list());
    expect(noItems).toBeInstanceOf(NoItemsError);
    const account = await failure(clients(c, { catalog: 'wrong-key' }).catalog.account.details());
    expect(account).toBeInstanceOf(AccountRequestError);
    expect((account as AccountRequestError).status).toBe(401);
    expect(await failure(catalog.items.get(-1))).toBeInstanceOf(InvalidParamsError);
  });

  it('answers 429 past the rate limit, read as RateLimitError with retryAfter', async () => {
    const c = await connect({ rateLimit: { limit: 2 } });
    const { mgmt } = clients(c);
    const { response } = await mgmt.pixels.get(1).withResponse();
    expect(response.headers.get('x-ratelimit-limit')).toBe('2');
    expect(response.headers.get('x-ratelimit-remaining')).toBe('1');
    await mgmt.pixels.get(1);
    const error = (await failure(mgmt.pixels.get(1))) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfter).toBeGreaterThan(0);
    expect(error.retryAfter).toBeLessThanOrEqual(60);
  });

  it(`keeps ${flavor} shapes apart from the SDK: tags and screenshots arrive normalised`, async () => {
    const c = await connect();
    const raw = await c.server.fetch(
      new Request(`${c.siteUrl}/api/items/item?item_id=101&api_key=${c.server.keys.catalog[0]}`, {
        headers: { accept: 'application/json' },
      }),
    );
    const body = (await raw.json()) as { item: { tags: unknown; media: { screenshots: unknown } } };
    expect(typeof body.item.tags).toBe(flavor === 'laravel' ? 'string' : 'object');
    expect(Array.isArray(body.item.media.screenshots)).toBe(flavor === 'spec');
    const item = await clients(c).catalog.items.get(101);
    expect(Array.isArray(item.tags) && Array.isArray(item.media.screenshots)).toBe(true);
  });
}
