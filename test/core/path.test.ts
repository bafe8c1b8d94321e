import { describe, expect, it } from 'vitest';
import { InvalidParamsError } from '../../src/core/errors/classes.js';
import { checkId, path } from '../../src/core/transport/path.js';

describe('path', () => {
  it('interpolates numeric and digit-string ids', () => {
    expect(path`pixels/${42}`).toBe('pixels/42');
    expect(path`domains/${'7'}`).toBe('domains/7');
    expect(path`a/${1}/b/${2}`).toBe('a/1/b/2');
  });

  it.each([
    ['an empty string', ''],
    ['a traversal', '..'],
    ['a traversal with a segment', '../x'],
    ['a second segment', '1/2'],
    ['an encoded slash', '1%2F2'],
    ['a negative number', -1],
    ['a fraction', 1.5],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a padded string', ' 1'],
    ['a query', '1?x=1'],
    ['null', null],
    ['undefined', undefined],
    ['an object', { id: 1 }],
    ['an unsafe integer', 2 ** 60],
  ])('rejects %s', (_label, id) => {
    expect(() => path`pixels/${id as number}`).toThrow(InvalidParamsError);
  });

  it('names the parameter and quotes the bad value', () => {
    const error = (() => {
      try {
        checkId('../x', 'itemId');
      } catch (e) {
        return e as InvalidParamsError;
      }
    })();
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect(error?.param).toBe('itemId');
    expect(error?.message).toBe(`itemId must be a positive whole number (such as 42 or '42'); got "../x".`);
  });

  it('accepts positive safe integers and digit strings (zero-padded too), and refuses zero in any spelling', () => {
    expect(checkId(1)).toBe('1');
    expect(checkId('007')).toBe('007');
    expect(checkId(Number.MAX_SAFE_INTEGER)).toBe('9007199254740991');
    for (const zero of [0, -0, '0', '000000000000000'])
      expect(() => checkId(zero)).toThrow(InvalidParamsError);
  });
});
