import type { Flavor } from './types.js';

/**
 * Encodes a value as PHP's `json_encode` does by default (Laravel's `JsonResponse`):
 * `/` becomes `\/` and every non-ASCII UTF-16 unit becomes a lowercase `\uXXXX`.
 * Both only ever occur inside JSON strings, so rewriting `JSON.stringify`'s output is safe.
 */
export function encodePhpJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('/', '\\/')
    .replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Encodes a body for a flavor: PHP-style for `laravel`, plain `JSON.stringify` for `spec`. */
export function encodeJson(value: unknown, flavor: Flavor): string {
  return flavor === 'laravel' ? encodePhpJson(value) : JSON.stringify(value);
}

/** A JSON response encoded for the flavor. */
export function json(
  body: unknown,
  status: number,
  flavor: Flavor,
  headers: Record<string, string> = {},
): Response {
  return new Response(encodeJson(body, flavor), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-cache, private', ...headers },
  });
}

/** A 302 redirect, as Laravel sends one. */
export function redirect(location: string): Response {
  return new Response(null, { status: 302, headers: { location } });
}

/** Formats a date as Laravel serialises timestamps: `2025-01-15T10:20:30.000000Z`. */
export function timestamp(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
