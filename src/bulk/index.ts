// The bulk jobs room: create many rows without losing or doubling one, sync with a plan, validate many codes, with
// progress. Built on the resources' public methods (so on the client's throttle, retries and telemetry), and loaded
// by them on the first bulk call: the main entry carries only their types and a stub per method.

export { createMany } from './create-many.js';
export type { Named, NamedRow, RecordSet } from './records.js';
export { sync } from './sync.js';
export type {
  ApplyEntry,
  ApplyReport,
  BulkOptions,
  CreateManyEntry,
  CreateManyReport,
  OnProgress,
  PlannedUpdate,
  Progress,
  SyncOptions,
  SyncPlan,
  ValidateManyEntry,
  ValidateManyReport,
} from './types.js';
export { type ValidateOne, validateMany } from './validate-many.js';
