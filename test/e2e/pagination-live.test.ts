import { afterEach, describe, expect, it } from 'vitest';
import { ManagementClient, type Pixel } from '../../src/index.js';
import { createReferenceServer, listen, SEED_MANAGEMENT_KEYS } from '../../src/testing/index.js';

// Walks over a real 127.0.0.1 socket while the list changes under them, as a live server's would.
const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

async function live() {
  const server = createReferenceServer({ seed: { pixels: 40 } });
  const { url, close } = await listen(server, { port: 0 });
  open.push(close);
  const mgmt = new ManagementClient({ baseUrl: url, apiKey: SEED_MANAGEMENT_KEYS[0], maxRetries: 0 });
  const before = await mgmt.pixels.list({ per_page: 100 }).toArray({ limit: 1000 });
  return { server, mgmt, before };
}

describe('list walks against a live server', () => {
  it('gives every record once when records are created during the walk (newest first)', async () => {
    const { server, mgmt, before } = await live();
    const start = server.requests.length;
    const seen: Pixel[] = [];
    let created = 0;
    for await (const pixel of mgmt.pixels.list({ per_page: 10 })) {
      seen.push(pixel);
      // Each new record pushes the last one of every page onto the next: the walk would give it twice.
      if (seen.length % 10 === 3) {
        await mgmt.pixels.create({ name: `live-${created++}`, type: 'bing', value: 'v' });
      }
    }
    const ids = seen.map((p) => p.id);
    expect(created).toBeGreaterThanOrEqual(4);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(before.map((p) => p.id));
    // The server did send repeats: one list page per 10 records, and pages 2.. began with one seen before.
    const pages = server.requests
      .slice(start)
      .filter((r) => r.method === 'GET' && r.url.includes('/pixels?'));
    expect(pages.map((r) => new URL(r.url).searchParams.get('page'))).toEqual([
      null,
      ...Array.from({ length: Math.ceil((before.length + created) / 10) - 1 }, (_, i) => String(i + 2)),
    ]);
  });

  it('pages() shows the repeat the item walk hides: the last item of page 1 is first on page 2', async () => {
    const { mgmt } = await live();
    const pages: number[][] = [];
    for await (const page of mgmt.pixels.list({ per_page: 10 }).pages()) {
      pages.push(page.data.map((p) => p.id));
      if (pages.length === 1) await mgmt.pixels.create({ name: 'live-new', type: 'bing', value: 'v' });
      if (pages.length === 2) break;
    }
    expect(pages[1]?.[0]).toBe(pages[0]?.[9]);
  });

  it('collect the ids first, then delete: every record goes (deleting during a walk would skip some)', async () => {
    const { mgmt, before } = await live();
    const ids = (await mgmt.pixels.list({ per_page: 10 }).toArray({ limit: 1000 })).map((p) => p.id);
    for (const id of ids) await mgmt.pixels.delete(id);
    expect(ids).toHaveLength(before.length);
    expect((await mgmt.pixels.list()).meta.total).toBe(0);
  });

  it('deleting during a walk skips records: the pattern the docs warn against', async () => {
    const { mgmt, before } = await live();
    for await (const pixel of mgmt.pixels.list({ per_page: 10 })) await mgmt.pixels.delete(pixel.id);
    const left = (await mgmt.pixels.list()).meta.total;
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(before.length);
  });
});
