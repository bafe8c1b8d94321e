import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import quick, { SLOW_SUITES } from '../../vitest.quick.config.js';

// `npm run test:quick` (CONTRIBUTING.md, "The test loop") leaves out named slow suites only: each must exist (a
// renamed suite would otherwise slip back into the quick loop, or a typo drop nothing), and the rest of the suite
// stays in.
const root = new URL('../../', import.meta.url);

describe('test:quick', () => {
  it('is an npm script on its own config, documented in CONTRIBUTING', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
    expect(pkg.scripts['test:quick']).toBe('bash scripts/node.sh vitest run --config vitest.quick.config.ts');
    expect(pkg.scripts.test).toBe('bash scripts/node.sh vitest run');
    expect(readFileSync(new URL('CONTRIBUTING.md', root), 'utf8')).toContain('npm run test:quick');
  });

  it('excludes only suites that exist, on top of the full config', () => {
    for (const suite of SLOW_SUITES)
      expect(existsSync(new URL(suite.replace(/\/\*\*$/, ''), root)), suite).toBe(true);
    expect(quick.test?.exclude).toEqual(expect.arrayContaining(SLOW_SUITES));
    expect(quick.test?.include).toEqual(['test/**/*.test.ts']);
    expect(quick.test?.setupFiles).toEqual(['test/setup.ts']);
    expect(quick.test?.isolate).toBe(false);
    expect(quick.test?.restoreMocks).toBe(true);
  });
});
