#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { describeSummary, describeText, serverInfo, summarize } from './adapters/banner.js';
import { parseCli, USAGE } from './adapters/cli.js';
import { listen } from './adapters/node.js';
import {
  readSeedFile,
  type SeedDomain,
  type SeedPixel,
  type SeedPurchase,
  SeedRecordError,
  type SeedRecords,
} from './seed-records.js';
import { createReferenceServer } from './server.js';

/**
 * The `content-platform-reference-server` command: parses the arguments, reads the `--seed` files, starts the
 * server, prints its URL, keys, purchase codes and settings (text with `export` lines, or one JSON line with
 * `--json`), and serves until SIGINT or SIGTERM, then prints a one-line summary (requests served, 429s, injected
 * failures and lost answers). Exit codes: 0 after a signal, `--help` or
 * `--version`, 1 when it cannot listen (a port in use), 2 for a bad argument or seed file. Errors are one line.
 */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const cli = parseCli(argv);
  if (cli.kind === 'help') {
    console.log(USAGE);
    return;
  }
  if (cli.kind === 'version') {
    console.log(packageVersion());
    return;
  }
  if (cli.kind === 'usage-error') {
    console.error(`content-platform-reference-server: ${cli.message} (--help lists the options)`);
    process.exitCode = 2;
    return;
  }
  let server: ReturnType<typeof createReferenceServer>;
  try {
    const seed = cli.server.seed;
    if (cli.seedFiles && typeof seed === 'object') seed.records = await readSeedFiles(cli.seedFiles);
    server = createReferenceServer(cli.server);
  } catch (error) {
    console.error(`content-platform-reference-server: ${startFailure(error)}`);
    process.exitCode = 2;
    return;
  }
  let running: Awaited<ReturnType<typeof listen>>;
  try {
    running = await listen(server, { port: cli.port, host: cli.host });
  } catch (error) {
    console.error(`content-platform-reference-server: ${listenFailure(error, cli.host, cli.port)}`);
    process.exitCode = 1;
    return;
  }
  const info = serverInfo(server, running, packageVersion());
  console.log(cli.json ? JSON.stringify(info) : describeText(info).join('\n'));
  const stop = (signal: NodeJS.Signals) => {
    const summary = summarize(server, signal);
    console.log(cli.json ? JSON.stringify(summary) : describeSummary(summary));
    void running.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** The version of the package this bin ships in: its package.json, two folders up from `dist/testing/bin.js`. */
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/** The records of every seed file, in the order given; a file read twice is refused by its names and codes. */
async function readSeedFiles(files: readonly string[]): Promise<SeedRecords> {
  const pixels: SeedPixel[] = [];
  const domains: SeedDomain[] = [];
  const purchases: SeedPurchase[] = [];
  for (const file of files) {
    const records = await readSeedFile(file);
    pixels.push(...(records.pixels ?? []));
    domains.push(...(records.domains ?? []));
    purchases.push(...(records.purchases ?? []));
  }
  return { pixels, domains, purchases };
}

/** Why the server could not be built: a seed record named by its flag, file, place and field; else the message. */
function startFailure(error: unknown): string {
  if (!(error instanceof SeedRecordError) || error.file === undefined) return (error as Error).message;
  // `--seed 1e3` was meant as a number, most likely: say how the value was read.
  const hint =
    error.problem === 'no such file'
      ? ' (a --seed of digits only is the fault seed; any other value, a seed file)'
      : '';
  return `--seed ${error.file}${error.at === undefined ? '' : `, ${error.at}`}: ${error.problem}${hint}`;
}

function listenFailure(error: unknown, host: string, port: number): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'EADDRINUSE') {
    return `port ${port} on ${host} is in use; choose another with --port, or --port 0 for a free one.`;
  }
  if (code === 'EACCES') return `no permission to listen on port ${port} on ${host}; use a port above 1023.`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return `cannot listen on ${host}: no such local address.`;
  return `cannot listen on ${host}:${port}: ${(error as Error).message}`;
}

void main();
