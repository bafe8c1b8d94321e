import { readdirSync, rmSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

// The library entries ship as ESM and CommonJS, each with its own declarations; the bin is an
// executable, not an import target, so it ships once, as ESM (it shares the ESM chunks).
const library = {
  index: 'src/index.ts',
  'testing/index': 'src/testing/index.ts',
  'testing/msw': 'src/testing/msw.ts',
  'redis/index': 'src/redis/index.ts',
  'otel/index': 'src/otel/index.ts',
};

// The examples ship as JavaScript too (dist/examples/<name>.js), since Node strips no types under node_modules:
// `node node_modules/content-platform-sdk/dist/examples/demo.js` runs one. Each is one file (its support code
// inlined) that imports the SDK by name, as a user's code does: inside the package, the name resolves to the
// package itself (its exports), so an example runs what it ships beside.
const examples = Object.fromEntries(
  readdirSync('examples')
    .filter((file) => file.endsWith('.ts'))
    .map((file) => [`examples/${file.slice(0, -'.ts'.length)}`, `examples/${file}`]),
);

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
  external: ['msw', 'ky', 'zod', 'redis', 'ioredis', /^@opentelemetry\//, /^node:/],
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
    {
      ...common,
      entry: examples,
      format: ['esm'],
      splitting: false,
      // Resolved at run time, never bundled: the tsconfig paths would otherwise inline the sources.
      external: [...(common.external ?? []), /^content-platform-sdk(\/|$)/],
    },
  ];
});
