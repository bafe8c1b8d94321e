import { describe } from 'vitest';
import { createReferenceServer, type Flavor } from '../../src/testing/index.js';
import { createMswHandlers } from '../../src/testing/msw.js';
import { useMsw } from '../helpers/msw.js';
import { defineScenarios } from './scenarios.js';

// The SDK through msw's interception to the reference server (the setup a user copies into their tests).
const msw = useMsw();
const urls = { baseUrl: 'https://links.example.com', siteUrl: 'https://market.example.com' };

describe.each<Flavor>(['laravel', 'spec'])('SDK ↔ reference server through msw (%s)', (flavor) => {
  defineScenarios(flavor, async (options) => {
    const server = createReferenceServer({ flavor, ...options });
    msw.use(...createMswHandlers(server, urls));
    return { server, ...urls };
  });
});
