// Time as a test would see it on a machine of its own. On a loaded machine (CI's neighbours, a parallel build) a
// thread that is ready to run may wait a long while for a CPU; that wait is the machine's, not the SDK's. Linux counts
// it per thread (`/proc/thread-self/schedstat`: time on a CPU, time waiting on a run queue, in ns), so an upper bound
// on how long the SDK took can leave it out: whatever the SDK does (its own work, its timers, its waits for a server
// in this thread) still counts in full. Time this thread spends idle (a timer, a socket) is not run-queue time. On an
// idle machine the run-queue time is ~0 and the bound is the wall clock's; on a busy one it is lenient by at most the
// wait it leaves out (some of which may have overlapped a timer), so a lower bound reads the wall clock (`wallSince`).
// What other processes (a child, redis-server) waited is not in it. Where the file is missing (not Linux), the
// run-queue time reads 0: plain wall-clock time, as before.
import { readFileSync } from 'node:fs';

const SCHEDSTAT = '/proc/thread-self/schedstat';
let readable = true;

/** Milliseconds this thread has spent ready to run but waiting for a CPU, since it started (0 where not known). */
export function runQueueMs(): number {
  if (!readable) return 0;
  try {
    const waitedNs = Number(readFileSync(SCHEDSTAT, 'latin1').split(' ')[1]);
    if (Number.isFinite(waitedNs)) return waitedNs / 1e6;
  } catch {}
  readable = false;
  return 0;
}

/** A moment to measure from. */
export interface Mark {
  /** `performance.now()` then. */
  readonly at: number;
  /** `runQueueMs()` then. */
  readonly queued: number;
}

/** Now, as a moment to measure from. */
export function mark(): Mark {
  return { at: performance.now(), queued: runQueueMs() };
}

/**
 * Milliseconds since `from`, less the time this thread waited for a CPU meanwhile: what an upper bound on the SDK's
 * time should read, so that a busy machine does not fail it and a slow SDK still does.
 */
export function since(from: Mark): number {
  return performance.now() - from.at - Math.max(0, runQueueMs() - from.queued);
}

/** Milliseconds of wall-clock time since `from`: for a lower bound (a wait that must not be cut short). */
export function wallSince(from: Mark): number {
  return performance.now() - from.at;
}
