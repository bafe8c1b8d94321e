import { createConnection } from 'node:net';
import { describe, expect, it } from 'vitest';
import { InvalidParamsError } from '../../src/index.js';
import {
  createReferenceServer,
  type FaultSettings,
  type ListenOptions,
  listen,
  type ReferenceServerOptions,
} from '../../src/testing/index.js';

// Bad input on purpose: JavaScript callers and JSON configs are not held to the types.
const loose = <T>(value: unknown) => value as T;

/** What `fn` threw (awaited when it returns a promise); fails the test when it threw nothing. */
async function thrown(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal, but nothing was thrown');
}

/** Asserts `fn` is refused with an `InvalidParamsError` carrying exactly `message` (and `param`, when given). */
async function refused(fn: () => unknown, message: string, param?: string): Promise<void> {
  const error = await thrown(fn);
  expect(error).toBeInstanceOf(InvalidParamsError);
  expect((error as InvalidParamsError).message).toBe(message);
  if (param !== undefined) expect((error as InvalidParamsError).param).toBe(param);
}

/** The node:net servers of this thread that are listening (each listen() adds one). */
const listeningServers = () =>
  process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length;

describe('createReferenceServer(options)', () => {
  it('takes null as no options', () => {
    const server = createReferenceServer(null);
    expect(server).toMatchObject({ flavor: 'laravel', locale: 'ar', basePath: '', rateLimit: undefined });
    expect(server.store.pixels(server.keys.management[0] ?? '').length).toBeGreaterThan(0);
  });

  it('takes a field given as null as not given (its default)', () => {
    const server = createReferenceServer(
      loose<ReferenceServerOptions>({
        flavor: null,
        locale: null,
        seed: null,
        rateLimit: null,
        faults: null,
      }),
    );
    expect(server).toMatchObject({ flavor: 'laravel', locale: 'ar', rateLimit: undefined });
    expect(server.faults.settings.failureRate).toBe(0);
  });

  it('keeps every valid option working', async () => {
    const server = createReferenceServer({
      flavor: 'spec',
      locale: 'en',
      seed: { pixels: 0, domains: 1, items: 0, purchaseCodes: ['A-1'] },
      managementKeys: ["it's a key"],
      catalogKeys: ['c1', 'c2'],
      rateLimit: { limit: 1_000_000_000, windowMs: 1500 },
      faults: {
        latencyMs: [0, 0],
        failureRate: 0,
        failureStatuses: [429, 503],
        seed: -3,
        match: () => false,
      },
      now: () => new Date('2025-01-01T00:00:00Z'),
      basePath: '/market/',
    });
    expect(server).toMatchObject({ flavor: 'spec', locale: 'en', basePath: '/market' });
    expect(server.rateLimit).toEqual({ limit: 1_000_000_000, windowMs: 1500 });
    const res = await server.fetch(`https://site.test/market/api/items/all?api_key=c1`);
    expect(res.status).toBe(200);
  });

  it('refuses an unknown option, naming the nearest (flavour: "spec" no longer means laravel)', async () => {
    await refused(
      () => createReferenceServer(loose({ flavour: 'spec' })),
      'createReferenceServer: unknown option "flavour"; did you mean flavor?',
      'flavour',
    );
  });

  it('refuses options that are not an object', async () => {
    await refused(
      () => createReferenceServer(loose('spec')),
      'createReferenceServer: the options must be an object; got a string.',
    );
  });

  it.each<[string, unknown, string, string]>([
    ['flavor', 'Spec', `createReferenceServer: flavor must be 'laravel' or 'spec'; got "Spec".`, 'flavor'],
    ['locale', 'fr', `createReferenceServer: locale must be 'ar' or 'en'; got "fr".`, 'locale'],
    ['now', 5, 'createReferenceServer: now must be a function; got a number.', 'now'],
    [
      'managementKeys',
      'k1',
      'createReferenceServer: managementKeys must be an array of non-empty strings; got "k1".',
      'managementKeys',
    ],
    [
      'catalogKeys',
      ['c1', ''],
      'createReferenceServer: catalogKeys must be an array of non-empty strings; got an array holding something else.',
      'catalogKeys',
    ],
    [
      'seed',
      'yes',
      'createReferenceServer: seed must be true, false or { pixels?, domains?, items?, purchaseCodes?, records? }; got "yes".',
      'seed',
    ],
    [
      'seed',
      { pixel: 5 },
      'createReferenceServer: seed: unknown option "pixel"; did you mean pixels?',
      'pixel',
    ],
    [
      'seed',
      { items: -1 },
      'createReferenceServer: seed.items must be a whole number from 0 to 100000; got -1.',
      'seed.items',
    ],
    [
      'seed',
      { pixels: 1.5 },
      'createReferenceServer: seed.pixels must be a whole number from 0 to 100000; got 1.5.',
      'seed.pixels',
    ],
    [
      'seed',
      { pixels: 1e9 },
      'createReferenceServer: seed.pixels must be a whole number from 0 to 100000; got 1000000000.',
      'seed.pixels',
    ],
    [
      'seed',
      { items: 100_001 },
      'createReferenceServer: seed.items must be a whole number from 0 to 100000; got 100001.',
      'seed.items',
    ],
    [
      'seed',
      { domains: '3' },
      'createReferenceServer: seed.domains must be a whole number from 0 to 100000; got "3".',
      'seed.domains',
    ],
    [
      'seed',
      { purchaseCodes: 'A-1' },
      'createReferenceServer: seed.purchaseCodes must be an array of non-empty strings; got "A-1".',
      'seed.purchaseCodes',
    ],
    [
      'rateLimit',
      true,
      'createReferenceServer: rateLimit must be false or { limit, windowMs? }; got true.',
      'rateLimit',
    ],
    [
      'rateLimit',
      { limt: 5 },
      'createReferenceServer: rateLimit: unknown option "limt"; did you mean limit?',
      'limt',
    ],
    [
      'rateLimit',
      { limit: 0 },
      'createReferenceServer: rateLimit.limit must be a whole number, 1 or more; got 0.',
      'rateLimit.limit',
    ],
    [
      'rateLimit',
      { limit: '60' },
      'createReferenceServer: rateLimit.limit must be a whole number, 1 or more; got "60".',
      'rateLimit.limit',
    ],
    [
      'rateLimit',
      { limit: 5, windowMs: 0 },
      'createReferenceServer: rateLimit.windowMs must be a positive number of ms; got 0.',
      'rateLimit.windowMs',
    ],
    [
      'faults',
      { failureRat: 0.1 },
      'createReferenceServer: faults: unknown setting "failureRat"; did you mean failureRate?',
      'failureRat',
    ],
    [
      'faults',
      { failureRate: 2 },
      'createReferenceServer: faults: failureRate must be a number from 0 to 1; got 2.',
      'failureRate',
    ],
    [
      'basePath',
      5,
      `createReferenceServer: basePath must look like '/market' (segments of letters, digits and . _ ~ -); got 5.`,
      'basePath',
    ],
    [
      'basePath',
      '/market/..',
      `createReferenceServer: basePath must look like '/market' (segments of letters, digits and . _ ~ -); got "/market/..".`,
      'basePath',
    ],
  ])('refuses %s: %j', async (name, value, message, param) => {
    await refused(() => createReferenceServer(loose({ [name]: value })), message, param);
  });
});

describe('listen(server, options)', () => {
  const api = createReferenceServer();

  it('takes null as no options: 127.0.0.1 on a free port', async () => {
    const running = await listen(api, null);
    try {
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await running.close();
    }
  });

  it('refuses a host that is not a string before binding: the rejected listen() leaves nothing listening', async () => {
    const before = listeningServers();
    await refused(
      () => listen(api, loose<ListenOptions>({ host: 5 })),
      'listen: host must be a non-empty interface address or name; got 5.',
      'host',
    );
    // Before this check, the server stayed bound on `::` after the rejection and kept the process alive.
    expect(listeningServers()).toBe(before);
  });

  it('refuses an unknown option, naming the nearest, and binds nothing (prot: a port not free is not used)', async () => {
    // A port that is known to be free now: `prot` taken for `port` would bind it, quietly ignored would bind another.
    const probe = await listen(api, { port: 0 });
    const { port } = probe;
    await probe.close();
    const before = listeningServers();
    await refused(
      () => listen(api, loose<ListenOptions>({ prot: port })),
      'listen: unknown option "prot"; did you mean port?',
      'prot',
    );
    expect(listeningServers()).toBe(before);
    // Nothing answers on that port.
    const connected = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    expect(connected).toBe(false);
  });

  it.each<[unknown, string]>([
    ['0', 'listen: port must be a whole number from 0 to 65535; got "0".'],
    [65_536, 'listen: port must be a whole number from 0 to 65535; got 65536.'],
    [-1, 'listen: port must be a whole number from 0 to 65535; got -1.'],
    [80.5, 'listen: port must be a whole number from 0 to 65535; got 80.5.'],
  ])('refuses port %j before binding', async (port, message) => {
    const before = listeningServers();
    await refused(() => listen(api, loose<ListenOptions>({ port })), message, 'port');
    expect(listeningServers()).toBe(before);
  });

  it('refuses an empty host (Node would bind every interface)', async () => {
    await refused(
      () => listen(api, { host: '' }),
      'listen: host must be a non-empty interface address or name; got "".',
      'host',
    );
  });

  it.each(['0', '0.0', '0x0', '::ffff:0.0.0.0', '0:0::0'])(
    'refuses %j, a spelling of every interface, before binding (it bound them all; from an outside trial)',
    async (host) => {
      const before = listeningServers();
      await refused(
        () => listen(api, { host }),
        `listen: host ${JSON.stringify(host)} means every interface: give 0.0.0.0 (or ::) to listen on all of them, ` +
          'or 127.0.0.1 for this machine only.',
        'host',
      );
      expect(listeningServers()).toBe(before);
    },
  );

  it('refuses a host that is no address or name before binding, without showing it', async () => {
    const key = api.keys.management[0] as string;
    await refused(
      () => listen(api, { host: `${key}!` }),
      `listen: host must be a non-empty interface address or name; got "***${`${key}!`.slice(-4)}".`,
      'host',
    );
    await refused(
      () => listen(api, { host: 'a b' }),
      'listen: host must be a non-empty interface address or name; got "a b".',
      'host',
    );
  });

  it('refuses options that are not an object, and a server without fetch', async () => {
    await refused(
      () => listen(api, loose<ListenOptions>(4010)),
      'listen: the options must be an object; got a number.',
    );
    await refused(
      () => listen(loose({ port: 0 })),
      'listen: server must have a fetch method, such as createReferenceServer() returns; got an object.',
      'server',
    );
  });
});

describe('faults.set(settings)', () => {
  const server = createReferenceServer();

  it('takes null as no standing faults, and a field given as null as not given', () => {
    server.faults.set({ failureRate: 1 });
    server.faults.set(null);
    expect(server.faults.settings).toMatchObject({
      failureRate: 0,
      loseResponseRate: 0,
      latencyMs: 0,
      seed: 1,
    });
    server.faults.set(loose<FaultSettings>({ failureRate: null, latencyMs: null, seed: null }));
    expect(server.faults.settings).toMatchObject({ failureRate: 0, latencyMs: 0, seed: 1 });
  });

  it('refuses an unknown setting, naming the nearest, and keeps the faults in effect', async () => {
    server.faults.set({ failureRate: 0.5 });
    await refused(
      () => server.faults.set(loose({ failureRat: 0.1 })),
      'faults.set: unknown setting "failureRat"; did you mean failureRate?',
      'failureRat',
    );
    expect(server.faults.settings.failureRate).toBe(0.5);
    server.faults.clear();
  });

  it('refuses settings that are not an object', async () => {
    await refused(
      () => server.faults.set(loose('failureRate=0.1')),
      'faults.set: the settings must be an object; got a string.',
    );
  });

  it.each<[FaultSettings, string, string]>([
    [{ failureRate: 2 }, 'faults.set: failureRate must be a number from 0 to 1; got 2.', 'failureRate'],
    [
      { failureRate: loose('0.1') },
      'faults.set: failureRate must be a number from 0 to 1; got "0.1".',
      'failureRate',
    ],
    [{ failureRate: -0.1 }, 'faults.set: failureRate must be a number from 0 to 1; got -0.1.', 'failureRate'],
    [
      { loseResponseRate: 1.5 },
      'faults.set: loseResponseRate must be a number from 0 to 1; got 1.5.',
      'loseResponseRate',
    ],
    [
      { latencyMs: -1 },
      'faults.set: latencyMs must be a number of ms from 0 to 2147483647, or a [min, max] range of them; got -1.',
      'latencyMs',
    ],
    [
      { latencyMs: [50, 10] },
      'faults.set: latencyMs must be a number of ms from 0 to 2147483647, or a [min, max] range of them; got [50, 10].',
      'latencyMs',
    ],
    [
      { latencyMs: loose('300') },
      'faults.set: latencyMs must be a number of ms from 0 to 2147483647, or a [min, max] range of them; got "300".',
      'latencyMs',
    ],
    [
      { failureStatuses: [] },
      'faults.set: failureStatuses must be a non-empty array of statuses from 400 to 599; got [].',
      'failureStatuses',
    ],
    [
      { failureStatuses: [503, 200] },
      'faults.set: failureStatuses must be a non-empty array of statuses from 400 to 599; got [503, 200].',
      'failureStatuses',
    ],
    [{ seed: 1.5 }, 'faults.set: seed must be a whole number; got 1.5.', 'seed'],
    [{ match: loose('/pixels') }, 'faults.set: match must be a function; got "/pixels".', 'match'],
  ])('refuses %j', async (settings, message, param) => {
    await refused(() => server.faults.set(settings), message, param);
  });
});
