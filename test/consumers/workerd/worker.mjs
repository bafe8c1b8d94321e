// The workerd (Cloudflare Workers runtime) entry, bundled with esbuild: the worker has no node:http to
// listen on, so the clients get the reference server's fetch handler in-process. `workerd test` runs `test`.
import * as sdk from 'content-platform-sdk';
import * as testing from 'content-platform-sdk/testing';
import { runtimeName, smoke } from './smoke.mjs';

export default {
  async test() {
    // Workers generate no code from strings: zod compiling a parser at run time could never work here. The SDK's
    // parsers are generated at build time (scripts/runtimes.ts checks this bundle has them), so the calls below take
    // the fast path.
    let refused = false;
    try {
      new Function('return 1')();
    } catch {
      refused = true;
    }
    if (!refused) throw new Error('expected workerd to refuse new Function');
    const { checks } = await smoke(sdk, testing, { transport: 'in-process' });
    console.log(`ok: esm on ${runtimeName()}, ${checks} checks in-process`);
  },
};
