import { expect } from 'vitest';
import { NotFoundError } from '../../src/core/errors.js';
import type { Logger } from '../../src/core/options.js';
import { attempts, collected, failure, type Scenario } from './harness.js';

const down = () => {
  throw new Error('the logging backend is down');
};
/** A logger every method of which throws, as one whose transport has failed. */
const throwingLogger: Logger = { error: down, warn: down, info: down, debug: down };

const rejects = () => Promise.reject(new Error('the async logging backend is down'));
/** An async logger every method of which returns a rejected promise. */
const rejectingLogger: Logger = { error: rejects, warn: rejects, info: rejects, debug: rejects };

/**
 * Answers that are not about what was asked, and bystanders that fail: a logger that throws, header values that
 * would split a request, a purchase answer about another code, a 204 delete, paging meta as strings, reset
 * headers read as ky reads them, and pages that never advance.
 */
export const hostileAnswerScenarios: Scenario[] = [
  {
    name: 'a logger that throws from every method: a 503 then 200 still succeeds after its retry',
    via: ['socket', 'fetch'],
    within: 2_000,
    async run(rig, via) {
      rig.server.faults.script([{ status: 503, headers: { 'retry-after': '0' } }]);
      const client = rig.mgmt(via, { logger: throwingLogger, logLevel: 'debug' });
      await expect(client.pixels.get(1)).resolves.toMatchObject({ id: 1, name: 'Facebook Main' });
      expect(attempts(rig)).toBe(2);
    },
  },
  {
    name: 'a logger that throws from every method: a 404 still rejects with NotFoundError, not the logger error',
    via: ['socket', 'fetch'],
    within: 1_000,
    async run(rig, via) {
      const client = rig.mgmt(via, { logger: throwingLogger, logLevel: 'debug' });
      const error = await failure(client.pixels.get(999_999));
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).status).toBe(404);
      expect((error as NotFoundError).attempts).toBe(1);
    },
  },
  {
    name: 'an async logger whose methods reject: the call succeeds after its retry, no rejection goes unhandled',
    within: 2_000,
    async run(rig, via) {
      const unhandled = collected.unhandled.length;
      rig.server.faults.script([{ status: 503, headers: { 'retry-after': '0' } }]);
      const client = rig.mgmt(via, { logger: rejectingLogger, logLevel: 'debug' });
      await expect(client.pixels.get(1)).resolves.toMatchObject({ id: 1 });
      expect(attempts(rig)).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(collected.unhandled.slice(unhandled)).toEqual([]);
    },
  },
];
