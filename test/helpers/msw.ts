import type { RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** A request as the server saw it, captured for exact assertions. */
export interface Captured {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Starts msw for the calling test file. Unhandled requests fail the test (msw 3 ignores
 * `onUnhandledRequest`; `onUnhandledFrame` is the option that works). Each test installs its own handlers.
 */
export function useMsw() {
  const server = setupServer();
  const captured: Captured[] = [];
  server.events.on('request:start', async ({ request }) => {
    captured.push({
      method: request.method,
      url: request.url,
      headers: Object.fromEntries(request.headers),
      body: await request.clone().text(),
    });
  });
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    captured.length = 0;
  });
  afterAll(() => server.close());
  return {
    server,
    /** Every request sent since the test began, in order. */
    captured,
    use: (...handlers: RequestHandler[]) => server.use(...handlers),
  };
}
