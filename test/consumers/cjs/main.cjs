// CommonJS consumer: `require` of both entry points must load the package's CommonJS build.
const assert = require('node:assert/strict');
const sdk = require('content-platform-sdk');
const testing = require('content-platform-sdk/testing');

assert.match(require.resolve('content-platform-sdk'), /dist[\\/]index\.cjs$/);
assert.match(require.resolve('content-platform-sdk/testing'), /dist[\\/]testing[\\/]index\.cjs$/);
// The msw adapter loads msw (ESM-only) through require(esm), which Node >= 22.12 has.
const { createMswHandlers } = require('content-platform-sdk/testing/msw');
assert.equal(createMswHandlers(testing.createReferenceServer()).length, 2);
// The built classes keep their names (`inspect` output and stacks).
assert.equal(sdk.ManagementClient.name, 'ManagementClient');
assert.equal(sdk.CatalogClient.name, 'CatalogClient');

// An error from the CommonJS build is an instance of the ESM build's classes, and the other way round,
// precisely per class.
const crossBuild = import('content-platform-sdk').then((esm) => {
  assert.notEqual(esm.NotFoundError, sdk.NotFoundError);
  const init = { status: 404, headers: new Headers(), body: undefined, message: 'x' };
  const fromCjs = new sdk.NotFoundError(init);
  const fromEsm = new esm.RateLimitError({ ...init, status: 429 });
  assert.ok(fromCjs instanceof esm.NotFoundError && fromCjs instanceof esm.APIError);
  assert.ok(!(fromCjs instanceof esm.RateLimitError));
  assert.ok(fromEsm instanceof sdk.RateLimitError && sdk.isContentPlatformError(fromEsm));
  assert.ok(!(fromEsm instanceof sdk.NotFoundError));
});

crossBuild
  .then(() => import('./smoke.mjs'))
  .then(({ runtimeName, smoke }) =>
    smoke(sdk, testing).then(({ checks }) => {
      console.log(`ok: cjs on ${runtimeName()}, ${checks} checks over http`);
    }),
  )
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
