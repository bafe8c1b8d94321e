// Plain ESM consumer (and the entry every runtime of the matrix runs): `import` of both entry points.
import * as sdk from 'content-platform-sdk';
import * as testing from 'content-platform-sdk/testing';
import { runtimeName, smoke } from './smoke.mjs';

const transport = globalThis.process?.env?.SMOKE_TRANSPORT === 'in-process' ? 'in-process' : 'http';
const { checks } = await smoke(sdk, testing, { transport });
console.log(`ok: esm on ${runtimeName()}, ${checks} checks over ${transport}`);
