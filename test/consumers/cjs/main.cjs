// CommonJS consumer: `require` of both entry points must load the package's CommonJS build.
const assert = require('node:assert/strict');
const sdk = require('content-platform-sdk');
const testing = require('content-platform-sdk/testing');

assert.match(require.resolve('content-platform-sdk'), /dist[\\/]index\.cjs$/);
assert.match(require.resolve('content-platform-sdk/testing'), /dist[\\/]testing[\\/]index\.cjs$/);
// The msw adapter loads msw (ESM-only) through require(esm), which Node >= 22.12 has.
const { createMswHandlers } = require('content-platform-sdk/testing/msw');
assert.equal(createMswHandlers(testing.createReferenceServer()).length, 2);

import('./smoke.mjs')
  .then(({ runtimeName, smoke }) =>
    smoke(sdk, testing).then(({ checks }) => {
      console.log(`ok: cjs on ${runtimeName()}, ${checks} checks over http`);
    }),
  )
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
