// The package size budget (CONTRIBUTING, "Package size"): `npm run size` and CI check the first figure against it.
//
// Every check is measured with the chunks rolldown writes named after their source file alone (`bulk.js`): no
// hash of rolldown's own, and none of tsup's. The entry imports its lazy chunks by file name, and each hash is 8
// random characters that brotli cannot compress and that change whenever that chunk does: a change to the bulk
// chunk alone, renaming `bulk-5Y5YEBVC.js` to `bulk-YMEJUS3P.js`, moved the entry's figure by 113 B. An application's
// bundler names the chunks again its own way, so neither hash reaches a user's bundle; without them the figure
// follows the code.
const stableNames = (config) => ({
  ...config,
  output: {
    ...config.output,
    // `bulk-YMEJUS3P` (tsup's chunk) is measured as `bulk.js`; rolldown numbers two of one name.
    chunkFileNames: (chunk) => `${chunk.name.replace(/-[0-9A-Z]{8}$/, '')}.js`,
  },
});

export default [
  {
    name: 'content-platform-sdk: ESM entry as loaded at import, every export, ky and zod bundled, minified, brotli',
    path: 'dist/index.js',
    import: '*',
    entry: ['index'],
    brotli: true,
    limit: '36 kB',
    modifyRolldownConfig: stableNames,
  },
  {
    name: 'the same with the chunks it loads on demand (response parsers, purchase cache, bulk jobs, telemetry, messages)',
    path: 'dist/index.js',
    import: '*',
    brotli: true,
    modifyRolldownConfig: stableNames,
  },
];
