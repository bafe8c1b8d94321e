// Plain ESM consumer (and the entry every runtime of the matrix runs): `import` of both entry points.
import * as sdk from 'content-platform-sdk';
import * as testing from 'content-platform-sdk/testing';
import { runtimeName, smoke } from './smoke.mjs';

// The built classes keep their names: `inspect` output and stacks show `ManagementClient`, not a bundler's `_…`.
for (const [name, Client] of [
  ['ManagementClient', sdk.ManagementClient],
  ['CatalogClient', sdk.CatalogClient],
]) {
  if (Client.name !== name) throw new Error(`${name}.name is ${Client.name}`);
}
const { checks } = await smoke(sdk, testing);
console.log(`ok: esm on ${runtimeName()}, ${checks} checks over http`);
