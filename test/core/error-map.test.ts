import { describe, expect, it } from 'vitest';
import { type Answer, describeBody, statusError } from '../../src/core/errors/answer.js';
import * as errors from '../../src/core/errors/classes.js';

function answer(status: number, body: unknown, headers: Record<string, string> = {}, isJson = true): Answer {
  return { status, statusText: '', headers: new Headers(headers), body, isJson, request: 'GET pixels/1' };
}

describe('statusError', () => {
  it.each([
    [400, errors.BadRequestError],
    [401, errors.AuthenticationError],
    [403, errors.PermissionDeniedError],
    [404, errors.NotFoundError],
    [422, errors.UnprocessableEntityError],
    [429, errors.RateLimitError],
    [500, errors.InternalServerError],
    [502, errors.InternalServerError],
    [503, errors.InternalServerError],
    [599, errors.InternalServerError],
  ])('maps %i to its class', (status, cls) => {
    const error = statusError(answer(status, { message: 'x' }));
    expect(error).toBeInstanceOf(cls);
    expect(error.status).toBe(status);
  });

  it.each([402, 405, 409, 418])('maps an unlisted status %i to plain APIError', (status) => {
    const error = statusError(answer(status, undefined));
    expect(error.constructor).toBe(errors.APIError);
  });

  it('quotes the server detail verbatim, Arabic included', () => {
    const error = statusError(answer(403, { message: 'ليس لديك صلاحية' }), { detail: 'ليس لديك صلاحية' });
    expect(error.message).toBe('GET pixels/1 failed with 403: "ليس لديك صلاحية"');
  });

  it('lists field errors in the message and keeps them on the error', () => {
    const fieldErrors = { name: ['The name field is required.'], type: ['The selected type is invalid.'] };
    const error = statusError(answer(422, { message: fieldErrors }), { fieldErrors });
    expect(error).toBeInstanceOf(errors.UnprocessableEntityError);
    expect((error as errors.UnprocessableEntityError).fieldErrors).toEqual(fieldErrors);
    expect(error.message).toContain(
      '(name: The name field is required.; type: The selected type is invalid.)',
    );
  });

  it('reads retryAfter on a 429', () => {
    const error = statusError(answer(429, { message: 'Too Many Attempts.' }, { 'retry-after': '17' }));
    expect((error as errors.RateLimitError).retryAfter).toBe(17);
  });
});

describe('describeBody', () => {
  it('says an HTML body is an HTML page, with its type and a snippet', () => {
    const text = '<!DOCTYPE html><html><head><title>Bad Gateway</title></head></html>';
    expect(describeBody(answer(502, text, { 'content-type': 'text/html; charset=utf-8' }, false))).toBe(
      `the body was an HTML page (text/html, ${text.length} chars): ${text}`,
    );
  });

  it('says an empty body is empty', () => {
    expect(describeBody(answer(500, undefined, {}, false))).toBe('the body was empty');
  });

  it('shortens a long body', () => {
    const text = 'x'.repeat(500);
    expect(describeBody(answer(500, text, { 'content-type': 'text/plain' }, false))).toBe(
      `the body was text that is not JSON (text/plain, 500 chars): ${'x'.repeat(120)}…`,
    );
  });
});
