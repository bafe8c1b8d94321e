import { bearer, type Context, wantsJson } from '../context.js';
import { json, redirect } from '../core/json.js';
import { readForm, validate } from './laravel-validation.js';
import { listRecords } from './list.js';
import { DOMAINS, PIXELS, type ResourceDef } from './resources.js';

const RESOURCES = { pixels: PIXELS, domains: DOMAINS } as const;

/** The Management 404 body (unknown route, unknown id, another workspace's id). */
export function notFound(ctx: Context): Response {
  return json({ message: 'Resource not found.', status: 404 }, 404, ctx.flavor);
}

/**
 * A Laravel auth/throttle failure: JSON when the request asks for it (or always, in the spec flavor);
 * otherwise the real server's 302 to `/login`.
 */
export function guardFailure(
  ctx: Context,
  status: 401 | 429,
  headers: Record<string, string> = {},
): Response {
  if (ctx.flavor === 'laravel' && !wantsJson(ctx.request))
    return redirect(`${ctx.url.origin}${ctx.prefix}/login`);
  const message = status === 401 ? 'Unauthenticated.' : 'Too Many Attempts.';
  return json({ message }, status, ctx.flavor, headers);
}

function methodNotAllowed(ctx: Context, path: string, allowed: string): Response {
  const message = `The ${ctx.request.method} method is not supported for route ${path}. Supported methods: ${allowed}.`;
  return json({ message, status: 405 }, 405, ctx.flavor, { allow: allowed });
}

/** Answers `/api/v1/{pixels|domains}[/{id}]`; `segments` is the path after `/api/v1/`. */
export async function handleManagement(ctx: Context, segments: readonly string[]): Promise<Response> {
  const [name, rawId, ...extra] = segments;
  if (name !== 'pixels' && name !== 'domains') return notFound(ctx);
  if (extra.length > 0 || rawId === '') return notFound(ctx);
  const method = ctx.request.method;
  const isItem = rawId !== undefined;
  const allowed = isItem ? 'GET, HEAD, PUT, PATCH, DELETE' : 'GET, HEAD, POST';
  if (!allowed.split(', ').includes(method)) {
    return methodNotAllowed(ctx, `api/v1/${name}${isItem ? `/${rawId}` : ''}`, allowed);
  }
  const key = bearer(ctx.request);
  if (key === null || !ctx.store.hasWorkspace(key)) return guardFailure(ctx, 401);

  const def = RESOURCES[name] as ResourceDef<{ id: number; name: string; updated_at: string }>;
  if (!isItem) {
    if (method === 'POST') return create(ctx, def, key);
    return json(listRecords(ctx, name, def.all(ctx.store, key)), 200, ctx.flavor);
  }
  const record = /^\d+$/.test(rawId) ? def.find(ctx.store, key, Number(rawId)) : undefined;
  if (!record) return notFound(ctx);
  if (method === 'DELETE') {
    def.remove(ctx.store, key, record.id);
    return json({ id: record.id, object: def.object, deleted: true, status: 200 }, 200, ctx.flavor);
  }
  if (method === 'PUT' || method === 'PATCH') {
    const input = await readForm(ctx.request);
    const errors = validate(input, def.rules(ctx.store, key, record));
    if (errors) return json({ message: errors, status: 422 }, 422, ctx.flavor);
    return json({ data: ctx.store.touch(record, def.changes(input)), status: 200 }, 200, ctx.flavor);
  }
  return json({ data: record, status: 200 }, 200, ctx.flavor);
}

async function create<T extends { id: number; name: string; updated_at: string }>(
  ctx: Context,
  def: ResourceDef<T>,
  key: string,
): Promise<Response> {
  const input = await readForm(ctx.request);
  const errors = validate(input, def.rules(ctx.store, key));
  if (errors) return json({ message: errors, status: 422 }, 422, ctx.flavor);
  return json({ data: def.create(ctx.store, key, input), status: 200 }, 201, ctx.flavor);
}
