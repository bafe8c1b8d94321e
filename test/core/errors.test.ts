import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as sdk from '../../src/index.js';

const status = { status: 400, headers: new Headers({ 'x-a': '1' }), body: { message: 'm' }, message: 'boom' };

describe('error tree', () => {
  const cases: [string, () => Error, string[]][] = [
    ['APIError', () => new sdk.APIError(status), ['ContentPlatformError']],
    ['BadRequestError', () => new sdk.BadRequestError(status), ['APIError', 'ContentPlatformError']],
    ['AuthenticationError', () => new sdk.AuthenticationError(status), ['APIError']],
    ['PermissionDeniedError', () => new sdk.PermissionDeniedError(status), ['APIError']],
    ['NotFoundError', () => new sdk.NotFoundError(status), ['APIError']],
    ['UnprocessableEntityError', () => new sdk.UnprocessableEntityError(status), ['APIError']],
    ['RateLimitError', () => new sdk.RateLimitError(status), ['APIError']],
    ['InternalServerError', () => new sdk.InternalServerError(status), ['APIError']],
    ['CatalogError', () => new sdk.CatalogError({ ...status, code: 'unknown', msg: 'x' }), ['APIError']],
    [
      'AccountRequestError',
      () => new sdk.AccountRequestError({ ...status, code: 'request_unsuccessful', msg: 'x' }),
      ['CatalogError', 'APIError'],
    ],
    ['NoItemsError', () => new sdk.NoItemsError({ ...status, code: 'no_items', msg: 'x' }), ['CatalogError']],
    [
      'ItemNotFoundError',
      () => new sdk.ItemNotFoundError({ ...status, code: 'item_not_found', msg: 'x' }),
      ['CatalogError'],
    ],
    [
      'InvalidPurchaseCodeError',
      () => new sdk.InvalidPurchaseCodeError({ ...status, code: 'invalid_purchase_code', msg: 'x' }),
      ['CatalogError'],
    ],
    ['APIConnectionError', () => new sdk.APIConnectionError('x'), ['ContentPlatformError']],
    ['APIConnectionTimeoutError', () => new sdk.APIConnectionTimeoutError('x'), ['APIConnectionError']],
    ['APIUserAbortError', () => new sdk.APIUserAbortError('x'), ['ContentPlatformError']],
    [
      'ResponseValidationError',
      () => new sdk.ResponseValidationError({ message: 'x', issues: [], body: 'b', status: 200 }),
      ['ContentPlatformError'],
    ],
    [
      'ResponseTooLargeError',
      () => new sdk.ResponseTooLargeError({ message: 'x', status: 200, limit: 1024 }),
      ['ResponseValidationError', 'ContentPlatformError'],
    ],
    ['InvalidParamsError', () => new sdk.InvalidParamsError('x', 'per_page'), ['ContentPlatformError']],
  ];

  it.each(cases)('%s has its class name as name and extends its parents', (name, make, parents) => {
    const error = make();
    expect(error.name).toBe(name);
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(sdk.ContentPlatformError);
    expect(error).toBeInstanceOf((sdk as unknown as Record<string, new () => Error>)[name]);
    for (const parent of parents) {
      expect(error).toBeInstanceOf((sdk as unknown as Record<string, new () => Error>)[parent]);
    }
    expect(String(error.stack)).toContain(name);
  });

  it('keeps the answer on APIError and serialises it without headers', () => {
    const error = new sdk.APIError(status);
    expect(error.status).toBe(400);
    expect(error.headers.get('x-a')).toBe('1');
    expect(error.body).toEqual({ message: 'm' });
    expect(error.toJSON()).toEqual({
      name: 'APIError',
      message: 'boom',
      status: 400,
      attempts: 0,
      body: { message: 'm' },
    });
  });

  it('carries the subclass fields into toJSON()', () => {
    expect(
      new sdk.UnprocessableEntityError({ ...status, fieldErrors: { name: ['required'] } }).toJSON(),
    ).toMatchObject({
      fieldErrors: { name: ['required'] },
    });
    expect(new sdk.RateLimitError({ ...status, retryAfter: 30 }).toJSON()).toMatchObject({ retryAfter: 30 });
    expect(new sdk.CatalogError({ ...status, code: 'no_items', msg: 'لا يوجد' }).toJSON()).toMatchObject({
      code: 'no_items',
      msg: 'لا يوجد',
    });
    expect(new sdk.InvalidParamsError('bad', 'per_page').toJSON()).toEqual({
      name: 'InvalidParamsError',
      message: 'bad',
      attempts: 0,
      param: 'per_page',
    });
  });

  it.each(cases)(
    '%s shows no field without a value: not in toJSON(), util.inspect or its own fields',
    (_, make) => {
      const error = make() as sdk.ContentPlatformError;
      const json = error.toJSON();
      expect(Object.entries(json).filter(([, value]) => value === undefined)).toEqual([]);
      expect(Object.entries(error).filter(([, value]) => value === undefined)).toEqual([]);
      expect(inspect(error)).not.toContain('undefined');
      expect(inspect(error, { customInspect: false })).not.toContain('undefined');
      expect(JSON.stringify(error)).toBe(JSON.stringify(json));
      // Still there to read, as undefined.
      expect('requestId' in error && error.requestId === undefined).toBe(true);
    },
  );

  it('keeps every field that has a value, in toJSON(), util.inspect and its own fields', () => {
    const limited = new sdk.RateLimitError({ ...status, retryAfter: 30 });
    expect(limited.toJSON()).toStrictEqual({
      name: 'RateLimitError',
      message: 'boom',
      status: 400,
      attempts: 0,
      retryAfter: 30,
      body: { message: 'm' },
    });
    expect(Object.keys(limited)).toEqual(['attempts', 'status', 'retryAfter']);
    expect(inspect(limited)).toMatch(/\{ status: 400, attempts: 0, retryAfter: 30 \}$/);
    const lost = new sdk.InternalServerError({ ...status, status: 502, mayHaveSucceeded: true });
    expect(lost.toJSON()).toStrictEqual({
      name: 'InternalServerError',
      message: 'boom',
      status: 502,
      attempts: 0,
      mayHaveSucceeded: true,
      body: { message: 'm' },
    });
    expect(inspect(lost, { customInspect: false })).toMatch(
      /\{\n {2}attempts: 0,\n {2}status: 502,\n {2}mayHaveSucceeded: true\n\}$/,
    );
    const refused = new sdk.APIConnectionError('x', { code: 'ECONNREFUSED', mayHaveSucceeded: false });
    expect(refused.toJSON()).toStrictEqual({
      name: 'APIConnectionError',
      message: 'x',
      attempts: 0,
      code: 'ECONNREFUSED',
      mayHaveSucceeded: false,
    });
    expect(Object.keys(refused)).toEqual(['attempts', 'code', 'mayHaveSucceeded']);
    expect(new sdk.InvalidParamsError('bad', 'per_page').toJSON()).toStrictEqual({
      name: 'InvalidParamsError',
      message: 'bad',
      attempts: 0,
      param: 'per_page',
    });
    expect(new sdk.InvalidParamsError('bad').toJSON()).toStrictEqual({
      name: 'InvalidParamsError',
      message: 'bad',
      attempts: 0,
    });
    // A body of an empty answer has no value either: toJSON() leaves it out too.
    expect(new sdk.ResponseTooLargeError({ message: 'x', status: 200, limit: 1024 }).toJSON()).toStrictEqual({
      name: 'ResponseTooLargeError',
      message: 'x',
      status: 200,
      attempts: 0,
      limit: 1024,
      issues: [],
    });
  });

  it('defaults fieldErrors to an empty map', () => {
    expect(new sdk.UnprocessableEntityError(status).fieldErrors).toEqual({});
  });
});
