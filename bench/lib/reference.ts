// The answers the benchmark's four calls get: one reference server configuration for every section that times
// them (1, 1b, 1g, 2, 3 and bench/profile.ts), the checks that its answers are the real servers' shapes
// (REAL-SERVERS.md), and a replay of those answers byte for byte.
import {
  createReferenceServer,
  type FetchHandler,
  type ReferenceServer,
  SEED_MANAGEMENT_KEYS,
} from 'content-platform-sdk/testing';

/** Valid purchase codes beyond the seed's, for section 1e (many codes through the cache). */
export const PURCHASE_CODES = Array.from(
  { length: 50 },
  (_, i) => `b3c4e5f6-0000-4000-8000-${String(i).padStart(12, '0')}`,
);

/**
 * The server of sections 1–3: 12 + 188 pixels (two full pages of 100) and 9 + 50 items with media, in the default
 * `laravel` flavour, the real servers' wire shapes: phpShort's Laravel pages (`data`, `links`, `meta` with every
 * paginator field, `status`), `{ data, status }` for one pixel, Marketbob's items with HTML descriptions,
 * comma-separated `tags`, index-keyed `screenshots` objects and `options` maps, the purchase under `item`, and
 * PHP-escaped JSON (`\/`, `\uXXXX`). Every answer carries `X-RateLimit-Limit` and `X-RateLimit-Remaining`, with a limit
 * far away, so the SDK's throttle reads every answer as it does in production without ever holding a call.
 */
export function benchServer(): ReferenceServer {
  return createReferenceServer({
    seed: { pixels: 188, items: 50, purchaseCodes: PURCHASE_CODES },
    rateLimit: { limit: 1_000_000_000 },
  });
}

/** The four calls the sections time, as the requests bare fetch would make (keys filled in by `requests`). */
export const OPERATION_PATHS = {
  'pixels.get': '/api/v1/pixels/1',
  'pixels.list (100)': '/api/v1/pixels?per_page=100',
  'items.list (59)': '/api/items/all',
  'purchases.validate': '/api/purchases/validation',
} as const;

export type OperationName = keyof typeof OPERATION_PATHS;

/** One recorded answer: what a client reads off the wire (the HTTP adapter adds Date, Connection and framing). */
export interface Recorded {
  status: number;
  headers: [string, string][];
  text: string;
}

/** The keys and code the four calls use. */
export interface Keys {
  managementKey: string;
  catalogKey: string;
  purchaseCode: string;
}

/** The keys and code of a reference server's seed, as the four calls use them. */
export const keysOf = (server: ReferenceServer): Keys => ({
  managementKey: SEED_MANAGEMENT_KEYS[0] as string,
  catalogKey: server.keys.catalog[0] as string,
  purchaseCode: server.fixtures.purchaseCodes.supported,
});

/** The request each of the four calls makes, against `base`, as bare fetch would make it. */
export function requests(keys: Keys, base: string): Record<OperationName, Request> {
  const mgmt = { accept: 'application/json', authorization: `Bearer ${keys.managementKey}` };
  const cat = { accept: 'application/json' };
  return {
    'pixels.get': new Request(`${base}${OPERATION_PATHS['pixels.get']}`, { headers: mgmt }),
    'pixels.list (100)': new Request(`${base}${OPERATION_PATHS['pixels.list (100)']}`, { headers: mgmt }),
    'items.list (59)': new Request(`${base}/api/items/all?api_key=${keys.catalogKey}`, { headers: cat }),
    'purchases.validate': new Request(`${base}${OPERATION_PATHS['purchases.validate']}`, {
      method: 'POST',
      headers: { ...cat, 'content-type': 'application/json' },
      body: JSON.stringify({ purchase_code: keys.purchaseCode, api_key: keys.catalogKey }),
    }),
  };
}

/** Reads an answer as `record` keeps it. */
export async function recorded(response: Response): Promise<Recorded> {
  return { status: response.status, headers: [...response.headers], text: await response.text() };
}

/** The reference server's answer to each of the four calls, recorded once, its shape checked (`checkRealShape`). */
export async function record(
  server: ReferenceServer,
  base: string,
): Promise<Record<OperationName, Recorded>> {
  const out = {} as Record<OperationName, Recorded>;
  for (const [name, request] of Object.entries(requests(keysOf(server), base)) as [
    OperationName,
    Request,
  ][]) {
    const answer = await recorded(await server.fetch(request));
    checkRealShape(name, answer);
    out[name] = answer;
  }
  return out;
}

/** The recorded answer to a URL's path (the four calls' paths), `undefined` for any other path. */
export function answerer(answers: Record<OperationName, Recorded>): (url: string) => Response | undefined {
  const byPath = new Map<string, Recorded>();
  for (const [name, answer] of Object.entries(answers) as [OperationName, Recorded][]) {
    byPath.set((OPERATION_PATHS[name] as string).split('?')[0] as string, answer);
  }
  return (url) => {
    const answer = byPath.get(new URL(url).pathname);
    return answer && new Response(answer.text, { status: answer.status, headers: answer.headers });
  };
}

/**
 * A server that answers the four calls with `answers`, byte for byte (status, headers, body), whatever else the
 * request holds, and 404 to any other path: the same bytes as the reference server with next to no server work.
 * Served through the reference server's own node:http adapter (`listen`), so framing and added headers are alike.
 */
export function replay(answers: Record<OperationName, Recorded>): FetchHandler {
  const answer = answerer(answers);
  return {
    async fetch(request) {
      // The request body is read, as the reference server reads it, before the answer.
      await request.arrayBuffer();
      return (
        answer(request.url) ?? new Response('{"message":"Resource not found.","status":404}', { status: 404 })
      );
    },
  };
}

const LARAVEL_META = ['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total'];
const LARAVEL_LINKS = ['first', 'last', 'prev', 'next'];
const PIXEL = ['id', 'name', 'type', 'value', 'created_at', 'updated_at'];

type Json = Record<string, unknown>;
const keys = (x: unknown) => (typeof x === 'object' && x !== null ? Object.keys(x).sort() : []);
const same = (a: string[], b: string[]) => a.join() === [...b].sort().join();

/** An item as Marketbob sends it: HTML description, comma-separated tags, media with the kind's previews. */
function realItem(item: unknown): string | undefined {
  const i = item as Json;
  const media = i.media as Json | undefined;
  if (typeof i.description !== 'string' || !/<\w+[^>]*>/.test(i.description))
    return 'description is not HTML';
  if (typeof i.tags !== 'string') return 'tags is not a comma-separated string';
  if (!media || typeof media.thumbnail !== 'string') return 'media has no thumbnail';
  const shots = media.screenshots;
  if (shots !== undefined && shots !== null && (typeof shots !== 'object' || Array.isArray(shots)))
    return 'screenshots is not an index-keyed object';
  if (typeof (i.price as Json | undefined)?.regular !== 'number') return 'price.regular is not a number';
  return undefined;
}

/**
 * Throws unless `answer` is the real server's shape for the call (REAL-SERVERS.md): a 200, `X-RateLimit-Limit` and
 * `X-RateLimit-Remaining`, PHP-escaped JSON, and the call's body (see `benchServer`).
 */
export function checkRealShape(name: OperationName, answer: Recorded): void {
  const fail = (why: string) => {
    throw new Error(`bench payload for ${name} is not the real servers' shape: ${why}`);
  };
  const headers = new Headers(answer.headers);
  if (answer.status !== 200) fail(`status ${answer.status}`);
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining']) if (!headers.has(h)) fail(`no ${h} header`);
  if (!headers.get('content-type')?.startsWith('application/json')) fail('not application/json');
  if (/[^\x20-\x7e]/.test(answer.text)) fail('non-ASCII in the body (PHP writes \\uXXXX)');
  const body = JSON.parse(answer.text) as Json;
  if (/https?:\/\//.test(answer.text)) fail('unescaped slashes (PHP writes https:\\/\\/)');
  if (name === 'pixels.get') {
    if (body.status !== 200 || !same(keys(body.data), PIXEL)) fail('not { data: pixel, status: 200 }');
  } else if (name === 'pixels.list (100)') {
    const data = body.data as unknown[];
    if (!Array.isArray(data) || data.length !== 100) fail('not a full page of 100');
    if (!same(keys(body), ['data', 'links', 'meta', 'status'])) fail('not { data, links, meta, status }');
    if (!same(keys(body.links), LARAVEL_LINKS)) fail(`links has ${keys(body.links)}`);
    if (!same(keys(body.meta), LARAVEL_META)) fail(`meta has ${keys(body.meta)}`);
    if (!data.every((p) => same(keys(p), PIXEL))) fail('a pixel with other fields');
  } else if (name === 'items.list (59)') {
    const items = body.items as unknown[];
    if (typeof body.status !== 'string' || !Array.isArray(items) || items.length < 50)
      fail('not { status, items }');
    const why = items.map(realItem).find((w) => w !== undefined);
    if (why) fail(why);
    if (!items.some((i) => typeof ((i as Json).media as Json).screenshots === 'object'))
      fail('no screenshots');
  } else {
    // The server code sends the purchase under `item` (the docs say `data.purchase`).
    const purchase = body.item as Json | undefined;
    if (typeof body.status !== 'string' || typeof purchase?.purchase_code !== 'string')
      fail('not { status, item: purchase }');
    const why = realItem(purchase?.item);
    if (why) fail(`its item: ${why}`);
  }
}

/** A line describing an answer, for the report: size, headers, shape. */
export function describe(name: OperationName, answer: Recorded): string {
  const body = JSON.parse(answer.text) as Json;
  const rate = answer.headers.filter(([h]) => h.startsWith('x-ratelimit-')).map(([h]) => h);
  const shape =
    name === 'pixels.get'
      ? '`{ data: pixel, status }`'
      : name === 'pixels.list (100)'
        ? `\`{ data: [${(body.data as unknown[]).length}], links, meta: { ${LARAVEL_META.join(', ')} }, status }\``
        : name === 'items.list (59)'
          ? `\`{ status, items: [${(body.items as unknown[]).length}] }\`, HTML descriptions, comma tags, screenshots objects`
          : '`{ status, item: { purchase…, item } }`, the item as in the list';
  return `| ${name} | ${answer.text.length.toLocaleString('en')} B | ${shape} | ${rate.join(', ')} |`;
}
