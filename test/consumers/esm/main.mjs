// Plain ESM consumer (and the entry every runtime of the matrix runs): `import` of both entry points.
import * as sdk from 'content-platform-sdk';
import * as testing from 'content-platform-sdk/testing';
import { runtimeName, smoke } from './smoke.mjs';

const { checks } = await smoke(sdk, testing);
console.log(`ok: esm on ${runtimeName()}, ${checks} checks over http`);
