import { expect } from 'vitest';
import {
  type APIError,
  InternalServerError,
  ResponseValidationError,
} from '../../src/core/errors/classes.js';
import { attempts, editJson, failure, type Scenario } from './harness.js';

type Json = Record<string, unknown>;

/** The entity (or entities) of a Management answer: `data` of a show or a page. */
function entities(body: unknown): Json[] {
  const data = (body as Json).data;
  return Array.isArray(data) ? (data as Json[]) : [data as Json];
}

function fakePixel(id: number): Json {
  return {
    id,
    name: `Pixel ${id} بكسل`,
    type: 'facebook',
    value: String(1_000_000_000 + id),
    created_at: '2025-01-15T10:20:30.000000Z',
    updated_at: '2025-01-15T10:20:30.000000Z',
  };
}

/** Answers that arrive whole but not as the SDK expects: size, content type, a schema that drifted. */
export const bodyScenarios: Scenario[] = [
  {
    name: 'huge body (a page of 100 pixels of 30 KB each, about 3 MB): counted as text, then parsed whole',
    via: ['socket', 'fetch'],
    within: 5_000,
    async run(rig, via) {
      rig.use(
        editJson((body) => ({
          ...(body as Json),
          // A page holds at most per_page records (see memory-scenarios.ts): this one is long by its values.
          data: Array.from({ length: 100 }, (_, i) => ({
            ...fakePixel(i + 1),
            value: `[${i}]`.repeat(7_500),
          })),
        })),
      );
      const page = await rig.mgmt(via).pixels.list({ per_page: 100 });
      expect(page.data).toHaveLength(100);
      expect(page.data[99]).toMatchObject({ id: 100, name: 'Pixel 100 بكسل' });
      expect(page.data[99]?.value).toHaveLength(30_000);
    },
  },
  {
    name: 'huge HTML error page (5 MB, 500): InternalServerError with a short message and the page’s first 64 KiB',
    via: ['socket', 'msw'],
    within: 5_000,
    async run(rig, via) {
      const page = `<html><body><pre>${'stack frame\n'.repeat(450_000)}</pre></body></html>`;
      rig.server.faults.script([{ status: 500, body: page, headers: { 'content-type': 'text/html' } }]);
      const error = await failure(rig.mgmt(via).pixels.get(1, { maxRetries: 0 }));
      expect(error).toBeInstanceOf(InternalServerError);
      expect(error.message.length).toBeLessThan(400);
      const body = (error as APIError).body as string;
      expect(body).toBe(`${page.slice(0, 65_536)}… [cut: the body was longer than 65536 bytes]`);
    },
  },
  {
    name: 'wrong content type (JSON sent as text/html): parsed as JSON',
    via: ['socket', 'msw', 'fetch'],
    within: 1_000,
    async run(rig, via) {
      rig.use(async (request, next) => {
        const response = await next(request);
        return new Response(await response.text(), {
          status: response.status,
          headers: { 'content-type': 'text/html; charset=UTF-8' },
        });
      });
      await expect(rig.mgmt(via).pixels.get(1)).resolves.toMatchObject({ id: 1, type: 'facebook' });
    },
  },
  {
    name: 'a schema that gained fields: parsed, the typed result keeps only known fields',
    via: ['socket', 'fetch'],
    within: 1_000,
    async run(rig, via) {
      rig.use(
        editJson((body) => {
          for (const entity of entities(body))
            Object.assign(entity, { workspace_id: 9, tags: ['a'], meta: { v: 2 } });
          return { ...(body as Json), request_id: 'r-1', deprecation: null };
        }),
      );
      const client = rig.mgmt(via);
      const pixel = await client.pixels.get(1);
      expect(Object.keys(pixel).sort()).toEqual(['created_at', 'id', 'name', 'type', 'updated_at', 'value']);
      const page = await client.domains.list();
      expect(page.data.length).toBeGreaterThan(0);
      expect(page.data[0]).not.toHaveProperty('workspace_id');
    },
  },
  {
    name: 'a required field turned null (pixel name): ResponseValidationError naming the field, not retried',
    via: ['socket', 'fetch'],
    within: 1_000,
    async run(rig, via) {
      rig.use(
        editJson((body) => {
          for (const entity of entities(body)) entity.name = null;
          return body;
        }),
      );
      const error = await failure(rig.mgmt(via).pixels.get(1));
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error.message).toMatch(/: data\.name: .*expected string/);
      expect((error as ResponseValidationError).issues[0]?.path).toEqual(['data', 'name']);
      expect((error as ResponseValidationError).issues.length).toBeGreaterThan(0);
      expect(attempts(rig)).toBe(1);
    },
  },
  {
    name: 'a nullable field turned null (domain index_page, not_found_page): parsed as null',
    via: ['socket'],
    within: 1_000,
    async run(rig, via) {
      rig.use(
        editJson((body) => {
          for (const entity of entities(body))
            Object.assign(entity, { index_page: null, not_found_page: null });
          return body;
        }),
      );
      await expect(rig.mgmt(via).domains.get(1)).resolves.toMatchObject({
        index_page: null,
        not_found_page: null,
      });
    },
  },
  {
    name: 'an unknown enum value (a pixel type newer than the SDK): kept as sent, in a list and a get',
    via: ['socket', 'msw'],
    within: 1_000,
    async run(rig, via) {
      rig.use(
        editJson((body) => {
          const [first] = entities(body);
          if (first) first.type = 'tiktok';
          return body;
        }),
      );
      const client = rig.mgmt(via);
      expect((await client.pixels.list()).data[0]?.type).toBe('tiktok');
      expect((await client.pixels.get(2)).type).toBe('tiktok');
    },
  },
  {
    name: 'ids as numeric strings (a PHP setup): read as numbers',
    via: ['fetch'],
    within: 1_000,
    async run(rig, via) {
      rig.use(
        editJson((body) => {
          for (const entity of entities(body)) entity.id = String(entity.id);
          return body;
        }),
      );
      await expect(rig.mgmt(via).pixels.get(7)).resolves.toMatchObject({ id: 7 });
    },
  },
];
