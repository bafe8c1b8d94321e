// The fleet's state lives in four keys per API root and key, under one hash tag (a Redis Cluster keeps them on one
// node): `…:s` a hash (the server's budget: remaining, limit, until; the pause; whether the server sends no
// rate-limit headers; when the last probe went; when the server's window began and how long one lasts), `…:f` the
// turns in flight (a sorted set of tokens by lease end), `…:m` the starts of the last minute (for
// requestsPerMinute), `…:h` the members (process ids by last call).
// Every script reads Redis's clock (TIME), never a process's: the fleet's machines need not agree on the time.

// The longest server window the fleet learns (a minute, and the second a 429's whole-second wait may add).
const WINDOW_LEN_MAX = 61_000;

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

// What no client writes is dropped before a script reads it: a key of another type (a string where the state's hash
// is kept would fail every script, and the fleet stay on its fallback for good), a field that is not a number (Lua
// reads 'nan' as NaN, which every comparison lets through, and text as nil, which one fails on).
const KIND = `local function kind(key, type)
  local found = redis.call('TYPE', key).ok
  if found ~= 'none' and found ~= type then redis.call('DEL', key) end
end`;
const FIELDS = `local function fields(key, names)
  local s = redis.call('HMGET', key, unpack(names))
  for i = 1, #names do
    local n = tonumber(s[i])
    if s[i] and (n == nil or n ~= n) then
      redis.call('HDEL', key, names[i])
      s[i] = false
    end
  end
  return s
end`;

/**
 * Takes a turn when the fleet's limits allow one now. KEYS: state, in flight, starts, members. ARGV: token,
 * lease ms, maxConcurrent (0: none), requestsPerMinute (0: none), member, probe ms, member idle ms (a member not
 * heard from for that long is gone), state ms (how long the state outlives the last call), longest lease and longest
 * pause any client writes. Returns `{ wait, members, remaining, limit, window, paused, at }` (-1: unknown): `wait` 0
 * when the turn is taken, -1 until a turn comes back or an answer says the budget (poll), else the ms until one may;
 * `window` the longest wait a 429 has named (the server's window, as far as the fleet has seen it); `paused` the ms a
 * 429's pause has still to run (0: none); `at` the ms the request of a turn taken must wait before it goes (0: none).
 * When the budget is spent and the server's window is known (`start`: its first answer, `len`: how long one lasts, as
 * 429s have shown it), nothing goes before the window's end; then one request alone finds out the new budget. That
 * request's turn is promised ahead (unless `requestsPerMinute` is set): the first to ask within half a lease of the
 * window's end takes it, to go at the end (`at`), so the window's first request waits for no round trip to Redis once the window is over (on a busy
 * host, each one costs the fleet the time a process takes to be scheduled, every window).
 * What no client would write (a lease or a pause past the longest, a stamp in the future) is dropped, not obeyed:
 * a hand-edited or corrupt state never holds calls for good.
 */
export const ACQUIRE = `${NOW}
${KIND}
${FIELDS}
kind(KEYS[1], 'hash')
kind(KEYS[2], 'zset')
kind(KEYS[3], 'zset')
kind(KEYS[4], 'zset')
local idle = tonumber(ARGV[7])
local maxLease = tonumber(ARGV[9])
local maxPause = tonumber(ARGV[10])
redis.call('ZADD', KEYS[4], now, ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now - idle)
redis.call('ZREMRANGEBYSCORE', KEYS[4], '(' .. (now + idle), '+inf')
redis.call('PEXPIRE', KEYS[4], idle)
local members = redis.call('ZCARD', KEYS[4])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '(' .. (now + maxLease), '+inf')
local inflight = redis.call('ZCARD', KEYS[2])
local s = fields(KEYS[1], { 'remaining', 'until', 'paused', 'open', 'probe', 'limit', 'window', 'start', 'len' })
local remaining = tonumber(s[1])
local untilAt = tonumber(s[2]) or 0
if remaining and (now >= untilAt or untilAt > now + maxPause or remaining < 0) then
  remaining = nil
  redis.call('HDEL', KEYS[1], 'remaining', 'until')
end
local wait = 0
local at = 0
local paused = tonumber(s[3]) or 0
if paused > now + maxPause then
  paused = 0
  redis.call('HDEL', KEYS[1], 'paused')
end
local window = tonumber(s[7])
if window and (window <= 0 or window > maxPause) then window = nil end
local start = tonumber(s[8])
local len = tonumber(s[9])
if start and start > now then
  start = nil
  redis.call('HDEL', KEYS[1], 'start')
end
if len and (len <= 0 or len > ${WINDOW_LEN_MAX}) then
  len = nil
  redis.call('HDEL', KEYS[1], 'len')
end
local windowEnd = start and len and start + len or 0
local cap = tonumber(ARGV[3])
if now < paused then
  wait = paused - now
elseif s[4] ~= '1' and remaining == 0 and now < windowEnd then
  -- The window is spent and its end is known: nothing goes before it (a request sent now would draw a 429). The
  -- request that finds out the next budget is promised to the first to ask, unless it is, a cap is full, or the
  -- fleet counts its requests a minute (a start is stamped when its turn is taken).
  if (tonumber(s[5]) or 0) < windowEnd and windowEnd - now <= tonumber(ARGV[2]) / 2 and (cap == 0 or inflight < cap)
    and tonumber(ARGV[4]) == 0 then
    at = windowEnd - now
  else
    wait = windowEnd - now
  end
elseif cap > 0 and inflight >= cap then
  wait = -1
elseif s[4] ~= '1' then
  local budget = remaining or 0
  if budget > 0 and inflight >= budget then
    wait = -1
  elseif budget == 0 and inflight > 0 and now < math.min(tonumber(s[5]) or 0, now) + tonumber(ARGV[6]) then
    -- A request sent alone is finding out the budget: ask again soon (its answer, in any process, may say it at once),
    -- and another goes alone once the probe time has passed.
    wait = -1
  end
end
local perMinute = tonumber(ARGV[4])
if wait == 0 and perMinute > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - 60000)
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '(' .. now, '+inf')
  if redis.call('ZCARD', KEYS[3]) >= perMinute then
    local first = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
    wait = math.max(1, tonumber(first[2]) + 60000 - now)
  else
    redis.call('ZADD', KEYS[3], now, ARGV[1])
    redis.call('PEXPIRE', KEYS[3], 60000)
  end
end
if wait == 0 then
  -- A promised probe counts as sent at the window's end: until its answer (or the probe time after it), others poll.
  if s[4] ~= '1' and (remaining or 0) == 0 then redis.call('HSET', KEYS[1], 'probe', now + at) end
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
  redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[2]) + tonumber(ARGV[8]))
end
redis.call('PEXPIRE', KEYS[1], ARGV[8])
return { wait, members, remaining or -1, tonumber(s[6]) or -1, window or -1, math.max(0, paused - now),
  wait == 0 and at or 0 }`;

/** Hands turns back. KEYS: in flight. ARGV: their tokens. Returns how many were held. */
export const RELEASE = `${KIND}
kind(KEYS[1], 'zset')
return redis.call('ZREM', KEYS[1], unpack(ARGV))`;

/**
 * Holds turns for another lease. KEYS: in flight. ARGV: lease ms, 'XX' (renew only turns still held: a process's
 * turns in flight) or '' (add them: turns its own throttle granted while Redis was down, carried back), state ms,
 * then the tokens.
 */
export const HOLD = `${NOW}
${KIND}
kind(KEYS[1], 'zset')
local ends = now + tonumber(ARGV[1])
for i = 4, #ARGV do
  if ARGV[2] == 'XX' then redis.call('ZADD', KEYS[1], 'XX', ends, ARGV[i])
  else redis.call('ZADD', KEYS[1], ends, ARGV[i]) end
end
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[3]))
return #ARGV - 3`;

/**
 * Reads one answer into the fleet's state. KEYS: state. ARGV: remaining ('' when the answer had none), limit (''),
 * window ms (how long the budget holds), its kind ('1' a 429, '0' a success, '2' any other: a 5xx says nothing of the
 * budget, and only a success without rate-limit headers opens the throttle), its wait ms, maxPauseMs (unused: every
 * pause is kept, and a call that may not wait that long fails), state ms, longest pause any client writes (a longer
 * wait is written as that), whether the 429 named its wait ('1': a Retry-After; '0'). Returns the ms of the pause
 * this answer started (0 when it started none: no 429, or a pause already running). Learns the server's window: its
 * start from its first answer, its length (whole seconds) from the wait a 429 names, measured from that start.
 */
export const OBSERVE = `${NOW}
${KIND}
${FIELDS}
kind(KEYS[1], 'hash')
local maxPause = tonumber(ARGV[8])
local s = fields(KEYS[1], { 'remaining', 'until', 'paused', 'read', 'limit', 'start', 'len', 'window' })
local known = s[1] and now < (tonumber(s[2]) or 0)
local started = 0
-- Answers from many processes cross on their way: a higher budget read within 250 ms of a lower one is an older
-- answer arriving late far more often than a window that turned, and believing it overruns the key.
local late = known and tonumber(ARGV[1]) and tonumber(ARGV[1]) > tonumber(s[1]) and now - (tonumber(s[4]) or 0) < 250
if ARGV[1] ~= '' and not late then
  redis.call('HSET', KEYS[1], 'remaining', ARGV[1], 'read', now, 'until', now + math.min(tonumber(ARGV[3]), maxPause))
  if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 'limit', ARGV[2]) end
  redis.call('HDEL', KEYS[1], 'open')
  -- The server's window (Laravel's) begins with its first request: the first answer of one (limit - 1 left, or a
  -- budget that rose) marks its start. A 429's remaining 0 says nothing of it.
  local limit = tonumber(ARGV[2]) or tonumber(s[5])
  local rose = s[1] and tonumber(ARGV[1]) > tonumber(s[1])
  if ARGV[4] ~= '1' and (rose or (limit and tonumber(ARGV[1]) == limit - 1)) then
    redis.call('HSET', KEYS[1], 'start', now)
  end
elseif ARGV[4] == '0' and not known then
  redis.call('HSET', KEYS[1], 'open', '1')
end
if ARGV[4] == '1' then
  local wait = math.min(tonumber(ARGV[5]), maxPause)
  redis.call('HSET', KEYS[1], 'remaining', 0, 'until', now + wait, 'read', now)
  -- The wait names when the window that began with its first answer ends, to the whole second (Laravel's
  -- Retry-After, as the real servers send it): its length is the one whole number of seconds in
  -- (x + wait - 1 s, x + wait], x the time since its start. A 429 past a window's middle (x > wait) more likely
  -- follows a start the fleet missed (its answer lost, or crossed by later ones) than the start it knows: it teaches
  -- nothing. The fleet keeps the shortest length it has learned.
  local start = tonumber(s[6])
  if ARGV[9] == '1' and start and start <= now and now - start <= wait then
    local len = math.floor((now - start + wait) / 1000) * 1000
    if len >= 1000 and len <= ${WINDOW_LEN_MAX} and len < (tonumber(s[7]) or math.huge) then
      redis.call('HSET', KEYS[1], 'len', len)
    end
  end
  if wait > (tonumber(s[8]) or 0) then redis.call('HSET', KEYS[1], 'window', wait) end
  redis.call('HDEL', KEYS[1], 'open')
  local paused = tonumber(s[3]) or 0
  if paused > now + maxPause then paused = 0 end
  if now + wait > paused then
    redis.call('HSET', KEYS[1], 'paused', now + wait)
    if paused <= now then started = wait end
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[7])
return started`;

/** The purchase cache's entries: GET, SET with a TTL in ms, DEL of one key. */
export const CACHE_GET = `return redis.call('GET', KEYS[1])`;
export const CACHE_SET = `return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])`;
export const CACHE_DELETE = `return redis.call('DEL', KEYS[1])`;
/**
 * Takes a code's refresh for ARGV[1] ms as the token ARGV[2], unless another process holds it: 'OK', else nil. A
 * claim held longer than any process asks for (no expiry, or a later one: hand-edited, corrupt) holds ARGV[1] ms more.
 */
export const CACHE_CLAIM = `local left = redis.call('PTTL', KEYS[1])
if left == -1 or left > tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return redis.call('SET', KEYS[1], ARGV[2], 'NX', 'PX', ARGV[1])`;
/** Gives a code's refresh back if the token ARGV[1] still holds it (a claim that expired may be another's now). */
export const CACHE_RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;
