import { expect } from 'vitest';
import {
  APIError,
  AuthenticationError,
  CatalogError,
  InternalServerError,
  ResponseValidationError,
  UnprocessableEntityError,
} from '../../src/core/errors.js';
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
];
