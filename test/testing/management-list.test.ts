import { describe, expect, it } from 'vitest';
import { encodeQuery, paginate } from '../../src/testing/management/laravel-page.js';
import { ORIGIN, read, setup } from './helpers.js';

const names = (body: { data: { name: string }[] }) => body.data.map((r) => r.name);
const BASE = `${ORIGIN}/api/v1/pixels?search_by=name&sort_by=id&sort=desc&per_page=10`;

describe('Pixels list', () => {
  it('defaults to id desc, 10 a page, with the Laravel wrapper and absolute links', async () => {
    const { mgmt } = setup();
    const { status, body } = await read(await mgmt('GET', 'pixels'));
    expect(status).toBe(200);
    expect(body.data.map((p: { id: number }) => p.id)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
    expect(body.links).toEqual({
      first: `${BASE}&page=1`,
      last: `${BASE}&page=2`,
      prev: null,
      next: `${BASE}&page=2`,
    });
    expect(body.meta).toEqual({
      current_page: 1,
      from: 1,
      last_page: 2,
      links: [
        { url: null, label: '&laquo; Previous', active: false },
        { url: `${BASE}&page=1`, label: '1', active: true },
        { url: `${BASE}&page=2`, label: '2', active: false },
        { url: `${BASE}&page=2`, label: 'Next &raquo;', active: false },
      ],
      path: `${ORIGIN}/api/v1/pixels`,
      per_page: 10,
      to: 10,
      total: 12,
    });
    expect(body.status).toBe(200);
  });

  it('serves the last page with next null', async () => {
    const { mgmt } = setup();
    const { body } = await read(await mgmt('GET', 'pixels?page=2'));
    expect(body.data.map((p: { id: number }) => p.id)).toEqual([2, 1]);
    expect(body.links.prev).toBe(`${BASE}&page=1`);
    expect(body.links.next).toBeNull();
    expect([body.meta.from, body.meta.to, body.meta.current_page]).toEqual([11, 12, 2]);
  });

  it('gives from/to null on an empty page past the end', async () => {
    const { mgmt } = setup();
    const { body } = await read(await mgmt('GET', 'pixels?page=5'));
    expect(body.data).toEqual([]);
    expect([body.meta.from, body.meta.to, body.meta.last_page, body.meta.current_page]).toEqual([
      null,
      null,
      2,
      5,
    ]);
  });

  it('searches a case-insensitive substring of the name and carries it in the links', async () => {
    const { mgmt } = setup();
    const { body } = await read(await mgmt('GET', 'pixels?search=FACEBOOK&sort_by=name&sort=asc'));
    expect(names(body)).toEqual(['Facebook Main', 'facebook retargeting']);
    expect(body.links.first).toBe(
      `${ORIGIN}/api/v1/pixels?search=FACEBOOK&search_by=name&sort_by=name&sort=asc&per_page=10&page=1`,
    );
  });

  it('encodes spaces in links as %20 (RFC 3986, as Arr::query does)', async () => {
    const { mgmt } = setup();
    const { body } = await read(await mgmt('GET', 'pixels?search=tag%20man'));
    expect(names(body)).toEqual(['Tag Manager']);
    expect(body.links.first).toBe(`${ORIGIN}/api/v1/pixels?search=tag%20man&${BASE.split('?')[1]}&page=1`);
  });

  it('filters by exact type; an unknown type matches nothing without an error', async () => {
    const { mgmt } = setup();
    const { body } = await read(await mgmt('GET', 'pixels?type=google-ads&sort=asc'));
    expect(names(body)).toEqual(['Google Ads Search', 'Zeta Campaign']);
    expect(body.links.first).toBe(
      `${ORIGIN}/api/v1/pixels?search_by=name&type=google-ads&sort_by=id&sort=asc&per_page=10&page=1`,
    );
    const unknown = await read(await mgmt('GET', 'pixels?type=tiktok'));
    expect(unknown.status).toBe(200);
    expect(unknown.body.meta.total).toBe(0);
  });

  it('sorts by name descending', async () => {
    const { mgmt } = setup();
    const { body } = await read(await mgmt('GET', 'pixels?sort_by=name&per_page=25'));
    expect(names(body).slice(0, 3)).toEqual(['Zeta Campaign', 'X Conversions', 'Tag Manager']);
    expect(body.meta.per_page).toBe(25);
    expect(body.meta.last_page).toBe(1);
  });

  it('silently replaces invalid search_by, sort_by, sort, per_page and page with the defaults', async () => {
    const { mgmt } = setup();
    const { status, body } = await read(
      await mgmt('GET', 'pixels?search_by=value&sort_by=type&sort=up&per_page=30&page=-2'),
    );
    expect(status).toBe(200);
    expect(body.meta.per_page).toBe(10);
    expect(body.meta.current_page).toBe(1);
    expect(body.data[0].id).toBe(12);
    expect(body.links.first).toBe(`${BASE}&page=1`);
  });

  it('pages through generated records (seed.pixels) with per_page 100', async () => {
    const { mgmt } = setup({ seed: { pixels: 200 } });
    const { body } = await read(await mgmt('GET', 'pixels?per_page=100&page=3'));
    expect(body.meta.total).toBe(212);
    expect(body.meta.last_page).toBe(3);
    expect(body.data).toHaveLength(12);
  });
});

describe('Domains list', () => {
  it('searches and ignores a type filter', async () => {
    const { mgmt } = setup();
    const { body } = await read(await mgmt('GET', 'domains?search=EXAMPLE.&type=x&sort_by=name&sort=asc'));
    expect(names(body)).toEqual(['go.example.org', 'links.example.com', 'short.example.net']);
    expect(body.data[1]).toEqual({
      id: 1,
      name: 'links.example.com',
      url: 'https://links.example.com',
      index_page: 'https://example.com',
      not_found_page: 'https://example.com/404',
      created_at: '2025-01-15T10:32:30.000000Z',
      updated_at: '2025-01-15T10:32:30.000000Z',
    });
    expect(body.links.first).toBe(
      `${ORIGIN}/api/v1/domains?search=EXAMPLE.&search_by=name&sort_by=name&sort=asc&per_page=10&page=1`,
    );
  });
});

describe('paginate (Laravel UrlWindow)', () => {
  const labels = (page: number, total: number) =>
    paginate(
      Array.from({ length: total }, (_, i) => i),
      { page, perPage: 10, path: 'http://x/p', query: [] },
    ).meta.links.map((l) => l.label);

  it('lists every page up to 13 pages', () => {
    expect(labels(1, 130)).toEqual([
      '&laquo; Previous',
      ...Array.from({ length: 13 }, (_, i) => String(i + 1)),
      'Next &raquo;',
    ]);
  });

  it('slides with ... gaps beyond 13 pages', () => {
    expect(labels(1, 200).slice(1, -1)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '10',
      '...',
      '19',
      '20',
    ]);
    expect(labels(10, 200).slice(1, -1)).toEqual([
      '1',
      '2',
      '...',
      '7',
      '8',
      '9',
      '10',
      '11',
      '12',
      '13',
      '...',
      '19',
      '20',
    ]);
    expect(labels(20, 200).slice(1, -1)).toEqual([
      '1',
      '2',
      '...',
      '11',
      '12',
      '13',
      '14',
      '15',
      '16',
      '17',
      '18',
      '19',
      '20',
    ]);
  });

  it('encodes the query like PHP http_build_query with RFC 3986', () => {
    expect(encodeQuery([['search', "a b!'()*&é"]])).toBe('search=a%20b%21%27%28%29%2A%26%C3%A9');
  });
});
