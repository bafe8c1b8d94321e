import { rmSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

// The library entries ship as ESM and CommonJS, each with its own declarations; the bin is an
// executable, not an import target, so it ships once, as ESM (it shares the ESM chunks).
const library = {
  index: 'src/index.ts',
  'testing/index': 'src/testing/index.ts',
  'testing/msw': 'src/testing/msw.ts',
  'redis/index': 'src/redis/index.ts',
};

const common: Options = {
  outDir: 'dist',
  // The two builds run in parallel into one folder, so dist is emptied once, before both (below).
  clean: false,
  sourcemap: false,
  target: 'node22',
  platform: 'neutral',
  // Shared code stays in chunks, so `instanceof` and the reference server's state are one copy per format.
  splitting: true,
  treeshake: true,
  // Keep `node:` specifiers: Deno needs them, and every supported Node has them.
  removeNodeProtocol: false,
  external: ['msw', 'ky', 'zod', 'redis', 'ioredis', /^node:/],
};

export default defineConfig(() => {
  rmSync('dist', { recursive: true, force: true });
  return [
    {
      ...common,
      entry: { ...library, 'testing/bin': 'src/testing/bin.ts' },
      format: ['esm'],
      dts: { entry: library },
    },
    { ...common, entry: library, format: ['cjs'], dts: { entry: library } },
  ];
});
