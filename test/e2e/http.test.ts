import { afterEach, describe } from 'vitest';
import { createReferenceServer, type Flavor, listen } from '../../src/testing/index.js';
import { defineScenarios } from './scenarios.js';

// The SDK over a real 127.0.0.1 socket to the reference server's node:http adapter.
const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

describe.each<Flavor>(['laravel', 'spec'])('SDK ↔ reference server over node:http (%s)', (flavor) => {
  defineScenarios(flavor, async (options) => {
    const server = createReferenceServer({ flavor, ...options });
    const { url, close } = await listen(server, { port: 0 });
    open.push(close);
    return { server, baseUrl: url, siteUrl: url };
  });
});
