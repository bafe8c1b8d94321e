/**
 * Extending the SDK with a ky hook: a tracing header on every request (W3C `traceparent`), so the server's logs
 * can be joined to yours. The same trace id is kept across retries; each attempt gets its own span id.
 * Run: npx tsx examples/tracing.ts (in this repo), or from a project that installed the package:
 *   node node_modules/content-platform-sdk/dist/examples/tracing.js
 */
import { randomBytes } from 'node:crypto';
import { type Hooks, ManagementClient } from 'content-platform-sdk';
import { referenceServer } from './support/connect.js';

const server = await referenceServer();
const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const traceparent = (traceId: string) => `00-${traceId}-${hex(8)}-01`;

const tracing: Hooks = {
  // Runs once per call: the trace starts here, and the call's context carries its id to the retries.
  beforeRequest: [
    ({ request, options }) => {
      const traceId = hex(16);
      options.context.traceId = traceId;
      request.headers.set('traceparent', traceparent(traceId));
    },
  ],
  // Runs before each retry, on the Request about to be sent: a new span in the same trace.
  beforeRetry: [
    ({ request, options }) => {
      request.headers.set('traceparent', traceparent(String(options.context.traceId)));
    },
  ],
};

// For the demonstration only: print what each attempt sent, once its answer is in.
const printSent: Hooks = {
  afterResponse: [
    ({ request, response, retryCount }) => {
      console.log(
        `attempt ${retryCount}: ${response.status}, traceparent ${request.headers.get('traceparent')}`,
      );
    },
  ],
};

try {
  const mgmt = new ManagementClient({ baseUrl: server.url, apiKey: server.managementKey, hooks: tracing });
  // The server fails the first attempt, so the call is retried: two spans of one trace reach the server.
  server.reference.faults.script([{ status: 503, headers: { 'retry-after': '0' } }]);
  const pixel = await mgmt.pixels.get(1, { hooks: printSent });
  console.log(`pixel #${pixel.id} ${pixel.name}`);
} finally {
  await server.close();
}
