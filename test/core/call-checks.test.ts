import type { Hooks } from 'ky';
import { describe, expect, it } from 'vitest';
import {
  CatalogClient,
  InvalidParamsError,
  ManagementClient,
  type RequestOptions,
  ResponseValidationError,
} from '../../src/index.js';
import { anItem, type WireItem } from '../catalog/fixtures.js';
import { failure } from '../helpers/failure.js';

// What a call refuses before anything is sent: an id that is not positive, and hooks that are not ky hook lists.
// Each client's fetch counts the requests; the answers echo the asked id unless told otherwise.

const KEY = 'sk_live_CALLCHECKS_0123456789';

function clients(answerId?: unknown) {
  const sent: string[] = [];
  const fetch = async (request: Request) => {
    sent.push(`${request.method} ${new URL(request.url).pathname}`);
    const asked =
      /\/(\d+)$/.exec(new URL(request.url).pathname)?.[1] ?? new URL(request.url).searchParams.get('item_id');
    const id = answerId === undefined ? Number(asked) : answerId;
    const body = request.url.includes('/items/')
      ? { status: 'success', item: catalogItem(id) }
      : request.method === 'DELETE'
        ? { id, object: 'pixel', deleted: true }
        : { data: { id, name: 'FB', type: 'facebook', value: '1', created_at: 'x', updated_at: 'x' } };
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  const common = { apiKey: KEY, maxRetries: 0, logLevel: 'off' as const, fetch };
  return {
    sent,
    mgmt: new ManagementClient({ baseUrl: 'https://links.example.com', ...common }),
    catalog: new CatalogClient({ siteUrl: 'https://market.example.com', ...common }),
  };
}

const catalogItem = (id: unknown) => ({ ...anItem(), id }) as unknown as WireItem;

/** Every id-taking method of both APIs, called with `id`. */
function byId(c: ReturnType<typeof clients>, id: unknown, options?: RequestOptions) {
  const anyId = id as number;
  return [
    ['pixels.get', () => c.mgmt.pixels.get(anyId, options)],
    ['pixels.update', () => c.mgmt.pixels.update(anyId, { name: 'x' }, options)],
    ['pixels.delete', () => c.mgmt.pixels.delete(anyId, options)],
    ['domains.get', () => c.mgmt.domains.get(anyId, options)],
    ['domains.update', () => c.mgmt.domains.update(anyId, { index_page: 'https://x.example' }, options)],
    ['domains.delete', () => c.mgmt.domains.delete(anyId, options)],
    ['items.get', () => c.catalog.items.get(anyId, options)],
  ] as const;
}

describe('ids are positive: refused before sending by every id-taking method', () => {
  it.each([
    [0, '0'],
    [-0, '-0'],
    ['0', '"0"'],
    ['000', '"000"'],
    [-1, '-1'],
  ])('%s', async (id, shown) => {
    const c = clients();
    for (const [method, call] of byId(c, id)) {
      const error = await failure(call);
      expect(error, method).toBeInstanceOf(InvalidParamsError);
      const name = method === 'items.get' ? 'itemId' : 'id';
      expect(error.message).toBe(
        `${name} must be a positive whole number (such as 42 or '42'); got ${shown}.`,
      );
    }
    expect(c.sent).toEqual([]);
  });

  it('1, a 15-digit id and its string, and a zero-padded string are sent, and their answers accepted', async () => {
    for (const id of [1, 999_999_999_999_999, '999999999999999', '000000000000042']) {
      const c = clients();
      for (const [method, call] of byId(c, id)) await expect(call(), method).resolves.toBeTruthy();
      expect(c.sent).toHaveLength(7);
    }
  });

  it('an answer about another id fails; one about the same id, as a number or a string, does not', async () => {
    const other = clients(0);
    const error = await failure(other.mgmt.pixels.get(1));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toBe(
      'GET https://links.example.com/api/v1/pixels/1: the answer is about pixel 0, not pixel 1.',
    );
    // The wire's own `-0`, as JSON can write it: about no pixel that can be asked for.
    const minusZero = new ManagementClient({
      baseUrl: 'https://links.example.com',
      apiKey: KEY,
      logLevel: 'off',
      fetch: async () => new Response('{"data":{"id":-0,"name":"FB","type":"facebook","value":"1"}}'),
    });
    expect(await failure(minusZero.pixels.get(5))).toBeInstanceOf(ResponseValidationError);
    const fifteen = clients('123456789012345');
    expect((await fifteen.mgmt.pixels.get(123_456_789_012_345)).id).toBe(123_456_789_012_345);
    expect((await fifteen.catalog.items.get('123456789012345')).id).toBe(123_456_789_012_345);
    expect(await failure(clients(123_456_789_012_346).mgmt.pixels.get('123456789012345'))).toBeInstanceOf(
      ResponseValidationError,
    );
  });
});

describe('hooks that are not ky hook lists are refused, per call as per client', () => {
  const bad: [string, unknown, string][] = [
    [
      'a string',
      'garbage',
      'hooks must be an object of ky hook lists, such as { beforeRequest: [(request) => {…}] }; got a string.',
    ],
    [
      'an array',
      [() => {}],
      'hooks must be an object of ky hook lists, such as { beforeRequest: [(request) => {…}] }; got an array.',
    ],
    [
      'null',
      null,
      'hooks must be an object of ky hook lists, such as { beforeRequest: [(request) => {…}] }; got null.',
    ],
    [
      'a list that is a string',
      { beforeRequest: 'notarray' },
      'hooks.beforeRequest must be an array of functions; got a string.',
    ],
    [
      'a list with a number',
      { afterResponse: [() => {}, 1] },
      'hooks.afterResponse must be an array of functions; got a number at index 1.',
    ],
    [
      'an unknown hook, near a known one',
      { beforeRequests: [() => {}] },
      'hooks: unknown hook "beforeRequests"; did you mean beforeRequest?',
    ],
    [
      'an unknown hook',
      { onError: [() => {}] },
      'hooks: unknown hook "onError"; the hooks are init, beforeRequest, beforeRetry, beforeError, afterResponse.',
    ],
  ];

  it.each(bad)('per call: %s, before any request (both APIs)', async (_label, hooks, message) => {
    const c = clients();
    const options = { hooks } as unknown as RequestOptions;
    for (const call of [
      () => c.mgmt.pixels.get(1, options),
      () => c.mgmt.pixels.list({}, options),
      () => c.catalog.items.get(1, options),
      () => c.catalog.account.details(options),
    ]) {
      const error = await failure(call);
      expect(error).toBeInstanceOf(InvalidParamsError);
      expect(error.message).toBe(message);
      // An unknown hook's name is the param; any other fault is in `hooks` itself.
      const unknown = /unknown hook "(\w+)"/.exec(message)?.[1];
      expect((error as InvalidParamsError).param).toBe(unknown ?? 'hooks');
    }
    expect(c.sent).toEqual([]);
  });

  it.each(bad)('per client and withOptions: %s, at construction', (_label, hooks, message) => {
    const options = { apiKey: KEY, hooks } as never;
    expect(
      () => new ManagementClient({ baseUrl: 'https://links.example.com', ...(options as object) }),
    ).toThrow(message);
    expect(
      () => new CatalogClient({ siteUrl: 'https://market.example.com', ...(options as object) }),
    ).toThrow(message);
    const parent = new ManagementClient({
      baseUrl: 'https://links.example.com',
      apiKey: KEY,
      hooks: { beforeRequest: [() => {}] },
    });
    expect(() => parent.withOptions({ hooks } as never)).toThrow(message);
  });

  it('undefined lists and an empty object pass, and real hooks run', async () => {
    const c = clients();
    let ran = 0;
    const count = () => {
      ran += 1;
    };
    const hooks = { beforeRequest: [count], afterResponse: undefined } as unknown as Hooks;
    await c.mgmt.pixels.get(1, { hooks });
    await c.catalog.items.get(1, { hooks: {} });
    expect(ran).toBe(1);
    expect(c.sent).toHaveLength(2);
  });
});
