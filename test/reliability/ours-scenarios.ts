import { createServer, type Server } from 'node:net';
import ky from 'ky';
import { expect } from 'vitest';
import {
  APIError,
  ContentPlatformError,
  InternalServerError,
  InvalidParamsError,
} from '../../src/core/errors/classes.js';
import type { RequestOptions } from '../../src/core/transport/index.js';
import { ManagementClient } from '../../src/management/index.js';
import { attempts, capturingLogger, failure, MGMT_KEY, nativeFetch, type Scenario } from './harness.js';

/** A server on 127.0.0.1 whose every answer is `statusLine` with a small JSON body (fetch passes 600-999 on). */
async function rawServer(
  statusLine: string,
): Promise<{ url: string; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const server: Server = createServer((socket) => {
    socket.once('data', () => {
      hits += 1;
      socket.end(
        `HTTP/1.1 ${statusLine}\r\ncontent-type: application/json\r\ncontent-length: 2\r\n` +
          `x-echo: Bearer ${MGMT_KEY}\r\nconnection: close\r\n\r\n{}`,
      );
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    hits: () => hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** What a user's JavaScript may pass where the types say otherwise. */
const untyped = (options: Record<string, unknown>) => options as RequestOptions;

/** Whatever goes wrong, the caller gets one of the SDK's errors, never ky's, fetch's or a RangeError. */
export const oursScenarios: Scenario[] = [
  ...(['600 Beyond', '999 Whatever'] as const).map(
    (statusLine): Scenario => ({
      name: `a status line of ${statusLine.slice(0, 3)}: an APIError of ours, not a RangeError, not retried`,
      within: 1_500,
      async run() {
        const raw = await rawServer(statusLine);
        try {
          const client = new ManagementClient({
            apiKey: MGMT_KEY,
            baseUrl: raw.url,
            fetch: (request) => nativeFetch(request),
            logger: capturingLogger,
            logLevel: 'debug',
          });
          const error = await failure(client.pixels.get(1));
          expect(error).toBeInstanceOf(APIError);
          expect(error).toMatchObject({
            status: Number(statusLine.slice(0, 3)),
            attempts: 1,
            body: undefined,
          });
          expect(error.message).toBe(
            `GET ${raw.url}/api/v1/pixels/1 was answered with status ${statusLine.slice(0, 3)}, which HTTP does not ` +
              'define (final statuses run from 200 to 599); the SDK did not read the body. A proxy or the server is broken.',
          );
          expect((error as APIError).headers.get('x-echo')).toBe('Bearer ***');
          expect(raw.hits()).toBe(1);
        } finally {
          await raw.close();
        }
      },
    }),
  ),
  // A reason phrase no Response can carry (Arabic, an ESC) is tested in test/core/reason-phrase.test.ts over a raw
  // 127.0.0.1 socket, not here: with msw listening in this file, msw's own socket interceptor throws on such a phrase
  // in its parser (an uncaught TypeError outside the SDK, which fails the run although every scenario passes).
  {
    name: 'a beforeRetry hook returning ky.stop: the call ends with the answer it stopped retrying',
    within: 1_500,
    async run(rig, via) {
      rig.server.faults.script([{ status: 503 }]);
      const error = await failure(rig.mgmt(via).pixels.get(1, { hooks: { beforeRetry: [() => ky.stop] } }));
      expect(error).toBeInstanceOf(InternalServerError);
      expect(error).toMatchObject({ status: 503, attempts: 1 });
      expect(attempts(rig)).toBe(1);
    },
  },
  {
    name: 'an afterResponse hook forcing ky.retry() past maxRetries: our error saying so, not ForceRetryError',
    within: 1_500,
    async run(rig, via) {
      const cause = new Error('the cache said stale');
      const error = await failure(
        rig
          .mgmt(via, { maxRetries: 2 })
          .pixels.get(1, { hooks: { afterResponse: [() => ky.retry({ delay: 0, cause })] } }),
      );
      expect(error.constructor).toBe(ContentPlatformError);
      expect(error.message).toBe(
        `GET ${rig.socketUrl()}/api/v1/pixels/1: an afterResponse hook asked for a retry (ky.retry()) after the ` +
          'last one allowed (3 attempts, maxRetries 2); raise maxRetries, or have the hook throw its own error.',
      );
      expect((error.cause as Error).message).toBe('the cache said stale');
      expect(attempts(rig)).toBe(3);
    },
  },
  {
    name: 'an afterResponse hook forcing ky.retry() on a 500 past maxRetries: the 500 as InternalServerError',
    within: 1_500,
    async run(rig, via) {
      rig.server.faults.set({ failureRate: 1, failureStatuses: [500] });
      const error = await failure(
        rig
          .mgmt(via, { maxRetries: 1 })
          .pixels.get(1, { hooks: { afterResponse: [() => ky.retry({ delay: 0 })] } }),
      );
      expect(error).toBeInstanceOf(InternalServerError);
      expect(error).toMatchObject({ status: 500, attempts: 2 });
    },
  },
  ...[
    ['a string', 'abort'],
    ['an object that looks like one', { aborted: false, addEventListener() {} }],
  ].map(
    ([what, signal]): Scenario => ({
      name: `a signal that is not an AbortSignal (${what}): InvalidParamsError before anything is sent`,
      within: 1_000,
      async run(rig, via) {
        const error = await failure(rig.mgmt(via).pixels.get(1, untyped({ signal })));
        expect(error).toBeInstanceOf(InvalidParamsError);
        expect(error).toMatchObject({ param: 'signal', attempts: 0 });
        expect(error.message).toMatch(
          /^signal must be an AbortSignal \(e\.g\. AbortSignal\.timeout\(5_000\)/,
        );
        expect(attempts(rig)).toBe(0);
      },
    }),
  ),
  {
    name: "headers: 'garbage' is refused, for the client and for one call, before anything is sent",
    within: 1_000,
    async run(rig, via) {
      const message =
        'headers must be an object of header names to values, a Headers, or an array of [name, value] pairs; ' +
        'got a string.';
      expect(() => rig.mgmt(via, untyped({ headers: 'garbage' }))).toThrow(
        new InvalidParamsError(message, 'headers'),
      );
      const error = await failure(rig.mgmt(via).pixels.get(1, untyped({ headers: 'garbage' })));
      expect(error).toBeInstanceOf(InvalidParamsError);
      expect(error).toMatchObject({ param: 'headers', message });
      expect(() => rig.mgmt(via, untyped({ headers: [['x-a', '1'], ['x-b']] }))).toThrow(InvalidParamsError);
      expect(attempts(rig)).toBe(0);
    },
  },
  {
    name: 'headers as a Headers or as [name, value] pairs are sent, for the client, a derived client and one call',
    within: 1_000,
    async run(rig, via) {
      const client = rig.mgmt(via, { headers: new Headers({ 'x-client': 'headers-instance' }) });
      await client.pixels.get(1, { headers: [['x-call', 'pairs']] });
      await client.withOptions({ headers: [['x-derived', 'pairs']] }).pixels.get(1);
      const [first, second] = rig.server.requests;
      expect(first?.headers).toMatchObject({ 'x-client': 'headers-instance', 'x-call': 'pairs' });
      expect(second?.headers).toMatchObject({ 'x-client': 'headers-instance', 'x-derived': 'pairs' });
      expect(Object.keys(first?.headers ?? {})).not.toContain('0');
    },
  },
];
