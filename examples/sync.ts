/**
 * A sync with a plan: the domains an account should have, as a list kept in a repository, made true with
 * `domains.sync(desired, { prune: true })`. The plan is printed before anything changes; a colleague's edit made
 * between the plan and its apply is refused (a conflict), not overwritten; the apply goes through a 503 and a lost
 * answer; a second plan, from what is there now, finishes the job, and a third finds nothing to do.
 * It runs against its own reference server, on a free 127.0.0.1 port: a pruning sync deletes every domain the list
 * does not name, which an example must never do to a real account.
 * Run: npx tsx examples/sync.ts (in this repo), or from a project that installed the package:
 *   node node_modules/content-platform-sdk/dist/examples/sync.js
 */
import {
  type ApplyReport,
  type Domain,
  type DomainCreateParams,
  ManagementClient,
} from 'content-platform-sdk';
import { referenceServer } from './support/connect.js';

/** Every domain of the account, as the repository keeps them: with prune, a domain not named here is deleted. */
const desired: DomainCreateParams[] = [
  {
    name: 'links.example.com',
    index_page: 'https://example.com',
    not_found_page: 'https://example.com/missing',
  },
  { name: 'go.example.org', index_page: 'https://example.org/start' },
  { name: 'shop.example.com', index_page: 'https://shop.example.com' },
];

/** An apply's counts, and a line per change. */
function show(report: ApplyReport<Domain>): void {
  const { created, existed, updated, deleted, conflicts, failed } = report;
  console.log(
    `applied: ${created + existed} created, ${updated} updated, ${deleted} deleted, ${conflicts} conflicts, ${failed} failed`,
  );
  for (const entry of report.entries) {
    const now =
      entry.status === 'conflict' && entry.record
        ? ` (changed since the plan: its 404 page is now ${entry.record.not_found_page})`
        : '';
    console.log(`  ${entry.action} ${entry.name}: ${entry.status}${now}`);
  }
}

const server = await referenceServer();
try {
  const { reference } = server;
  const mgmt = new ManagementClient({ baseUrl: server.url, apiKey: server.managementKey });
  console.log(`Sync on the reference server at ${server.url}\n`);
  const before = await mgmt.domains
    .list({ sort_by: 'name', sort: 'asc', per_page: 100 })
    .toArray({ limit: 100 });
  console.log(`the account has: ${before.map((domain) => domain.name).join(', ')}\n`);

  const plan = await mgmt.domains.sync(desired, { prune: true });
  console.log(`${plan}\n`);

  // Between the plan and its apply, someone edits a domain the plan updates.
  const edited = plan.updates.find((update) => update.before.name === 'go.example.org')?.before;
  if (edited) await mgmt.domains.update(edited.id, { not_found_page: 'https://example.org/oops' });
  console.log('meanwhile, a colleague sets the 404 page of go.example.org');
  // And the server falters: the create is answered 503, the delete's answer is lost.
  reference.faults.script([{ status: 503 }], { match: (request) => request.method === 'POST' });
  reference.faults.script(['lose-response'], { match: (request) => request.method === 'DELETE' });
  const from = reference.requests.length;
  const report = await plan.apply();
  const writes = reference.requests.slice(from).filter((request) => request.method !== 'GET');
  console.log(
    `writes sent: ${writes.map((request) => `${request.method} ${request.status ?? request.fault}`).join(', ')}`,
  );
  show(report);

  console.log('\nrun again: a new plan, from what is there now');
  const again = await mgmt.domains.sync(desired, { prune: true });
  console.log(again.toString());
  show(await again.apply());

  const last = await mgmt.domains.sync(desired, { prune: true });
  console.log(`\nand once more: ${last}`);
  const kept = (await mgmt.domains.list({ search: 'go.example.org' }).toArray({ limit: 1 }))[0];
  console.log(`go.example.org keeps the colleague's 404 page (its row gives none): ${kept?.not_found_page}`);
} finally {
  await server.close();
}
