// A real redis-server for the fleet tests: one per caller, on a free loopback port, persistence off, stopped (and
// startable again on the same port, to play an outage) by the test that started it. Nothing listens beyond
// 127.0.0.1. CI installs Debian's redis-server when it is missing (.ci/run); elsewhere install it the same way.
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/** A redis-server child on 127.0.0.1. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** SIGTERM, then resolves when the process has exited (SIGKILL after 5 s). Stopping a stopped server is a no-op. */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: nothing was persisted) and resolves when it answers PING. */
  start(): Promise<void>;
  /** SIGKILL, without waiting: a crash rather than a shutdown. */
  kill(): void;
}

const HOST = '127.0.0.1';
const READY_WITHIN_MS = 10_000;
const STOP_WITHIN_MS = 5_000;

/** Every server still running, killed if the test process exits without stopping it; their folders, removed. */
const running = new Set<ChildProcess>();
const folders = new Set<string>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** The redis-server on PATH (or `REDIS_SERVER`), or a clear error saying how to get one. */
export function redisServerBinary(): string {
  const explicit = process.env.REDIS_SERVER;
  const candidates = explicit
    ? [explicit]
    : (process.env.PATH ?? '').split(delimiter).flatMap((dir) => (dir ? [join(dir, 'redis-server')] : []));
  for (const file of candidates) {
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {}
  }
  throw new Error(
    explicit
      ? `REDIS_SERVER=${explicit} is not an executable redis-server.`
      : 'redis-server is not installed (not found on PATH): the Redis tests start a real one on 127.0.0.1. ' +
          'Install it (Debian/Ubuntu: `apt-get install redis-server`; macOS: `brew install redis`), or set ' +
          'REDIS_SERVER to its path.',
  );
}

/** A port free on 127.0.0.1 right now: bind port 0, read it, close. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('no port from the probe server'))));
    });
  });
}

/** One PING over a raw socket (RESP); true on `+PONG`. */
export function ping(port: number, withinMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: HOST, port });
    let reply = '';
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), withinMs);
    socket.setEncoding('latin1');
    socket.once('connect', () => socket.write('*1\r\n$4\r\nPING\r\n'));
    socket.on('data', (chunk: string) => {
      reply += chunk;
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
    socket.once('error', () => done(false));
    socket.once('close', () => done(false));
  });
}

/**
 * Starts a redis-server on a free 127.0.0.1 port with persistence off and resolves when it answers PING.
 * @throws when redis-server is not installed, or does not come up within 10 s (its output in the message).
 */
export async function startRedis(): Promise<RedisServer> {
  const binary = redisServerBinary();
  // Its working folder: nothing should be written with persistence off, and nothing may land in the repo if it is.
  const dir = mkdtempSync(join(tmpdir(), 'content-platform-redis-'));
  folders.add(dir);
  let port = 0;
  let child: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    mkdirSync(dir, { recursive: true });
    const args = ['--port', String(port), '--bind', HOST, '--save', '', '--appendonly', 'no'];
    args.push('--daemonize', 'no', '--dir', dir, '--loglevel', 'warning', '--logfile', '');
    const proc = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    running.add(proc);
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-4_000);
    };
    proc.stdout?.on('data', keep);
    proc.stderr?.on('data', keep);
    let exited: string | undefined;
    proc.once('exit', (code, signal) => {
      running.delete(proc);
      exited = `exited (${signal ?? `code ${code}`})`;
    });
    proc.once('error', (error) => {
      running.delete(proc);
      exited = `could not start: ${error.message}`;
    });
    const deadline = Date.now() + READY_WITHIN_MS;
    while (!exited && Date.now() < deadline) {
      if (await ping(port)) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    if (!exited) proc.kill('SIGKILL');
    throw new Error(
      `redis-server on ${HOST}:${port} ${exited ?? `did not answer PING within ${READY_WITHIN_MS} ms`}: ${output.trim()}`,
    );
  };

  // Another process may take the probed port before redis-server binds it: try a fresh one then.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      await launch();
      break;
    } catch (error) {
      if (attempt >= 3) {
        rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }

  const stop = async (): Promise<void> => {
    const proc = child;
    child = undefined;
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), STOP_WITHIN_MS);
      await gone;
      clearTimeout(timer);
    }
    // Made again by start(); nothing in it is worth keeping.
    rmSync(dir, { recursive: true, force: true });
  };

  return {
    url: `redis://${HOST}:${port}`,
    port,
    stop,
    async start() {
      if (child && child.exitCode === null && child.signalCode === null) return;
      // The same port: the clients under test reconnect to the address they were given.
      for (let attempt = 1; ; attempt++) {
        try {
          await launch();
          return;
        } catch (error) {
          // The old socket may linger a moment after a kill.
          if (attempt >= 3) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    },
    kill() {
      child?.kill('SIGKILL');
      child = undefined;
    },
  };
}

/**
 * Starts a redis-server for the calling test file (beforeAll) and stops it (afterAll). The handle's fields are
 * readable from the first test on.
 */
export function useRedis(): RedisServer {
  let server: RedisServer | undefined;
  const live = (): RedisServer => {
    if (!server) throw new Error('useRedis: the server starts in beforeAll; read it inside a test or hook');
    return server;
  };
  beforeAll(
    async () => {
      server = await startRedis();
    },
    READY_WITHIN_MS * 3 + 5_000,
  );
  afterAll(async () => {
    await server?.stop();
  });
  return {
    get url() {
      return live().url;
    },
    get port() {
      return live().port;
    },
    stop: () => live().stop(),
    start: () => live().start(),
    kill: () => live().kill(),
  };
}

/** What a Redis holds, as bytes: every key's name, and every value read back by its type and as a DUMP. */
export interface RedisContents {
  /** Every key name (SCAN). */
  keys: Buffer[];
  /** Key names, values (GET, HGETALL, ZRANGE WITHSCORES, LRANGE, SMEMBERS, XRANGE), DUMPs, pub/sub channels, client names. */
  texts: Buffer[];
}

/** Reads everything a Redis holds over a connection of its own (node-redis, values as raw bytes). */
export async function redisContents(url: string): Promise<RedisContents> {
  const { createClient, RESP_TYPES } = await import('redis');
  const admin = await createClient({ url })
    .withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer, [RESP_TYPES.SIMPLE_STRING]: Buffer })
    .connect();
  const send = (...args: (string | Buffer)[]) => admin.sendCommand<unknown>(args);
  try {
    const keys: Buffer[] = [];
    let cursor = '0';
    do {
      const [next, batch] = (await send('SCAN', cursor, 'COUNT', '1000')) as [Buffer, Buffer[]];
      cursor = next.toString();
      keys.push(...batch);
    } while (cursor !== '0');
    const texts: Buffer[] = [...keys];
    const READ: Record<string, (key: Buffer) => (string | Buffer)[]> = {
      string: (key) => ['GET', key],
      hash: (key) => ['HGETALL', key],
      zset: (key) => ['ZRANGE', key, '0', '-1', 'WITHSCORES'],
      list: (key) => ['LRANGE', key, '0', '-1'],
      set: (key) => ['SMEMBERS', key],
      stream: (key) => ['XRANGE', key, '-', '+'],
    };
    for (const key of keys) {
      const type = String(await send('TYPE', key));
      const read = READ[type];
      if (read) texts.push(...buffers(await send(...read(key))));
      else texts.push(Buffer.from(`(unread type ${type})`));
      texts.push(...buffers(await send('DUMP', key)));
    }
    texts.push(...buffers(await send('PUBSUB', 'CHANNELS', '*')));
    texts.push(...buffers(await send('CLIENT', 'LIST')));
    return { keys, texts };
  } finally {
    admin.destroy();
  }
}

function buffers(reply: unknown): Buffer[] {
  if (Buffer.isBuffer(reply)) return [reply];
  if (typeof reply === 'string' || typeof reply === 'number') return [Buffer.from(String(reply))];
  if (Array.isArray(reply)) return reply.flatMap(buffers);
  if (reply instanceof Map) return [...reply.entries()].flat().flatMap(buffers);
  if (reply && typeof reply === 'object') return Object.entries(reply).flat().flatMap(buffers);
  return [];
}

/** Which of `needles` occur (case-insensitive) in any of `texts`. */
export function occurring(texts: readonly Buffer[], needles: readonly string[]): string[] {
  const haystack = texts.map((text) => text.toString('latin1').toLowerCase());
  return needles.filter((needle) => {
    const forms = [needle, Buffer.from(needle, 'utf8').toString('latin1')].map((n) => n.toLowerCase());
    return haystack.some((text) => forms.some((form) => text.includes(form)));
  });
}

/** A local Redis Cluster: three masters on 127.0.0.1, no replicas, persistence off. */
export interface RedisCluster {
  /** Each master's `{ host, port }` (ioredis `new Cluster(nodes)`). */
  readonly nodes: readonly { host: string; port: number }[];
  /** Each master's `redis://127.0.0.1:<port>` (node-redis `createCluster({ rootNodes: [{ url }] })`). */
  readonly urls: readonly string[];
  /** Stops the three servers (SIGTERM, SIGKILL after 5 s) and removes their folders. */
  stop(): Promise<void>;
}

/** The redis-cli beside the redis-server in use (or on PATH), or a clear error. */
function redisCliBinary(): string {
  const beside = join(dirname(redisServerBinary()), 'redis-cli');
  const candidates = [
    beside,
    ...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'redis-cli')),
  ];
  for (const file of candidates) {
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {}
  }
  throw new Error(
    'redis-cli is not installed (it comes with redis-server): the cluster tests create a cluster with it.',
  );
}

/** One command over a raw socket (RESP); the reply's text, or '' after `withinMs`. */
function command(port: number, args: readonly string[], withinMs = 1_000): Promise<string> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: HOST, port });
    let reply = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(reply);
    };
    const timer = setTimeout(done, withinMs);
    socket.setEncoding('latin1');
    socket.once('connect', () =>
      socket.write(
        `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`,
      ),
    );
    socket.on('data', (chunk: string) => {
      reply += chunk;
      // A bulk string: `$<length>\r\n<text>\r\n`; anything else is one line.
      const bulk = reply.match(/^\$(\d+)\r\n/);
      if (bulk ? reply.length >= bulk[0].length + Number(bulk[1]) + 2 : reply.includes('\r\n')) done();
    });
    socket.once('error', done);
    socket.once('close', done);
  });
}

/**
 * Starts a Redis Cluster of three masters on free 127.0.0.1 ports (each with its own folder and cluster bus port),
 * joins them with `redis-cli --cluster create … --cluster-replicas 0`, and resolves when every node's CLUSTER INFO
 * says `cluster_state:ok`.
 * @throws when a server does not come up, the cluster is not created, or it is not ok within 20 s.
 */
export async function startCluster(): Promise<RedisCluster> {
  const binary = redisServerBinary();
  const cli = redisCliBinary();
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  const stop = async () => {
    await Promise.all(
      children.map(async (proc) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return;
        const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
        proc.kill('SIGTERM');
        const timer = setTimeout(() => proc.kill('SIGKILL'), STOP_WITHIN_MS);
        await gone;
        clearTimeout(timer);
      }),
    );
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const ports: number[] = [];
    for (let node = 0; node < 3; node++) {
      const dir = mkdtempSync(join(tmpdir(), 'content-platform-redis-cluster-'));
      dirs.push(dir);
      folders.add(dir);
      // Ports probed one at a time, each taken before the next probe: the six differ. (`--cluster-port` names the
      // bus port: the default, port + 10000, may be past 65535 or taken.)
      const port = await freePort();
      let bus = await freePort();
      while (bus === port || ports.includes(bus)) bus = await freePort();
      const args = ['--port', String(port), '--cluster-port', String(bus), '--bind', HOST];
      args.push('--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`);
      args.push('--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', dir);
      args.push('--loglevel', 'warning', '--logfile', '');
      const proc = spawn(binary, args, { stdio: ['ignore', 'ignore', 'ignore'] });
      children.push(proc);
      running.add(proc);
      proc.once('exit', () => running.delete(proc));
      const deadline = Date.now() + READY_WITHIN_MS;
      while (!(await ping(port))) {
        if (Date.now() > deadline || proc.exitCode !== null) {
          throw new Error(`cluster node on ${HOST}:${port} did not answer PING within ${READY_WITHIN_MS} ms`);
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      ports.push(port);
    }
    const addresses = ports.map((port) => `${HOST}:${port}`);
    await new Promise<void>((resolve, reject) => {
      const create = spawn(
        cli,
        ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes'],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      const keep = (chunk: Buffer) => {
        output += chunk.toString('utf8');
      };
      create.stdout?.on('data', keep);
      create.stderr?.on('data', keep);
      create.once('error', reject);
      create.once('exit', (code) =>
        code === 0
          ? resolve()
          : reject(new Error(`redis-cli --cluster create exited ${code}: ${output.slice(-2_000)}`)),
      );
    });
    // Every node must know the whole cluster: a client may ask any of them for the slots.
    const deadline = Date.now() + 2 * READY_WITHIN_MS;
    for (const port of ports) {
      while (!(await command(port, ['CLUSTER', 'INFO'])).includes('cluster_state:ok')) {
        if (Date.now() > deadline)
          throw new Error(`cluster node ${HOST}:${port} is not cluster_state:ok after 20 s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    return {
      nodes: ports.map((port) => ({ host: HOST, port })),
      urls: ports.map((port) => `redis://${HOST}:${port}`),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
