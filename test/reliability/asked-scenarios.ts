import { expect } from 'vitest';
import {
  AccountRequestError,
  AuthenticationError,
  InternalServerError,
  ResponseValidationError,
} from '../../src/core/errors/classes.js';
import { attempts, editJson, failure, MGMT_KEY, type Middleware, type Scenario } from './harness.js';

type Json = Record<string, unknown>;

/** The record of a Management answer: under `data` (show, update), or the body itself (a delete receipt). */
function recordOf(body: unknown): Json {
  const envelope = body as Json;
  return (envelope.data ?? envelope) as Json;
}

/** Rewrites the id of the record answering `method path` (the rest of the API answers as it is). */
function answersAbout(method: string, path: string, id: number | string): Middleware {
  return editJson((body, request) => {
    if (request.method === method && new URL(request.url).pathname.endsWith(path)) {
      const record = recordOf(body);
      // A Catalog item sits under `item`; a Management record under `data`, or is the body.
      ((record.item as Json | undefined) ?? record).id = id;
    }
    return body;
  });
}

/** Adds `X-Request-Id: req-N` to the Nth answer of the test. */
function numberedRequestIds(): Middleware {
  let n = 0;
  return async (request, next) => {
    const response = await next(request);
    const headers = new Headers(response.headers);
    headers.set('x-request-id', `req-${++n}`);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}

/** The server acts on the request (the record is created), then the gateway in front answers `status`. */
function gatewayGivesUp(status: 502 | 504): Middleware {
  return async (request, next) => {
    await (await next(request)).arrayBuffer();
    const { body, ...init } = gatewayPage(status);
    return new Response(body, init);
  };
}

/** The HTML page nginx answers when it gives up on the server behind it. */
function gatewayPage(status: 502 | 504) {
  const title = status === 502 ? '502 Bad Gateway' : '504 Gateway Time-out';
  return {
    status,
    body: `<html><head><title>${title}</title></head><body><center>nginx</center></body></html>`,
    headers: { 'content-type': 'text/html' },
  };
}

/** The error of a call answered about another record: the class, message, issue, status and body. */
function expectAboutAnother(error: Error, message: string | RegExp, asked: number, sent: number): void {
  expect(error).toBeInstanceOf(ResponseValidationError);
  const invalid = error as ResponseValidationError;
  if (typeof message === 'string') expect(invalid.message).toBe(message);
  else expect(invalid.message).toMatch(message);
  expect(invalid.issues).toEqual([{ path: ['id'], message: `expected ${asked}, got ${sent}` }]);
  expect(invalid.status).toBe(200);
  expect(invalid.attempts).toBe(1);
  expect(invalid.body).toMatchObject({ id: sent });
}

/**
 * Answers about another record than the one asked for (a get, an update, a delete receipt, a Catalog item), and
 * small ones: verifyCredentials' attempts and request id, and a gateway's 502 or 504 answering a create.
 */
export const askedScenarios: Scenario[] = [
  {
    name: 'pixels.get(1) answered about pixel 2: ResponseValidationError; asked as "001", or answered with id "1", it is pixel 1',
    via: ['socket', 'msw', 'fetch'],
    within: 1_000,
    async run(rig, via) {
      const client = rig.mgmt(via);
      rig.use(answersAbout('GET', '/pixels/1', 2));
      const error = await failure(client.pixels.get(1));
      expectAboutAnother(
        error,
        /^GET https?:\/\/[^/\s]+\/api\/v1\/pixels\/1: the answer is about pixel 2, not pixel 1\.$/,
        1,
        2,
      );
      // Ids compare as numbers: a padded id asked for, or a numeric string sent back, names the same pixel.
      rig.use(answersAbout('GET', '/pixels/001', '1'));
      await expect(client.pixels.get('001')).resolves.toMatchObject({ id: 1, name: 'Facebook Main' });
      expect(attempts(rig)).toBe(2);
    },
  },
  {
    name: 'domains.get(id) answered about another domain: ResponseValidationError naming both ids',
    within: 1_000,
    async run(rig, via) {
      const [asked, other] = rig.server.store.domains(MGMT_KEY).map((d) => d.id) as [number, number];
      rig.use(answersAbout('GET', `/domains/${asked}`, other));
      const error = await failure(rig.mgmt(via).domains.get(asked));
      expectAboutAnother(
        error,
        `GET ${rig.socketUrl()}/api/v1/domains/${asked}: the answer is about domain ${other}, not domain ${asked}.`,
        asked,
        other,
      );
      expect(attempts(rig)).toBe(1);
    },
  },
  {
    name: 'pixels.update(1) answered about pixel 2: ResponseValidationError, not retried',
    within: 1_000,
    async run(rig, via) {
      rig.use(answersAbout('PUT', '/pixels/1', 2));
      const error = await failure(rig.mgmt(via).pixels.update(1, { name: 'Renamed' }));
      expectAboutAnother(
        error,
        `PUT ${rig.socketUrl()}/api/v1/pixels/1: the answer is about pixel 2, not pixel 1.`,
        1,
        2,
      );
      expect((error as ResponseValidationError).body).toMatchObject({ name: 'Renamed' });
      expect(attempts(rig)).toBe(1);
    },
  },
  {
    name: 'pixels.delete(1) with a receipt about pixel 2: ResponseValidationError; a 204 delete still resolves to its receipt',
    within: 1_000,
    async run(rig, via) {
      const noContent: Middleware = async (request, next) => {
        const response = await next(request);
        await response.arrayBuffer();
        return new Response(null, { status: 204 });
      };
      const receiptAbout2 = answersAbout('DELETE', '/pixels/1', 2);
      rig.use((request, next) =>
        new URL(request.url).pathname.endsWith('/pixels/3')
          ? noContent(request, next)
          : receiptAbout2(request, next),
      );
      const client = rig.mgmt(via);
      const error = await failure(client.pixels.delete(1));
      expectAboutAnother(
        error,
        `DELETE ${rig.socketUrl()}/api/v1/pixels/1: the answer is about pixel 2, not pixel 1.`,
        1,
        2,
      );
      expect((error as ResponseValidationError).body).toEqual({ id: 2, object: 'pixel', deleted: true });
      // The receipt of a 204 is built from the id asked for: it passes.
      await expect(client.pixels.delete('3')).resolves.toEqual({ id: 3, object: 'pixel', deleted: true });
      expect(attempts(rig)).toBe(2);
    },
  },
  {
    name: 'Catalog: items.get(101) answered about item 102: ResponseValidationError, the key masked in the message',
    via: ['socket', 'fetch'],
    within: 1_000,
    async run(rig, via) {
      rig.use(answersAbout('GET', '/items/item', 102));
      const error = await failure(rig.catalog(via).items.get(101));
      expectAboutAnother(
        error,
        /^GET https?:\/\/[^/\s]+\/api\/items\/item\?item_id=101&api_key=\*\*\*: the answer is about item 102, not item 101\.$/,
        101,
        102,
      );
      expect(attempts(rig)).toBe(1);
    },
  },
  {
    name: 'verifyCredentials with a wrong key after a 503: AuthenticationError with attempts 2 and the last request id, on both APIs',
    within: 2_000,
    async run(rig, via) {
      rig.use(numberedRequestIds());
      rig.server.faults.script([{ status: 503, headers: { 'retry-after': '0' } }]);
      const catalog = rig.catalog(via, { apiKey: 'ck_not_a_known_key' });
      const error = await failure(catalog.verifyCredentials());
      expect(error).toBeInstanceOf(AuthenticationError);
      const refused = error as AuthenticationError;
      expect(refused.message).toMatch(/^CatalogClient\.verifyCredentials: the server refused the API key \(/);
      expect(refused.status).toBe(401);
      expect(refused.attempts).toBe(2);
      expect(refused.requestId).toBe('req-2');
      expect(refused.cause).toBeInstanceOf(AccountRequestError);
      expect(refused.cause).toMatchObject({ attempts: 2, requestId: 'req-2' });
      expect(refused.toJSON()).toMatchObject({ attempts: 2, requestId: 'req-2' });
      // ManagementClient's refusal is the call's own error: it has them too.
      rig.server.faults.script([{ status: 503, headers: { 'retry-after': '0' } }]);
      const mgmt = rig.mgmt(via, { apiKey: 'mk_not_a_known_key' });
      const denied = await failure(mgmt.verifyCredentials());
      expect(denied).toBeInstanceOf(AuthenticationError);
      expect(denied).toMatchObject({ status: 401, attempts: 2, requestId: 'req-4' });
      expect(attempts(rig)).toBe(4);
    },
  },
  {
    name: 'a 502 (nginx) answering pixels.create: InternalServerError with mayHaveSucceeded true, not retried',
    within: 1_000,
    async run(rig, via) {
      rig.server.faults.script([gatewayPage(502)]);
      const error = await failure(
        rig.mgmt(via).pixels.create({ name: 'Behind a gateway', type: 'x', value: '1' }),
      );
      expect(error).toBeInstanceOf(InternalServerError);
      const failed = error as InternalServerError;
      expect(failed.status).toBe(502);
      expect(failed.mayHaveSucceeded).toBe(true);
      expect(failed.attempts).toBe(1);
      expect(failed.message).toMatch(
        new RegExp(
          `^POST ${rig.socketUrl()}/api/v1/pixels failed with 502 Bad Gateway: the body was an HTML page`,
        ),
      );
      expect(failed.message).toMatch(
        /\. The create may have succeeded: a gateway answered 502, and the server behind it may have acted on it; check before sending it again\.$/,
      );
      expect(failed.toJSON()).toMatchObject({ status: 502, mayHaveSucceeded: true });
      // An update is safe to send again: its 502 (here with no retry left) says nothing of it.
      rig.server.faults.script([gatewayPage(502)]);
      const update = await failure(rig.mgmt(via, { maxRetries: 0 }).pixels.update(1, { name: 'Again' }));
      expect(update).toMatchObject({ status: 502, attempts: 1 });
      expect((update as InternalServerError).mayHaveSucceeded).toBeUndefined();
      expect(update.message).not.toContain('may have succeeded');
      expect(attempts(rig)).toBe(2);
    },
  },
  {
    name: 'a 504 answering a create the server did act on: mayHaveSucceeded true (pixel and domain); a 500 or 503 says nothing of it',
    within: 1_000,
    async run(rig, via) {
      const client = rig.mgmt(via);
      const before = rig.pixels().length;
      rig.use(gatewayGivesUp(504));
      const error = await failure(
        client.pixels.create({ name: 'Timed out upstream', type: 'x', value: '1' }),
      );
      expect(error).toBeInstanceOf(InternalServerError);
      expect(error).toMatchObject({ status: 504, mayHaveSucceeded: true, attempts: 1 });
      expect(error.message).toContain(
        'The create may have succeeded: a gateway answered 504, and the server behind it may have acted on it; ' +
          'check before sending it again.',
      );
      // The origin did create it: checking before creating again is what the message asks.
      expect(rig.pixels()).toHaveLength(before + 1);
      const domain = await failure(client.domains.create({ name: 'upstream.example.org' }));
      expect(domain).toMatchObject({ status: 504, mayHaveSucceeded: true });
      rig.use((request, next) => next(request));
      for (const status of [500, 503]) {
        rig.server.faults.script([{ status }]);
        const other = await failure(
          client.pixels.create({ name: `Failed ${status}`, type: 'x', value: '1' }),
        );
        expect(other).toBeInstanceOf(InternalServerError);
        expect(other).toMatchObject({ status, attempts: 1 });
        expect((other as InternalServerError).mayHaveSucceeded).toBeUndefined();
        expect(other.message).not.toContain('may have succeeded');
      }
      expect(attempts(rig)).toBe(4);
    },
  },
];
