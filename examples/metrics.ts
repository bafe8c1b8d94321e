/**
 * Extending the SDK with ky hooks: per-attempt metrics (method, path, status, attempt number, duration), the
 * kind of data a Prometheus histogram or a StatsD timer wants. URLs go through `redactUrl`: a Catalog GET
 * carries its `api_key` in the URL.
 * Run: npx tsx examples/metrics.ts (in this repo), or from a project that installed the package:
 *   node node_modules/content-platform-sdk/dist/examples/metrics.js
 */
import { CatalogClient, type Hooks, ManagementClient, redactUrl } from 'content-platform-sdk';
import { referenceServer } from './support/connect.js';

/** One finished attempt, as a metrics backend would record it. */
interface Attempt {
  method: string;
  url: string;
  status: number | 'no answer';
  attempt: number;
  ms: number;
}

const recorded: Attempt[] = [];

// ky gives each call its own `options.context`: the start of the attempt in flight is kept there.
const start = ({ options }: { options: { context: Record<string, unknown> } }) => {
  options.context.startedAt = performance.now();
};
const metrics: Hooks = {
  beforeRequest: [start],
  beforeRetry: [start],
  afterResponse: [
    ({ request, response, options, retryCount }) => {
      recorded.push({
        method: request.method,
        url: redactUrl(request.url),
        status: response.status,
        attempt: retryCount + 1,
        ms: performance.now() - Number(options.context.startedAt),
      });
    },
  ],
};

const server = await referenceServer();
try {
  const mgmt = new ManagementClient({ baseUrl: server.url, apiKey: server.managementKey, hooks: metrics });
  const catalog = new CatalogClient({ siteUrl: server.url, apiKey: server.catalogKey, hooks: metrics });

  server.reference.faults.script([{ status: 503, headers: { 'retry-after': '0' } }]);
  await mgmt.pixels.list({ per_page: 10 });
  await catalog.items.list();
  await catalog.purchases.validate(server.purchaseCode);

  for (const a of recorded) {
    console.log(`${a.method} ${a.url} → ${a.status} (attempt ${a.attempt}) in ${a.ms.toFixed(1)} ms`);
  }
  const leaked = recorded.some((a) => a.url.includes(server.catalogKey));
  console.log(
    `${recorded.length} attempts recorded; Catalog key in a recorded URL: ${leaked ? 'yes' : 'no'}`,
  );
} finally {
  await server.close();
}
