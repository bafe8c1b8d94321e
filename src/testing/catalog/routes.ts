import type { Context } from '../context.js';
import { json, redirect } from '../core/json.js';
import { firstParamError, type ParamRule, param, readParams } from './params.js';
import { renderItem, renderPurchase } from './render.js';
import { sameCode } from './store.js';
import { CATALOG_WORDS } from './words.js';

type Words = (typeof CATALOG_WORDS)['ar' | 'en'];

interface Route {
  method: 'GET' | 'POST';
  rules: Record<string, ParamRule>;
  /** The message (and HTTP status) for an unknown key on this endpoint. */
  badKey: [keyof Words, number];
  answer(ctx: Context, key: string, params: Map<string, unknown>, words: Words): Response;
}

const BROWSER = /Mozilla|Chrome|Firefox|Opera|Edge/;

/** The Catalog paths this server knows, relative to `/api/`. */
export const CATALOG_ROUTES: Record<string, Route> = {
  'account/details': {
    method: 'GET',
    rules: { api_key: 'string' },
    badKey: ['requestUnsuccessful', 401],
    answer: (ctx, key, _p, words) => ok(ctx, words, { data: ctx.store.account(key) }),
  },
  'items/all': {
    method: 'GET',
    rules: { api_key: 'string' },
    badKey: ['noItems', 404],
    answer: (ctx, key, _p, words) => {
      const items = ctx.store.items(key);
      if (items.length === 0) return fail(ctx, words, 'noItems', 404);
      return ok(ctx, words, { items: items.map((item) => renderItem(item, ctx.flavor)) });
    },
  },
  'items/item': {
    method: 'GET',
    rules: { api_key: 'string', item_id: 'integer' },
    badKey: ['itemNotFound', 404],
    answer: (ctx, key, params, words) => {
      const id = Number(param(params, 'item_id'));
      const item = ctx.store.items(key).find((i) => i.id === id);
      if (!item) return fail(ctx, words, 'itemNotFound', 404);
      return ok(ctx, words, { item: renderItem(item, ctx.flavor) });
    },
  },
  'purchases/validation': {
    method: 'POST',
    rules: { api_key: 'string', purchase_code: 'string' },
    badKey: ['invalidPurchaseCode', 404],
    answer: (ctx, key, params, words) => {
      // A code in any letter case, as the real server's MySQL lookup matches it; the answer shows the stored spelling.
      const code = param(params, 'purchase_code');
      const purchase = ctx.store.purchases(key).find((p) => sameCode(p.purchase_code, code));
      const item = purchase && ctx.store.items(key).find((i) => i.id === purchase.item_id);
      if (!purchase || !item) return fail(ctx, words, 'invalidPurchaseCode', 404);
      const body = renderPurchase(purchase, item, ctx.flavor, ctx.locale);
      return ok(ctx, words, ctx.flavor === 'laravel' ? { item: body } : { data: { purchase: body } });
    },
  },
};

/**
 * Answers a Catalog request (`path` relative to `/api/`), or returns null when the path is not a Catalog one.
 * Browsers (by User-Agent) are redirected to the site root before anything else.
 */
export async function handleCatalog(ctx: Context, path: string): Promise<Response | null> {
  const route = CATALOG_ROUTES[path];
  if (!route) return null;
  if (BROWSER.test(ctx.request.headers.get('user-agent') ?? ''))
    return redirect(`${ctx.url.origin}${ctx.prefix}/`);
  const method = ctx.request.method === 'HEAD' ? 'GET' : ctx.request.method;
  if (method !== route.method) {
    const allowed = route.method === 'GET' ? 'GET, HEAD' : 'POST';
    const message = `The ${ctx.request.method} method is not supported for route api/${path}. Supported methods: ${allowed}.`;
    return json({ message }, 405, ctx.flavor, { allow: allowed });
  }
  const words = CATALOG_WORDS[ctx.locale];
  const params = await readParams(ctx.request, ctx.url);
  const invalid = firstParamError(params, route.rules);
  if (invalid !== null) return json({ status: words.error, msg: invalid }, 400, ctx.flavor);
  const key = param(params, 'api_key');
  if (ctx.store.account(key) === undefined) return fail(ctx, words, ...route.badKey);
  return route.answer(ctx, key, params, words);
}

function ok(ctx: Context, words: Words, body: Record<string, unknown>): Response {
  return json({ status: words.success, ...body }, 200, ctx.flavor);
}

function fail(ctx: Context, words: Words, msg: keyof Words, status: number): Response {
  return json({ status: words.error, msg: words[msg] }, status, ctx.flavor);
}
