import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { flattenIifes } from '../../scripts/lib/flatten-iifes.js';

// scripts/lib/flatten-iifes.ts rewrites zod's immediately called arrows as labelled blocks (no closure and no call
// per value). The parity tests (parsers.test.ts) hold the generated parsers to zod's interpreter; these pin the
// rewrite itself: what it turns into a block, what it must leave alone, and that the code does the same after.

/** `body` (a function body taking `input`) as a function, before and after the rewrite. */
function both(body: string): [(input: unknown) => unknown, (input: unknown) => unknown] {
  return [new Function('input', body) as never, new Function('input', flattenIifes(body)) as never];
}

describe('flattenIifes', () => {
  it('writes the three statement forms as labelled blocks, each return as "set, then leave"', () => {
    const body = [
      'let a = (() => { if (input > 1) return "big"; return "small"; })();',
      'let b;',
      'b = (() => { return a + "!"; })();',
      'if (input === 0) b = (() => { return "zero"; })();',
      'return [a, b];',
    ].join('\n');
    const flat = flattenIifes(body);
    expect(flat).toBe(
      [
        'let a; b0: { if (input > 1) { a = "big"; break b0; } { a = "small"; break b0; } }',
        'let b;',
        'b1: { { b = a + "!"; break b1; } }',
        'if (input === 0) b2: { { b = "zero"; break b2; } }',
        'return [a, b];',
      ].join('\n'),
    );
    const [asWritten, asFlat] = both(body);
    for (const input of [0, 1, 2]) expect(asFlat(input)).toStrictEqual(asWritten(input));
    expect(asFlat(0)).toStrictEqual(['small', 'zero']);
  });

  it('flattens nested arrows, and leaves the returns of a function inside one to that function', () => {
    const body = [
      'const out = (() => {',
      '  const inner = (() => { const f = (x) => { return x * 2; }; return f(input); })();',
      '  for (let i = 0; i < 3; i++) { if (i === input) return "hit " + i; if (i > 5) break; }',
      '  return inner;',
      '})();',
      'return out;',
    ].join('\n');
    const flat = flattenIifes(body);
    expect(flat).not.toContain('(() =>');
    // The arrow function value stays a function with its own return.
    expect(flat).toContain('const f = (x) => { return x * 2; };');
    const [asWritten, asFlat] = both(body);
    for (const input of [0, 2, 7]) expect(asFlat(input)).toStrictEqual(asWritten(input));
  });

  it('leaves an arrow alone when flattening could change what it does', () => {
    const kept = [
      // names the variable it sets
      'let a = 1; a = (() => { return a + input; })(); return a;',
      // may end without a return
      'let a = (() => { if (input) return 1; })(); return a;',
      // declares a var (would leak into the function)
      'let a = (() => { var t = input; return t; })(); return a;',
      // takes arguments, or is async
      'let a = ((x) => { return x; })(input); return a;',
      'let a = (async () => { return input; })(); return a;',
      // is part of a larger expression
      'let a = 1 + (() => { return input; })(); return a;',
      // sets something that is not a plain variable
      'const o = {}; o.a = (() => { return input; })(); return o.a;',
    ];
    for (const body of kept) expect(flattenIifes(body), body).toBe(body);
  });

  it('leaves no immediately called arrow in the committed parsers', () => {
    for (const file of ['src/management/parsers.generated.ts', 'src/catalog/parsers.generated.ts']) {
      const source = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
      expect(source, file).not.toContain('(() =>');
      expect(source, file).toMatch(/\bb0: \{/);
    }
  });
});
