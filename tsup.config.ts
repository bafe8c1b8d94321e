import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'testing/index': 'src/testing/index.ts',
    'testing/msw': 'src/testing/msw.ts',
    'testing/bin': 'src/testing/bin.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: false,
  target: 'node22',
  platform: 'neutral',
  // Shared code stays in chunks, so `instanceof` and the reference server's state are one copy per format.
  splitting: true,
  treeshake: true,
  // Keep `node:` specifiers: Deno needs them, and every supported Node has them.
  removeNodeProtocol: false,
  external: ['msw', 'ky', 'zod', /^node:/],
});
