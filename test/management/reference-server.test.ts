import { describe, expect, it } from 'vitest';
import { ManagementClient, NotFoundError, type Pixel, UnprocessableEntityError } from '../../src/index.js';
import { createReferenceServer, type Flavor } from '../../src/testing/index.js';

// The SDK against the embedded reference server, in both wire flavors: real-server Laravel shapes and
// a server that follows only the spec. No msw here: the server is passed as the client's fetch.
describe.each<Flavor>(['laravel', 'spec'])('ManagementClient against the reference server (%s)', (flavor) => {
  const setup = () => {
    const server = createReferenceServer({ flavor });
    const mgmt = new ManagementClient({
      baseUrl: 'https://links.example.com',
      apiKey: server.keys.management[0]!,
      fetch: server.fetch,
      maxRetries: 0,
    });
    return { server, mgmt };
  };

  it('walks every seeded pixel, the same ones page by page as in one big page', async () => {
    const { mgmt } = setup();
    const walked: Pixel[] = [];
    for await (const pixel of mgmt.pixels.list({ per_page: 10, sort_by: 'id', sort: 'asc' }))
      walked.push(pixel);
    const ids = walked.map((p) => p.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(ids.length);
    const big = await mgmt.pixels.list({ per_page: 100, sort_by: 'id', sort: 'asc' });
    if (big.meta.last_page === 1) expect(big.data.map((p) => p.id)).toEqual(ids);
  });

  it('creates, reads, updates and deletes a pixel', async () => {
    const { mgmt } = setup();
    const created = await mgmt.pixels.create({ name: 'SDK pixel', type: 'quora', value: 'q-1' });
    expect(created).toMatchObject({ name: 'SDK pixel', type: 'quora', value: 'q-1' });
    await expect(mgmt.pixels.get(created.id)).resolves.toMatchObject({ id: created.id, name: 'SDK pixel' });
    const updated = await mgmt.pixels.update(created.id, { value: 'q-2' });
    expect(updated).toMatchObject({ id: created.id, name: 'SDK pixel', value: 'q-2' });
    const receipt = await mgmt.pixels.delete(created.id);
    expect(receipt).toMatchObject({ id: created.id, deleted: true });
    await expect(mgmt.pixels.get(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('creates, updates and deletes a domain', async () => {
    const { mgmt } = setup();
    const domain = await mgmt.domains.create({ name: 'sdk.example.com', index_page: 'https://example.com/' });
    expect(domain).toMatchObject({ name: 'sdk.example.com', index_page: 'https://example.com/' });
    const updated = await mgmt.domains.update(domain.id, { not_found_page: 'https://example.com/404' });
    expect(updated).toMatchObject({ id: domain.id, not_found_page: 'https://example.com/404' });
    await expect(mgmt.domains.delete(domain.id)).resolves.toMatchObject({ id: domain.id, deleted: true });
  });

  it('gets 422 field errors for a taken pixel name', async () => {
    const { mgmt } = setup();
    await mgmt.pixels.create({ name: 'Twice', type: 'x', value: '1' });
    const error = await mgmt.pixels.create({ name: 'Twice', type: 'x', value: '2' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(Object.keys((error as UnprocessableEntityError).fieldErrors)).toContain('name');
  });
});
