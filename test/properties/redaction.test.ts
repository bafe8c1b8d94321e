import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { redact, scrubber } from '../../src/core/errors/redact.js';
import { HttpClient } from '../../src/core/transport/http.js';
import { createLog } from '../../src/core/transport/log.js';
import { resolveOptions } from '../../src/core/transport/options.js';
import { CATALOG_KIND, noParsers } from '../helpers/core.js';

const RUNS = { numRuns: 1000 };

/** Keys as a dashboard might issue them, plus the characters URL encodings treat differently. */
const key = fc
  .string({ unit: fc.constantFrom(..."abcXYZ0189+/=~!'()._-".split('')), minLength: 8, maxLength: 40 })
  .filter((k) => /[a-z0-9]/i.test(k));

const formEncoded = (text: string) => new URLSearchParams([['', text]]).toString().slice(1);
const unicodeEscaped = (text: string, which: RegExp) =>
  text.replace(which, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The ways a key shows up in text: raw, encodeURIComponent, a query string's form encoding, each once and twice
 * (a URL inside a `next=` parameter), with lower-case hex; inside a JSON string as JSON.stringify and as PHP's
 * json_encode write it (`\/`, `\u00XX`).
 */
function forms(secret: string): string[] {
  const once = [encodeURIComponent(secret), formEncoded(secret)];
  return [
    secret,
    ...once,
    ...once.flatMap((form) => [encodeURIComponent(form), formEncoded(form)]),
    encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    JSON.stringify(secret).slice(1, -1),
    secret.replaceAll('/', '\\/'),
    unicodeEscaped(secret, /[^a-z0-9]/gi),
    unicodeEscaped(secret, /./g).toUpperCase().replaceAll('\\U', '\\u'),
  ];
}

describe('redaction', () => {
  it('redact() removes the key in every encoding from any surrounding text', () => {
    fc.assert(
      fc.property(
        key,
        fc.string(),
        fc.string(),
        fc.nat(forms('k').length - 1),
        (secret, before, after, which) => {
          const text = `${before}${forms(secret)[which]}${after}`;
          const out = redact(text, secret);
          for (const form of forms(secret)) expect(out).not.toContain(form);
        },
      ),
      RUNS,
    );
  });

  it('a log line never carries the key, whatever the message', () => {
    fc.assert(
      fc.property(key, fc.string(), fc.nat(forms('k').length - 1), (secret, message, which) => {
        const lines: string[] = [];
        const sink = (line: string) => lines.push(line);
        const log = createLog(
          { error: sink, warn: sink, info: sink, debug: sink },
          'debug',
          scrubber(secret),
        );
        log('debug', `${message} ${forms(secret)[which]} ${message}`, {});
        for (const form of forms(secret)) expect(lines[0]).not.toContain(form);
      }),
      RUNS,
    );
  });

  it('an error answer that echoes the request (URL, body, Location) never shows the key', async () => {
    await fc.assert(
      fc.asyncProperty(key, fc.constantFrom(302, 400, 429, 500, 503), async (secret, status) => {
        const fetch = async (request: Request) => {
          const echo = `${request.url} ${await request.text()}`;
          return new Response(JSON.stringify({ message: echo, status: 'error', msg: echo }), {
            status,
            headers: { location: request.url, 'x-echo': echo, 'retry-after': '3600' },
          });
        };
        const http = new HttpClient(
          resolveOptions(
            { apiKey: secret, siteUrl: 'https://market.example.com', maxRetries: 0, fetch, logLevel: 'off' },
            CATALOG_KIND,
          ),
          {
            name: 'catalog',
            credentials: { kind: 'param', name: 'api_key' },
            body: 'json',
            retryMethods: [],
            readError: () => undefined,
            parsers: noParsers,
          },
        );
        for (const call of [
          http.get('items/all', z.unknown()),
          http.post('purchases/validation', z.unknown(), { purchase_code: 'x' }),
        ]) {
          const error = await call.then(
            () => undefined,
            (e: unknown) => e as Error,
          );
          const texts = [error?.message, error?.stack, JSON.stringify(error), inspect(error, { depth: 10 })];
          for (const text of texts) for (const form of forms(secret.trim())) expect(text).not.toContain(form);
        }
      }),
      RUNS,
    );
    // 2 000 calls through the whole client, CPU-bound: 2-8 s alone, and 29 s of a 30 s limit next to three busy
    // processes on a 2-core machine. The limit is for a hang only.
  }, 120_000);
});
