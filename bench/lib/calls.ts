// The four clients side by side — the SDK, bare ky, raw fetch and openai-node's generic request methods — each
// making the same four calls against one base URL. Sections 1, 1b and 2 time these, over a socket or over a
// canned in-memory fetch.
import { CatalogClient, ManagementClient } from 'content-platform-sdk';
import ky from 'ky';
import OpenAI from 'openai';

export type Call = () => Promise<unknown>;
export type FetchFn = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

/** The variants, in the order of every `calls` array below. */
export const VARIANTS = ['sdk', 'ky', 'fetch', 'openai'] as const;

export interface Operation {
  name: string;
  /** One call per variant, in the order of VARIANTS. */
  calls: [sdk: Call, ky: Call, fetch: Call, openai: Call];
  /** Is the SDK's (parsed, unwrapped) answer the right one? */
  sdkOk: (answer: unknown) => boolean;
  /** Is a raw body (bare ky, fetch, openai) the right one? */
  bodyOk: (body: unknown) => boolean;
}

export interface Endpoint {
  base: string;
  managementKey: string;
  catalogKey: string;
  purchaseCode: string;
  /** A fetch for every variant; the global one when absent. */
  fetch?: FetchFn;
  /** The SDK clients' `rateLimit.maxConcurrent`; their default (16 in flight) when absent. */
  maxConcurrent?: number;
}

export function operations(e: Endpoint): Operation[] {
  const custom = e.fetch ? { fetch: e.fetch } : {};
  const send = e.fetch ?? fetch;
  const mgmtHeaders = {
    accept: 'application/json',
    'user-agent': 'content-platform-sdk/bench',
    authorization: `Bearer ${e.managementKey}`,
  };
  const catHeaders = { accept: 'application/json', 'user-agent': 'content-platform-sdk/bench' };
  const postJson = { ...catHeaders, 'content-type': 'application/json' };
  const sdk =
    e.maxConcurrent === undefined ? custom : { ...custom, rateLimit: { maxConcurrent: e.maxConcurrent } };
  const mgmt = new ManagementClient({ baseUrl: e.base, apiKey: e.managementKey, ...sdk });
  const catalog = new CatalogClient({ siteUrl: e.base, apiKey: e.catalogKey, ...sdk });
  const kyMgmt = ky.create({ prefix: `${e.base}/api/v1/`, headers: mgmtHeaders, ...custom });
  const kyCat = ky.create({ prefix: `${e.base}/api/`, headers: catHeaders, ...custom });
  // organization/project null: never pick up OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment.
  const openai = { maxRetries: 2, organization: null, project: null, ...custom };
  const oaiMgmt = new OpenAI({ baseURL: `${e.base}/api/v1`, apiKey: e.managementKey, ...openai });
  // The Catalog API authenticates with a query parameter; openai-node insists on a key, sent as a bearer token.
  const oaiCat = new OpenAI({ baseURL: `${e.base}/api`, apiKey: 'unused', ...openai });
  const raw = async (url: string, init: RequestInit) => {
    const res = await send(url, init);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return res.json();
  };
  const validation = () => ({ purchase_code: e.purchaseCode, api_key: e.catalogKey });
  const has = (x: unknown, key: string) => (x as Record<string, unknown> | null)?.[key];
  return [
    {
      name: 'pixels.get',
      calls: [
        () => mgmt.pixels.get(1),
        () => kyMgmt.get('pixels/1').json(),
        () => raw(`${e.base}/api/v1/pixels/1`, { headers: mgmtHeaders }),
        () => oaiMgmt.get('/pixels/1'),
      ],
      sdkOk: (a) => has(a, 'id') === 1,
      bodyOk: (b) => has(has(b, 'data'), 'id') === 1,
    },
    {
      name: 'pixels.list (100)',
      calls: [
        () => mgmt.pixels.list({ per_page: 100 }),
        () => kyMgmt.get('pixels', { searchParams: { per_page: 100 } }).json(),
        () => raw(`${e.base}/api/v1/pixels?per_page=100`, { headers: mgmtHeaders }),
        () => oaiMgmt.get('/pixels', { query: { per_page: 100 } }),
      ],
      sdkOk: (a) => (has(a, 'data') as unknown[] | undefined)?.length === 100,
      bodyOk: (b) => (has(b, 'data') as unknown[] | undefined)?.length === 100,
    },
    {
      name: 'items.list (59)',
      calls: [
        () => catalog.items.list(),
        () => kyCat.get('items/all', { searchParams: { api_key: e.catalogKey } }).json(),
        () => raw(`${e.base}/api/items/all?api_key=${e.catalogKey}`, { headers: catHeaders }),
        () => oaiCat.get('/items/all', { query: { api_key: e.catalogKey } }),
      ],
      sdkOk: (a) => Array.isArray(a) && a.length >= 50,
      bodyOk: (b) => ((has(b, 'items') as unknown[] | undefined)?.length ?? 0) >= 50,
    },
    {
      name: 'purchases.validate',
      calls: [
        () => catalog.purchases.validate(e.purchaseCode),
        () => kyCat.post('purchases/validation', { json: validation() }).json(),
        () =>
          raw(`${e.base}/api/purchases/validation`, {
            method: 'POST',
            headers: postJson,
            body: JSON.stringify(validation()),
          }),
        () => oaiCat.post('/purchases/validation', { body: validation() }),
      ],
      sdkOk: (a) => has(a, 'purchase_code') === e.purchaseCode,
      bodyOk: (b) => has(has(b, 'item'), 'purchase_code') === e.purchaseCode,
    },
  ];
}

/**
 * Makes each of `op`'s calls once and throws unless every answer is the right one: the SDK's is checked on its
 * own, and bare ky, fetch and openai must all return the same body, which must be the right one.
 */
export async function check(op: Operation): Promise<void> {
  for (const [i, call] of op.calls.entries()) {
    const answer = await call();
    const name = VARIANTS[i];
    const ok = i === 0 ? op.sdkOk(answer) : op.bodyOk(answer);
    const same = i === 0 || JSON.stringify(answer) === JSON.stringify(await op.calls[1]());
    if (!ok || !same) {
      const why = ok ? 'a different body from bare ky' : 'an unexpected answer';
      throw new Error(`${op.name}, ${name}: ${why}: ${JSON.stringify(answer).slice(0, 200)}`);
    }
  }
}
