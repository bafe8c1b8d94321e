import { describe, expect, it } from 'vitest';
import { ResponseValidationError } from '../../src/core/errors/classes.js';
import { refuseLong } from '../../src/core/transport/records.js';

// A string member long enough that the text is counted before its parse, full of what a scan could misread.
const PAD = `"pad":"${'[{,}] \\" \\\\ '.repeat(30_000)}"`;

/** The count a refusal names, or `undefined` when the list was not refused. */
function refused(text: string, key: string, most: number): number | undefined {
  const read = {
    text,
    response: new Response(null, { status: 200 }),
    trace: { label: 'GET x', scrub: (t: string) => t },
  };
  const records = { key, most, why: 'a page holds' };
  try {
    refuseLong(read, records);
    refuseLong(read, records, JSON.parse(text));
  } catch (error) {
    expect(error).toBeInstanceOf(ResponseValidationError);
    return Number(/with (\d+) records/.exec((error as Error).message)?.[1]);
  }
  return undefined;
}

describe('refuseLong', () => {
  // Each body as a short text (counted once parsed) and padded past 256 KiB (counted as text): the same answer.
  const cases: [string, (pad: string) => string, string, number, number | undefined][] = [
    ['a longer list', (pad) => `{${pad}"data":[1,2,3]}`, 'data', 2, 3],
    ['a list of the most', (pad) => `{${pad}"data":[1,2,3]}`, 'data', 3, undefined],
    ['an empty list', (pad) => `{${pad}"data":[ ]}`, 'data', 0, undefined],
    ['spaces and nesting', (pad) => `{ ${pad} "data" : [ [1,2] , {"a":[3,4,"]"]} , "x" ] }`, 'data', 2, 3],
    ['a key written with escapes', (pad) => `{${pad}"d\\u0061ta":[1,2,3]}`, 'data', 2, 3],
    ['a list under another member', (pad) => `{${pad}"meta":{"data":[1,2,3]}}`, 'data', 2, undefined],
    ['the key inside a string', (pad) => `{${pad}"s":"\\"data\\":[1,2,3]"}`, 'data', 2, undefined],
    ['an index-keyed object', (pad) => `{${pad}"items":{"0":{},"1":{},"2":{}}}`, 'items', 2, 3],
    ['a bare array', (pad) => `[1,2,{${pad}"x":0}]`, 'data', 2, 3],
    ['a string ending in a backslash', (pad) => `{${pad}"s":"x\\\\","data":[1,2,3]}`, 'data', 2, 3],
  ];
  for (const [name, body, key, most, count] of cases) {
    it(`${name}: ${count === undefined ? 'read' : `refused, naming ${count}`}, long or short`, () => {
      expect(refused(body(''), key, most)).toBe(count);
      const long = body(`${PAD},`);
      expect(long.length).toBeGreaterThan(256 * 1024);
      expect(refused(long, key, most)).toBe(count);
    });
  }

  it('refuses the longest of a key sent twice, and keeps the rest of a long body', () => {
    const text = `{${PAD},"data":[1,2,3],"data":[1],"meta":{"per_page":2}}`;
    expect(refused(text, 'data', 2)).toBe(3);
    const read = { text, response: new Response(null), trace: { label: 'GET x', scrub: (t: string) => t } };
    const error = (() => {
      try {
        refuseLong(read, { key: 'data', most: 2, why: 'a page holds' });
      } catch (e) {
        return e as ResponseValidationError;
      }
    })();
    // The rest is over 64 KiB (the pad): only the note is kept.
    expect(error?.body).toEqual({ data: '(3 records, not read)' });
  });
});
