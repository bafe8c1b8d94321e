import type { z } from 'zod/mini';
import type { RecordSet } from '../bulk/index.js';
import { checkParams } from './params.js';

/** The bulk jobs (`createMany`, `sync`), loaded on the first bulk call: the main entry carries none of them. */
export const bulkJobs = (): Promise<typeof import('../bulk/index.js')> => import('../bulk/index.js');

/** A resource's records as the bulk jobs use them: its own methods, its create check, the fields `sync` compares. */
export function recordSet<T extends { id: number; name: string }, Row extends { name: string }>(
  kind: string,
  resource: RecordSet<T, Row>['resource'],
  schema: z.ZodMiniObject,
  fields: readonly (keyof Row & string)[],
): RecordSet<T, Row> {
  return { kind, resource, fields, check: (row, where) => void checkParams(schema, row, where) };
}
