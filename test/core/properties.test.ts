import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decodeAnswer, statusError } from '../../src/core/errors/answer.js';
import { APIError, InvalidParamsError } from '../../src/core/errors/classes.js';
import { scrubber } from '../../src/core/errors/redact.js';
import { path } from '../../src/core/transport/path.js';
import { bearerClient, paramClient, SECRET } from '../helpers/core.js';

const RUNS = { numRuns: 1000 };

/** Text mixing any Unicode (Arabic, emoji, combining marks) with the characters URL encoding must escape. */
const text = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'grapheme' }),
      fc.constantFrom('&', '=', '+', '%', '%20', '?', '#', ' ', 'ع', '😀', '\n'),
    ),
  )
  .map((parts) => parts.join(''));

/** A fetch that records the request and answers `{}`: the round trip stays in process, no msw. */
function recorder() {
  const seen: { url: string; body: string }[] = [];
  const fetch = async (request: Request) => {
    // Read now: ky cancels the request body once the call settles.
    seen.push({ url: request.url, body: await request.text() });
    return Response.json({});
  };
  return { seen, fetch };
}

describe('properties', () => {
  it('form bodies round-trip any Unicode text exactly', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), text, { maxKeys: 4 }),
        async (fields) => {
          const { seen, fetch } = recorder();
          await bearerClient({ fetch }).post('pixels', z.unknown(), fields);
          const received = new URLSearchParams(seen[0]!.body);
          expect(Object.fromEntries(received)).toEqual({ ...fields });
        },
      ),
      RUNS,
    );
  });

  it('queries round-trip any Unicode text exactly, and the key is always the last api_key', async () => {
    await fc.assert(
      fc.asyncProperty(text, text, async (search, other) => {
        const { seen, fetch } = recorder();
        await paramClient({ fetch }).get('items/all', z.unknown(), {}, { search, other, api_key: other });
        const params = new URL(seen[0]!.url).searchParams;
        expect(params.get('search')).toBe(search);
        expect(params.get('other')).toBe(other);
        expect(params.getAll('api_key')).toEqual([SECRET]);
      }),
      RUNS,
    );
  });

  it('path encoding never escapes its segment', () => {
    fc.assert(
      fc.property(
        fc.oneof(text, fc.integer(), fc.double(), fc.constantFrom('..', '.', '/', '%2e%2e', '1/../2')),
        (id) => {
          let built: string;
          try {
            built = path`pixels/${id as string}`;
          } catch (error) {
            expect(error).toBeInstanceOf(InvalidParamsError);
            return;
          }
          expect(built).toMatch(/^pixels\/\d+$/);
          expect(new URL(built, 'https://x.test/api/v1/').pathname).toMatch(/^\/api\/v1\/pixels\/\d+$/);
        },
      ),
      RUNS,
    );
  });

  it('error mapping never throws on arbitrary bytes or JSON, and always gives an APIError', () => {
    const body = fc.oneof(
      fc.json(),
      fc.string({ unit: 'binary' }),
      fc.uint8Array().map((bytes) => new TextDecoder().decode(bytes)),
    );
    fc.assert(
      fc.property(body, fc.integer({ min: 400, max: 599 }), (raw, status) => {
        const answer = decodeAnswer(new Response(null, { status }), raw, 'GET pixels', scrubber(SECRET));
        const error = statusError(answer);
        expect(error).toBeInstanceOf(APIError);
        expect(error.status).toBe(status);
        expect(typeof error.message).toBe('string');
      }),
      RUNS,
    );
  });
});
