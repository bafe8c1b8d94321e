#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { listen } from './adapters/node.js';
import type { Flavor, Locale } from './core/types.js';
import { createReferenceServer } from './server.js';

const USAGE = `Usage: content-platform-reference-server [--port 4010] [--host 127.0.0.1] [--flavor laravel|spec] [--locale ar|en] [--items N]`;

/** Parses the CLI arguments, starts the server, prints its URL and keys, and runs until SIGINT/SIGTERM. */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      flavor: { type: 'string', default: 'laravel' },
      locale: { type: 'string', default: 'ar' },
      items: { type: 'string', default: '0' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const port = Number(values.port);
  const items = Number(values.items);
  if (
    values.help ||
    !Number.isInteger(port) ||
    port < 0 ||
    port > 65535 ||
    !Number.isInteger(items) ||
    items < 0
  ) {
    console.log(USAGE);
    process.exitCode = values.help ? 0 : 2;
    return;
  }
  if (
    (values.flavor !== 'laravel' && values.flavor !== 'spec') ||
    (values.locale !== 'ar' && values.locale !== 'en')
  ) {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  const server = createReferenceServer({
    flavor: values.flavor as Flavor,
    locale: values.locale as Locale,
    seed: { items },
  });
  const { url, close } = await listen(server, { port, host: values.host });
  console.log(`Content Platform reference server (${server.flavor} flavor) listening on ${url}`);
  console.log(`  Management API: ${url}/api/v1   keys: ${server.keys.management.join(', ')}`);
  console.log(`  Catalog API:    ${url}/api      keys: ${server.keys.catalog.join(', ')}`);
  console.log(
    `  Purchase codes: valid ${server.fixtures.purchaseCodes.supported}, invalid ${server.fixtures.purchaseCodes.invalid}`,
  );
  const stop = () => {
    void close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
