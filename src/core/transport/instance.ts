import type { KyInstance } from 'ky';
import type { ResolvedOptions } from './options.js';
import type { Send } from './read-fetch.js';
import type { ApiConfig } from './request.js';

/** A client's ky instance, and what its calls need to know about it. */
export interface ClientInstance {
  ky: KyInstance;
  /** How attempts are sent: the `fetch` option, else the instance's own; `undefined`: the global fetch. */
  send: Send | undefined;
  /** Whether ky will clone answers (an afterResponse hook or a progress callback of the instance or client). */
  rebuild: boolean;
}

/**
 * Extends `base` (the user's ky instance, or ky) once with everything the same for every call, since ky merges
 * again whatever a call passes: the URL prefix, headers and key, timeouts, redirect policy, client hooks.
 */
export function clientInstance(base: KyInstance, options: ResolvedOptions, api: ApiConfig): ClientInstance {
  const built: ClientInstance = { ky: base, send: undefined, rebuild: false };
  const custom = options.fetch;
  built.ky = base.extend((parent) => {
    const inherited = parent.fetch;
    if (custom) built.send = (request) => custom(request);
    else if (inherited) built.send = (request, init) => inherited(request, init);
    built.rebuild = Boolean(
      options.hooks?.afterResponse?.length ||
        parent.hooks?.afterResponse?.length ||
        parent.onDownloadProgress,
    );
    return {
      prefix: `${options.apiRoot}/`,
      headers: {
        accept: 'application/json',
        'user-agent': options.userAgent,
        ...options.headers,
        ...(api.credentials.kind === 'bearer' ? { authorization: `Bearer ${options.apiKey}` } : {}),
      },
      timeout: options.timeout,
      // Set only where needed: every default key is merged again into each call.
      ...(options.totalTimeout !== undefined || parent.totalTimeout !== undefined
        ? { totalTimeout: options.totalTimeout ?? false }
        : {}),
      ...(parent.throwHttpErrors === undefined ? {} : { throwHttpErrors: true }),
      // Redirects are never followed: a 307 would carry the key (header or body) to wherever it points.
      redirect: 'manual',
      ...(options.hooks ? { hooks: options.hooks } : {}),
    };
  });
  return built;
}
