// The throttle room: one client's throttle (the server's budget, the queue, the pause after a 429) and its caps
// (the `rateLimit` option). It knows nothing of ky or of a call: the transport takes and hands back turns.

export { type RateLimitOptions, rateLimitOption } from './caps.js';
export { type RateLimitSnapshot, Throttle, type ThrottleLog, type Ticket } from './throttle.js';
