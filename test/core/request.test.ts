import { describe, expect, it } from 'vitest';
import { type Encoding, outgoing } from '../../src/core/transport/request.js';

const bearerForm: Encoding = { credentials: { kind: 'bearer' }, body: 'form' };
const paramJson: Encoding = { credentials: { kind: 'param', name: 'api_key' }, body: 'json' };

describe('outgoing', () => {
  it('puts the query in the input, in order, without undefined values', () => {
    expect(
      outgoing(
        'pixels',
        { query: { type: 'x', page: undefined, per_page: 25, flag: false } },
        bearerForm,
        'k',
      ),
    ).toEqual({
      input: 'pixels?type=x&per_page=25&flag=false',
    });
    expect(outgoing('pixels/1', {}, bearerForm, 'k')).toEqual({ input: 'pixels/1' });
  });

  it('form-encodes a body, leaving undefined fields out', () => {
    const { input, body } = outgoing(
      'pixels',
      { body: { name: 'a b', value: undefined, type: 'x' } },
      bearerForm,
      'k',
    );
    expect(input).toBe('pixels');
    expect(body?.toString()).toBe('name=a+b&type=x');
  });

  it('adds the key parameter last: to the query of a body-less call, else to the JSON body', () => {
    expect(outgoing('items/item', { query: { item_id: 4, api_key: 'other' } }, paramJson, 'KEY')).toEqual({
      input: 'items/item?item_id=4&api_key=KEY',
    });
    expect(
      outgoing('purchases/validation', { body: { purchase_code: 'c', api_key: 'other' } }, paramJson, 'KEY'),
    ).toEqual({
      input: 'purchases/validation',
      json: { purchase_code: 'c', api_key: 'KEY' },
    });
  });

  it('never puts a bearer key anywhere but the header', () => {
    const built = outgoing('pixels', { query: { a: 1 }, body: { b: 2 } }, bearerForm, 'KEY');
    expect(JSON.stringify({ ...built, body: built.body?.toString() })).not.toContain('KEY');
  });
});
