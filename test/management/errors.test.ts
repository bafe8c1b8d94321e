import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import {
  APIError,
  AuthenticationError,
  InternalServerError,
  ManagementClient,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from '../../src/index.js';
import { readManagementError } from '../../src/management/errors.js';
import { useMsw } from '../helpers/msw.js';
import { BASE_URL, failure, laravel, ROOT, SECRET } from './fixtures.js';

const msw = useMsw();
const client = (maxRetries = 0) => new ManagementClient({ baseUrl: BASE_URL, apiKey: SECRET, maxRetries });
const getPixel = () => client().pixels.get(1);

function answerWith(status: number, body: unknown) {
  msw.use(http.get(`${ROOT}/pixels/1`, () => laravel(body, status)));
}

describe('Management error mapping', () => {
  it('404 → NotFoundError, message verbatim, body and headers kept', async () => {
    answerWith(404, { message: 'Resource not found.', status: 404 });
    const error = (await failure(getPixel)) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.name).toBe('NotFoundError');
    expect(error.status).toBe(404);
    expect(error.body).toEqual({ message: 'Resource not found.', status: 404 });
    expect(error.headers.get('x-ratelimit-limit')).toBe('60');
    expect(error.message).toBe(`GET ${ROOT}/pixels/1 failed with 404 Not Found: "Resource not found."`);
  });

  it('422 → UnprocessableEntityError with fieldErrors read from the map under message', async () => {
    msw.use(
      http.put(`${ROOT}/pixels/1`, () =>
        laravel(
          { message: { type: ['The selected type is invalid.'], name: ['Too long.'] }, status: 422 },
          422,
        ),
      ),
    );
    const error = (await failure(() => client().pixels.update(1, { name: 'n' }))) as UnprocessableEntityError;
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error.fieldErrors).toEqual({ type: ['The selected type is invalid.'], name: ['Too long.'] });
    expect(error.message).toContain('"The selected type is invalid."');
    expect(error.message).toContain('(type: The selected type is invalid.; name: Too long.)');
  });

  it('422 → fieldErrors read from errors, with message as the detail, when a server sends that shape', async () => {
    msw.use(
      http.post(`${ROOT}/pixels`, () =>
        laravel(
          {
            message: 'The name has already been taken.',
            errors: { name: ['The name has already been taken.'] },
          },
          422,
        ),
      ),
    );
    const error = (await failure(() =>
      client().pixels.create({ name: 'FB', type: 'facebook', value: '1' }),
    )) as UnprocessableEntityError;
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error.fieldErrors).toEqual({ name: ['The name has already been taken.'] });
    expect(error.message).toMatch(
      /^POST \S+\/api\/v1\/pixels failed with 422 .*: "The name has already been taken\."/,
    );
  });

  it('keeps an Arabic message verbatim, in the message and in fieldErrors', async () => {
    msw.use(
      http.post(`${ROOT}/pixels`, () =>
        laravel({ message: { name: ['حقل الاسم مطلوب.'] }, status: 422 }, 422),
      ),
    );
    const error = (await failure(() =>
      client().pixels.create({ name: 'x', type: 'x', value: '1' }),
    )) as UnprocessableEntityError;
    expect(error.fieldErrors).toEqual({ name: ['حقل الاسم مطلوب.'] });
    expect(error.message).toContain('حقل الاسم مطلوب.');
    answerWith(404, { message: 'المورد غير موجود.', status: 404 });
    const notFound = await failure(getPixel);
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(notFound.message).toContain('"المورد غير موجود."');
  });

  it('401 → AuthenticationError, its message naming where the key came from: the apiKey option', async () => {
    answerWith(401, { message: 'Unauthenticated.' });
    const error = await failure(getPixel);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toBe(
      `GET ${ROOT}/pixels/1 failed with 401 Unauthorized: "Unauthenticated." ` +
        'Check the API key: it came from the `apiKey` option.',
    );
    expect(error.message).not.toContain(SECRET);
  });

  it('401 → AuthenticationError naming CONTENT_PLATFORM_MANAGEMENT_API_KEY when the key came from it', async () => {
    vi.stubEnv('CONTENT_PLATFORM_MANAGEMENT_API_KEY', SECRET);
    answerWith(401, { message: 'Unauthenticated.' });
    const error = await failure(new ManagementClient({ baseUrl: BASE_URL, maxRetries: 0 }).pixels.get(1));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toBe(
      `GET ${ROOT}/pixels/1 failed with 401 Unauthorized: "Unauthenticated." ` +
        'Check the API key: it came from the environment variable CONTENT_PLATFORM_MANAGEMENT_API_KEY.',
    );
    expect(error.message).not.toContain(SECRET);
  });

  it('a 302 to /login (the server refusing the key) → AuthenticationError, redirect not followed', async () => {
    msw.use(
      http.get(
        `${ROOT}/pixels/1`,
        () => new HttpResponse(null, { status: 302, headers: { location: `${BASE_URL}/login` } }),
      ),
    );
    const error = await failure(getPixel);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toBe(
      `GET ${ROOT}/pixels/1 was redirected to a login page: the server rejected the API key (or a proxy dropped ` +
        'the Accept: application/json header). Check the API key: it came from the `apiKey` option.',
    );
    expect(msw.captured).toHaveLength(1);
  });

  it.each([
    ['https://links.example.com/api', '/api/api/v1'],
    ['https://links.example.com/api/', '/api/api/v1'],
    ['https://links.example.com/api/v1/api/v1', '/api/v1/api/v1'],
    ['https://links.example.com/api/v1/api', '/api/v1/api/api/v1'],
  ])(
    'a 404 for baseUrl %s (the API path twice: %s) says baseUrl should be the site root',
    async (baseUrl, twice) => {
      msw.use(
        http.get(`${BASE_URL}${twice}/pixels/1`, () =>
          laravel({ message: 'Resource not found.', status: 404 }, 404),
        ),
      );
      const error = await failure(
        new ManagementClient({ baseUrl, apiKey: SECRET, maxRetries: 0 }).pixels.get(1),
      );
      // Still a NotFoundError, so the catches written for one still work.
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.message).toBe(
        `GET ${BASE_URL}${twice}/pixels/1 failed with 404 Not Found: "Resource not found." ` +
          `The URL repeats the API path (${twice}): \`baseUrl\` should be the site root, ${BASE_URL} (the SDK appends /api/v1).`,
      );
    },
  );

  it('names CONTENT_PLATFORM_BASE_URL when the URL that repeats the API path came from it; keeps a sub-path', async () => {
    vi.stubEnv('CONTENT_PLATFORM_BASE_URL', `${BASE_URL}/links/api`);
    msw.use(
      http.get(`${BASE_URL}/links/api/api/v1/pixels`, () => laravel({ message: 'Resource not found.' }, 404)),
    );
    const error = await failure(new ManagementClient({ apiKey: SECRET, maxRetries: 0 }).verifyCredentials());
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe(
      `GET ${BASE_URL}/links/api/api/v1/pixels?per_page=10 failed with 404 Not Found: "Resource not found." ` +
        'The URL repeats the API path (/api/api/v1): `baseUrl` (from CONTENT_PLATFORM_BASE_URL) should be the site ' +
        `root, ${BASE_URL}/links (the SDK appends /api/v1).`,
    );
  });

  it('403 → PermissionDeniedError', async () => {
    answerWith(403, { message: "You don't have access to this feature.", status: 403 });
    const error = await failure(getPixel);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error.message).toContain(`"You don't have access to this feature."`);
  });

  it('429 → RateLimitError with retryAfter from Retry-After', async () => {
    msw.use(
      http.get(`${ROOT}/pixels/1`, () =>
        laravel({ message: 'Too Many Attempts.' }, 429, {
          'retry-after': '42',
          'x-ratelimit-remaining': '0',
        }),
      ),
    );
    const error = (await failure(getPixel)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfter).toBe(42);
    expect(error.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(error.message).toContain('"Too Many Attempts."');
  });

  it('500 → InternalServerError', async () => {
    answerWith(500, { message: 'Server Error' });
    const error = await failure(getPixel);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).status).toBe(500);
  });

  it('an HTML 502 page → InternalServerError describing the page, not a zod dump', async () => {
    msw.use(
      http.get(`${ROOT}/pixels/1`, () =>
        HttpResponse.html('<html><body><h1>502 Bad Gateway</h1></body></html>', { status: 502 }),
      ),
    );
    const error = (await failure(getPixel)) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.status).toBe(502);
    expect(error.message).toContain('an HTML page');
    expect(error.message).toContain('502 Bad Gateway');
    expect(error.body).toBe('<html><body><h1>502 Bad Gateway</h1></body></html>');
  });

  it('retries a GET after a 503 and then succeeds', async () => {
    let calls = 0;
    msw.use(
      http.get(`${ROOT}/pixels/1`, () =>
        ++calls === 1
          ? laravel({ message: 'Service Unavailable' }, 503, { 'retry-after': '0' })
          : laravel({ data: { id: 1, name: 'a', type: 'x', value: 'v' } }),
      ),
    );
    const logged: [string, unknown][] = [];
    const logger = { ...console, info: (line: string, fields: unknown) => logged.push([line, fields]) };
    const mgmt = new ManagementClient({
      baseUrl: BASE_URL,
      apiKey: SECRET,
      maxRetries: 2,
      logger,
      logLevel: 'info',
    });
    await expect(mgmt.pixels.get(1)).resolves.toMatchObject({ id: 1 });
    expect(msw.captured).toHaveLength(2);
    expect(logged.filter(([line]) => line.includes(': retry '))).toEqual([
      [
        `[content-platform-sdk] GET ${ROOT}/pixels/1: retry 1 of 2 in 0 ms after HTTP 503`,
        { method: 'GET', url: `${ROOT}/pixels/1`, attempt: 1, retryInMs: 0, status: 503 },
      ],
    ]);
  });
});

describe('readManagementError', () => {
  const answer = (status: number, body: unknown, isJson = true) => ({
    status,
    statusText: '',
    headers: new Headers(),
    body,
    isJson,
    request: `GET ${ROOT}/pixels`,
  });

  it('reads nothing from a success, even one with a message', () => {
    expect(readManagementError(answer(200, { message: 'ok' }))).toBeUndefined();
    expect(readManagementError(answer(201, { data: {} }))).toBeUndefined();
  });

  it('leaves bodies that are not Laravel errors to the generic mapping', () => {
    expect(readManagementError(answer(500, 'oops', false))).toBeUndefined();
    expect(readManagementError(answer(500, [1, 2]))).toBeUndefined();
    expect(readManagementError(answer(500, { error: 'x' }))).toBeUndefined();
  });

  it('takes a single string per field as a list of one', () => {
    const error = readManagementError(answer(422, { message: { name: 'Required.' } }));
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as UnprocessableEntityError).fieldErrors).toEqual({ name: ['Required.'] });
  });

  it('maps an unlisted status to a plain APIError with the message', () => {
    const error = readManagementError(answer(409, { message: 'Conflict here.' }));
    expect(error?.constructor).toBe(APIError);
    expect(error?.message).toContain('"Conflict here."');
  });
});
