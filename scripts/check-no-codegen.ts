// Proves the package ships no runtime code generator of zod's: every ESM library entry in dist is bundled with ky
// and zod the way an application's bundler would (rolldown, as size-limit does), the chunks it loads on demand
// included, and no output may hold `compileFn`'s code. The CommonJS files are checked as shipped: a bundler keeps
// the whole of zod's own CommonJS build (it cannot tree-shake `require`), generator and all, whatever requires it. The parsers are generated at build time
// (scripts/generate-parsers.ts) and installed with `withParser`, whose marker must be in the output: a bundle
// without it would be parsing with zod's interpreter alone. Run by `npm run size`, after the build.
import { existsSync, readFileSync } from 'node:fs';
import { build } from 'rolldown';

const ENTRIES = ['index', 'testing/index', 'testing/msw', 'redis/index', 'otel/index'];
// String literals of zod's generator (compile.js `compileFn`, `generateCheck`): minifiers keep them.
const GENERATOR = ['generated code failed to evaluate', 'z.compile: async'];
// `withParser`'s sentinel: the generated parsers are installed.
const INSTALLED = 'zod.compile.invalid';

let failed = 0;
for (const entry of ENTRIES) {
  const shipped = readFileSync(`dist/${entry}.cjs`, 'utf8');
  if (GENERATOR.some((marker) => shipped.includes(marker))) {
    console.error(`dist/${entry}.cjs holds zod's code generator`);
    failed += 1;
  }
}
for (const format of ['js']) {
  for (const entry of ENTRIES) {
    const input = `dist/${entry}.${format}`;
    if (!existsSync(input)) throw new Error(`${input} is missing: run the build first`);
    const out = await build({
      input,
      // Optional peers are the user's: not bundled.
      external: [/^(msw|redis|ioredis|@opentelemetry\/)/, /^node:/],
      platform: 'node',
      output: { dir: `.ci/out/no-codegen/${format}/${entry}`, minify: true },
      treeshake: true,
      write: false,
      logLevel: 'silent',
    });
    const code = out.output.map((o) => (o.type === 'chunk' ? o.code : '')).join('\n');
    const found = GENERATOR.filter((marker) => code.includes(marker));
    if (found.length > 0) {
      console.error(`${input}: its bundle holds zod's code generator (${found.join(', ')})`);
      failed += 1;
    }
    if (entry === 'index' && !code.includes(INSTALLED)) {
      console.error(`${input}: its bundle installs no generated parser (no ${INSTALLED})`);
      failed += 1;
    }
  }
}
if (failed > 0) process.exit(1);
console.log(
  `no zod code generator in any entry (${ENTRIES.length}), bundled as ESM with zod or shipped as CommonJS`,
);
