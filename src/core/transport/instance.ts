import { type BeforeErrorHook, type BeforeRetryHook, type Hooks, type KyInstance, replaceOption } from 'ky';
import type { ResolvedOptions } from './options.js';
import type { Send } from './read-fetch.js';
import type { ApiConfig } from './request.js';

/** A client's ky instance, and what its calls need to know about it. */
export interface ClientInstance {
  ky: KyInstance;
  /** Whether ky will clone answers (an afterResponse hook or a progress callback of the instance or client). */
  rebuild: boolean;
  /**
   * Whether a call's body may go to the platform's fetch with each attempt instead of into ky's Request (see
   * `carryBody`): nothing of the user's sees that Request or the body (no hook, `fetch`, upload progress or
   * `stringifyJson` of the instance or the client).
   */
  carries: boolean;
}

/** The SDK's own policy for the instance: the same for every call of the client. */
export interface InstancePolicy {
  /** The retry's turn under the throttle: runs after every other `beforeRetry` hook of the client. */
  beforeRetry: BeforeRetryHook | undefined;
  /** Runs before every other `beforeError` hook, the `ky` instance's included. */
  beforeError: BeforeErrorHook;
  /** The client's fetch for every attempt, given how attempts are sent (`undefined`: the global fetch). */
  fetch(send: Send | undefined): (input: Request | URL | string, init?: RequestInit) => Promise<Response>;
}

/**
 * Extends `base` (the user's ky instance, or ky) once with everything the same for every call, since ky merges
 * again whatever a call passes: headers and key, timeouts, redirect policy, client hooks. Calls pass absolute URLs.
 */
export function clientInstance(
  base: KyInstance,
  options: ResolvedOptions,
  api: ApiConfig,
  policy: InstancePolicy,
): ClientInstance {
  const built: ClientInstance = { ky: base, rebuild: false, carries: false };
  const custom = options.fetch;
  built.ky = base.extend((parent) => {
    const inherited = parent.fetch;
    let send: Send | undefined;
    if (custom) send = (request) => custom(request);
    else if (inherited) send = (request, init) => inherited(request, init);
    built.rebuild = Boolean(
      options.hooks?.afterResponse?.length ||
        parent.hooks?.afterResponse?.length ||
        parent.onDownloadProgress,
    );
    built.carries =
      send === undefined &&
      !hasHooks(parent.hooks) &&
      !hasHooks(options.hooks) &&
      parent.onUploadProgress === undefined &&
      parent.stringifyJson === undefined;
    return {
      // Calls send absolute URLs (the API root and the path, joined once): no prefix for ky to join on every call,
      // and an instance's own prefix is emptied so it cannot move them.
      ...(parent.prefix ? { prefix: '' } : {}),
      headers: {
        accept: 'application/json',
        'user-agent': options.userAgent,
        ...options.headers,
        ...(api.credentials.kind === 'bearer' ? { authorization: `Bearer ${options.apiKey}` } : {}),
      },
      timeout: options.timeout,
      fetch: policy.fetch(send),
      // Set only where needed: every default key is merged again into each call.
      ...(options.totalTimeout !== undefined || parent.totalTimeout !== undefined
        ? { totalTimeout: options.totalTimeout ?? false }
        : {}),
      ...(parent.throwHttpErrors === undefined ? {} : { throwHttpErrors: true }),
      // A call passes its own retry rules, and its method unless a GET: an instance's are dropped, not merged with them.
      ...(parent.retry === undefined ? {} : { retry: replaceOption({}) }),
      ...(parent.method === undefined ? {} : { method: 'GET' }),
      // A call sends its own body or none: an instance's would go with every GET (a TypeError) and replace a form.
      ...(parent.json === undefined && parent.body === undefined ? {} : { json: undefined, body: null }),
      // Redirects are never followed: a 307 would carry the key (header or body) to wherever it points.
      redirect: 'manual',
      // The instance's hooks, then the client's, with the SDK's at each end: set whole, as ky would append.
      hooks: replaceOption(hookLists(parent.hooks, options.hooks, policy)),
      // The client's key is the only one sent: an `api_key` of the instance would ride along (PHP reads the last).
      ...(parent.searchParams === undefined
        ? {}
        : { searchParams: replaceOption(withoutKey(parent.searchParams)) }),
    };
  });
  return built;
}

const HOOK_NAMES = ['init', 'beforeRequest', 'beforeRetry', 'beforeError', 'afterResponse'] as const;

/** Each hook list: the instance's, then the client's, with the SDK's turn last and its error scrub first. */
function hookLists(inherited: Hooks | undefined, own: Hooks | undefined, policy: InstancePolicy): Hooks {
  const lists: Record<string, unknown[]> = {};
  for (const name of HOOK_NAMES) lists[name] = [...(inherited?.[name] ?? []), ...(own?.[name] ?? [])];
  if (policy.beforeRetry) lists.beforeRetry?.push(policy.beforeRetry);
  lists.beforeError?.unshift(policy.beforeError);
  return lists as Hooks;
}

/** Whether any hook list of `hooks` has a hook. */
function hasHooks(hooks: Hooks | undefined): boolean {
  return hooks !== undefined && HOOK_NAMES.some((name) => (hooks[name]?.length ?? 0) > 0);
}

/** The instance's search parameters without any `api_key` (plain-object values left `undefined` dropped). */
function withoutKey(params: unknown): URLSearchParams {
  const copy =
    typeof params === 'object' &&
    params !== null &&
    !(params instanceof URLSearchParams) &&
    !Array.isArray(params)
      ? new URLSearchParams(
          Object.entries(params).flatMap(([name, value]) =>
            value === undefined ? [] : [[name, String(value)]],
          ),
        )
      : new URLSearchParams(params as string | URLSearchParams | string[][]);
  copy.delete('api_key');
  return copy;
}
