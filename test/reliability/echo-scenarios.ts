import { inspect } from 'node:util';
import { expect } from 'vitest';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  CatalogError,
  InternalServerError,
  ResponseValidationError,
  UnprocessableEntityError,
} from '../../src/core/errors/classes.js';
import { CATALOG_KEY, failure, MGMT_KEY, type Scenario, TOKEN } from './harness.js';

/** Faults where a server (or a proxy in front of it) echoes the key back: every error must mask it. */
export const echoScenarios: Scenario[] = [
  {
    name: 'secrets: a 500 debug page that dumps the Authorization header',
    via: ['socket', 'msw'],
    within: 1_000,
    async run(rig, via) {
      const page = `<h1>Whoops</h1><pre>Authorization: Bearer ${MGMT_KEY}\nHTTP_AUTHORIZATION=Bearer ${MGMT_KEY}</pre>`;
      rig.server.faults.script([{ status: 500, body: page, headers: { 'content-type': 'text/html' } }]);
      const error = await failure(rig.mgmt(via, { maxRetries: 0 }).pixels.get(1));
      expect(error).toBeInstanceOf(InternalServerError);
      expect(String((error as APIError).body)).toContain('Bearer ***');
    },
  },
  {
    name: 'secrets: a 401 and a 422 whose messages quote the key',
    via: ['socket'],
    within: 1_000,
    async run(rig, via) {
      rig.server.faults.script([
        { status: 401, body: { message: `Key ${MGMT_KEY} is not valid.` } },
        { status: 422, body: { message: { name: [`Name may not contain ${MGMT_KEY}.`] }, status: 422 } },
      ]);
      const client = rig.mgmt(via);
      expect(await failure(client.pixels.get(1))).toBeInstanceOf(AuthenticationError);
      const invalid = await failure(client.pixels.create({ name: 'x', type: 'x', value: '1' }));
      expect(invalid).toBeInstanceOf(UnprocessableEntityError);
      expect((invalid as UnprocessableEntityError).fieldErrors.name).toEqual(['Name may not contain ***.']);
    },
  },
  {
    name: 'secrets: a 200 of the wrong shape that echoes the key',
    via: ['fetch'],
    within: 1_000,
    async run(rig, via) {
      rig.server.faults.script([{ status: 200, body: { debug: { token: MGMT_KEY }, oops: true } }]);
      const error = await failure(rig.mgmt(via).pixels.get(1));
      expect(error).toBeInstanceOf(ResponseValidationError);
    },
  },
  {
    name: 'secrets: a 503 whose response headers echo the key (a debugging proxy)',
    via: ['socket'],
    within: 1_000,
    async run(rig, via) {
      rig.server.faults.script([
        {
          status: 503,
          body: { message: 'busy' },
          headers: { 'x-debug-authorization': `Bearer ${MGMT_KEY}` },
        },
      ]);
      const error = await failure(rig.mgmt(via, { maxRetries: 0 }).pixels.get(1));
      expect(error).toBeInstanceOf(InternalServerError);
      expect((error as APIError).headers.get('x-debug-authorization')).toBe('Bearer ***');
    },
  },
  {
    name: 'secrets: a Catalog redirect whose Location carries the api_key',
    via: ['socket', 'msw'],
    within: 1_000,
    async run(rig, via) {
      const location = `https://market.example.com/?api_key=${encodeURIComponent(CATALOG_KEY)}`;
      rig.server.faults.script([{ status: 302, headers: { location } }]);
      const error = await failure(rig.catalog(via).items.list());
      expect(error.constructor).toBe(APIError);
      expect(error.message).toContain('https://market.example.com/?api_key=***');
    },
  },
  {
    name: 'secrets: a Catalog envelope whose msg echoes the key, at 200 and at 400',
    via: ['socket', 'fetch'],
    within: 1_000,
    async run(rig, via) {
      rig.server.faults.script([
        { status: 200, body: { status: 'خطأ', msg: `المفتاح ${CATALOG_KEY} غير صالح`, key: CATALOG_KEY } },
        { status: 400, body: { status: 'error', msg: `The api key ${CATALOG_KEY} is invalid.` } },
      ]);
      const client = rig.catalog(via);
      const at200 = await failure(client.account.details());
      const at400 = await failure(client.items.list());
      expect(at200).toBeInstanceOf(CatalogError);
      expect((at200 as CatalogError).msg).toBe('المفتاح *** غير صالح');
      expect((at400 as CatalogError).code).toBe('bad_request');
      expect(JSON.stringify(at400)).not.toContain(TOKEN);
    },
  },
  {
    name: 'secrets: echoes escaped as PHP’s json_encode writes them (\\/, \\u00XX) in a 400, a 200 of the wrong shape and a Catalog 422',
    via: ['socket', 'msw'],
    within: 1_000,
    async run(rig, via) {
      const json = { 'content-type': 'application/json' };
      const mgmtEscaped = MGMT_KEY.replaceAll('_', '\\u005f');
      const catalogEscaped = CATALOG_KEY.replace('/', '\\/').replace('+', '\\u002B');
      rig.server.faults.script([
        { status: 400, body: `{"message":"Key ${mgmtEscaped} is not valid."}`, headers: json },
        { status: 200, body: `{"debug":{"token":"${mgmtEscaped}","${mgmtEscaped}":1}}`, headers: json },
        { status: 422, body: `{"status":"خطأ","msg":"المفتاح ${catalogEscaped} غير صالح"}`, headers: json },
      ]);
      const client = rig.mgmt(via, { maxRetries: 0 });
      const at400 = await failure(client.pixels.get(1));
      const at200 = await failure(client.pixels.get(1));
      const at422 = await failure(rig.catalog(via).items.list());
      expect(at400).toBeInstanceOf(BadRequestError);
      expect(at400.message).toContain('"Key *** is not valid."');
      expect((at400 as APIError).body).toEqual({ message: 'Key *** is not valid.' });
      expect(at200).toBeInstanceOf(ResponseValidationError);
      expect((at200 as ResponseValidationError).body).toEqual({ debug: { token: '***', '***': 1 } });
      expect(at422).toBeInstanceOf(CatalogError);
      expect((at422 as CatalogError).msg).toBe('المفتاح *** غير صالح');
      for (const error of [at400, at200, at422]) {
        const shown = [error.message, error.stack, JSON.stringify(error), inspect(error, { depth: 12 })].join(
          '\n',
        );
        expect(shown).not.toContain(TOKEN);
      }
    },
  },
  {
    name: 'secrets: a status line whose reason text quotes the key (500 Bad token <key>)',
    via: ['socket'],
    within: 1_000,
    async run(rig, via) {
      rig.use(async () => new Response('{}', { status: 500, statusText: `Bad token ${MGMT_KEY}` }));
      const error = await failure(rig.mgmt(via, { maxRetries: 0 }).pixels.get(1));
      expect(error).toBeInstanceOf(InternalServerError);
      expect(error.message).toMatch(/\/pixels\/1 failed with 500 Bad token \*\*\*: /);
      expect(error.message).not.toContain(TOKEN);
    },
  },
  {
    name: 'secrets: a 302 to a login page whose Location carries the key URL-encoded once and twice',
    via: ['socket'],
    within: 1_000,
    async run(rig, via) {
      const back = `/api/items/all?api_key=${encodeURIComponent(CATALOG_KEY)}`;
      const location = `/login?next=${encodeURIComponent(back)}&lower=${encodeURIComponent(CATALOG_KEY).toLowerCase().replace(TOKEN.toLowerCase(), TOKEN)}`;
      expect(location).toContain(encodeURIComponent(encodeURIComponent(CATALOG_KEY)));
      rig.use(async () => new Response(null, { status: 302, headers: { location } }));
      const error = await failure(rig.catalog(via).items.list());
      expect(error).toBeInstanceOf(AuthenticationError);
      expect((error as APIError).headers.get('location')).toBe(
        `/login?next=${encodeURIComponent('/api/items/all?api_key=')}***&lower=***`,
      );
    },
  },
];
