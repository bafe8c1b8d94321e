/** Catalog parameters: the query merged with a form or JSON body (the body wins, as in Laravel's `input()`). */
export type Params = Map<string, unknown>;

/** Reads the query and, for a form or JSON body, its fields. Headers are never read for the key. */
export async function readParams(request: Request, url: URL): Promise<Params> {
  const params: Params = new Map();
  for (const [k, v] of url.searchParams) params.set(k, v);
  if (request.method === 'GET' || request.method === 'HEAD' || request.body === null) return params;
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  const text = await request.text();
  if (type.startsWith('application/x-www-form-urlencoded')) {
    for (const [k, v] of new URLSearchParams(text)) params.set(k, v);
  } else if (type.includes('json')) {
    try {
      const body: unknown = JSON.parse(text);
      if (body && typeof body === 'object' && !Array.isArray(body)) {
        for (const [k, v] of Object.entries(body)) params.set(k, v);
      }
    } catch {
      // Laravel treats an unparsable JSON body as no input.
    }
  }
  return params;
}

/** The kinds of Laravel rule the Catalog needs. */
export type ParamRule = 'string' | 'integer';

/**
 * Validates `required|string` / `required|integer` parameters in order and returns the first Laravel
 * message (the real server answers it with HTTP 400), or null.
 */
export function firstParamError(params: Params, rules: Record<string, ParamRule>): string | null {
  for (const [name, rule] of Object.entries(rules)) {
    const attr = name.replaceAll('_', ' ');
    const raw = params.get(name);
    const value = typeof raw === 'string' ? raw.trim() : raw;
    if (value === undefined || value === null || value === '') return `The ${attr} field is required.`;
    if (rule === 'string' && typeof value !== 'string') return `The ${attr} field must be a string.`;
    if (rule === 'integer' && !isInteger(value)) return `The ${attr} field must be an integer.`;
  }
  return null;
}

function isInteger(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value);
  return typeof value === 'string' && /^[+-]?\d+$/.test(value);
}

/** A validated parameter as a string. */
export function param(params: Params, name: string): string {
  const value = params.get(name);
  return typeof value === 'string' ? value.trim() : String(value);
}
