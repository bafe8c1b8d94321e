// The workerd (Cloudflare Workers runtime) entry, bundled with esbuild: the worker has no node:http to
// listen on, so the clients get the reference server's fetch handler in-process. `workerd test` runs `test`.
import * as sdk from 'content-platform-sdk';
import * as testing from 'content-platform-sdk/testing';
import { runtimeName, smoke } from './smoke.mjs';

export default {
  async test() {
    const { checks } = await smoke(sdk, testing, { transport: 'in-process' });
    console.log(`ok: esm on ${runtimeName()}, ${checks} checks in-process`);
  },
};
