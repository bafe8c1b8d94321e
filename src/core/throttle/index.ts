// The throttle room: one client's throttle (the server's budget, the queue, the pause after a 429) and its caps
// (the `rateLimit` option), and what a throttle is to its callers, which a fleet store (`/redis`) builds another of.
// It knows nothing of ky or of a call: the transport takes and hands back turns.

export { DEFAULT_MAX_IN_FLIGHT, type RateLimitOptions, rateLimitOption } from './caps.js';
export type {
  ClientThrottle,
  FleetInit,
  RateLimitSnapshot,
  RateLimitStore,
  ThrottleLog,
  Ticket,
} from './fleet.js';
export { Throttle } from './throttle.js';
export { drain, type WaitEnds, WaitQueue, waitInQueue } from './waiting.js';
