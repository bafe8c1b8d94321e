// Runs one operation in a loop for a CPU profile of the client alone (the server runs in a child process):
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bench/profile.ts <sdk|ky|fetch> <get|list|items|validate> [calls]
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { CatalogClient, ManagementClient } from 'content-platform-sdk';
import ky from 'ky';

const [variant = 'sdk', op = 'get', callsArg = '20000'] = process.argv.slice(2);
const calls = Number(callsArg);
const child = spawn(process.execPath, [fileURLToPath(new URL('server.ts', import.meta.url))], {
  stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
});
let line = '';
for await (const l of createInterface({ input: child.stdout as NodeJS.ReadableStream })) {
  line = l;
  break;
}
const info = JSON.parse(line) as {
  small: string;
  managementKey: string;
  catalogKey: string;
  purchaseCode: string;
};
const headers = { accept: 'application/json', authorization: `Bearer ${info.managementKey}` };
const mgmt = new ManagementClient({ baseUrl: info.small, apiKey: info.managementKey });
const catalog = new CatalogClient({ siteUrl: info.small, apiKey: info.catalogKey });
const kyM = ky.create({ prefix: `${info.small}/api/v1/`, headers });
const kyC = ky.create({ prefix: `${info.small}/api/`, headers: { accept: 'application/json' } });
const body = { purchase_code: info.purchaseCode, api_key: info.catalogKey };
const ops: Record<string, Record<string, () => Promise<unknown>>> = {
  sdk: {
    get: () => mgmt.pixels.get(1),
    list: () => mgmt.pixels.list({ per_page: 100 }),
    items: () => catalog.items.list(),
    validate: () => catalog.purchases.validate(info.purchaseCode),
  },
  ky: {
    get: () => kyM.get('pixels/1').json(),
    list: () => kyM.get('pixels', { searchParams: { per_page: 100 } }).json(),
    items: () => kyC.get('items/all', { searchParams: { api_key: info.catalogKey } }).json(),
    validate: () => kyC.post('purchases/validation', { json: body }).json(),
  },
  fetch: {
    get: () => fetch(`${info.small}/api/v1/pixels/1`, { headers }).then((r) => r.json()),
    list: () => fetch(`${info.small}/api/v1/pixels?per_page=100`, { headers }).then((r) => r.json()),
    items: () => fetch(`${info.small}/api/items/all?api_key=${info.catalogKey}`).then((r) => r.json()),
    validate: () =>
      fetch(`${info.small}/api/purchases/validation`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json()),
  },
};
const call = ops[variant]?.[op];
if (!call) throw new Error(`unknown ${variant} ${op}`);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await Promise.all(
  Array.from({ length: 64 }, async (_, w) => {
    for (let i = w; i < calls; i += 64) await call();
  }),
);
const cpu = process.cpuUsage(cpu0);
const ms = performance.now() - t0;
console.log(
  `${variant} ${op}: ${calls} calls at concurrency 64, ${Math.round(calls / (ms / 1000))} req/s, ` +
    `client CPU ${((cpu.user + cpu.system) / calls) | 0} µs/call`,
);
child.kill('SIGTERM');
