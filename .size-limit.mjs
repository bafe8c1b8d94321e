// The package size budget (CONTRIBUTING, "Package size"): `npm run size` and CI check the first figure against it.
//
// Every check is measured with the chunks rolldown writes named after their source chunk alone (`[name].js`, no
// hash of rolldown's own): the entry imports its lazy chunks by file name, and a hash in each name is 8 random
// characters a chunk that brotli cannot compress, which change whenever any lazy chunk does. With them the figure
// moved by up to 0.1 kB between builds of the same entry; without them it follows the code. The hashes in the
// shipped chunks' names (tsup's) are the package's own bytes and stay counted.
const stableNames = (config) => ({
  ...config,
  output: { ...config.output, chunkFileNames: '[name].js' },
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
