/**
 * The Lua scripts of the job store (see `jobs.ts` for their callers and `keys.ts` for the
 * keys). Lifetimes are passed in seconds; the live channel gets `{"seq":n,"event":{...}}`.
 */

/**
 * KEYS: candidate session hash, its messages, its pending events, fresh session hash, job (one
 * slot: the IDs share their first 8 hex digits, see keys.ts).
 * ARGV: candidate id ('' = none), fresh id, user id, now, job id, message, llm JSON, job ttl,
 * session ttl, regenerate ('1'/'0'). Returns `{session_id, is_new ('1'/'0')}`. The caller queues
 * the job next (the queue has a slot of its own).
 */
export const SUBMIT_LUA = `
local sid, isnew
-- Only its owner continues an owned session (anyone continues an ownerless one); for anyone
-- else it names no live session, so a new one starts and the owner's history stays theirs.
local owner = redis.call('HGET', KEYS[1], 'user_id')
if ARGV[1] ~= '' and owner and (owner == '' or owner == ARGV[3]) then
  sid = ARGV[1]
  isnew = '0'
  redis.call('HSET', KEYS[1], 'pending_job_id', ARGV[5])
  redis.call('DEL', KEYS[3])
  redis.call('EXPIRE', KEYS[1], ARGV[9])
  redis.call('EXPIRE', KEYS[2], ARGV[9])
else
  sid = ARGV[2]
  isnew = '1'
  redis.call('HSET', KEYS[4], 'session_id', sid, 'user_id', ARGV[3], 'created_at', ARGV[4], 'name', '', 'pending_job_id', ARGV[5])
  redis.call('EXPIRE', KEYS[4], ARGV[9])
end
redis.call('HSET', KEYS[5], 'job_id', ARGV[5], 'session_id', sid, 'user_id', ARGV[3], 'is_new_session', isnew,
  'message', ARGV[6], 'status', 'pending', 'created_at', ARGV[4], 'attempts', '0', 'llm', ARGV[7], 'regenerate', ARGV[10])
redis.call('EXPIRE', KEYS[5], ARGV[8])
return {sid, isnew}
`;

/**
 * Appends an event: the job's event list (its seq is the new length), the session's pending
 * events while this job is the session's pending job, and the live channel. The job and its
 * events live on while events arrive; the session is renewed when written.
 */
const PUBLISH_FN = `
local function publish(evkey, jobkey, skey, mkey, pkey, ev, jobttl, sttl, channel, jobid)
  local seq = redis.call('RPUSH', evkey, ev)
  redis.call('EXPIRE', evkey, jobttl)
  redis.call('EXPIRE', jobkey, jobttl)
  if redis.call('HGET', skey, 'pending_job_id') == jobid then
    redis.call('RPUSH', pkey, ev)
    redis.call('EXPIRE', skey, sttl)
    redis.call('EXPIRE', mkey, sttl)
    redis.call('EXPIRE', pkey, sttl)
  end
  redis.call('PUBLISH', channel, '{"seq":' .. seq .. ',"event":' .. ev .. '}')
  return seq
end
`;

/**
 * KEYS: job, job events.
 * ARGV: the session hash, messages and pending-events keys as two halves each (before and after
 * the session ID; the job's slot tag is the session's), history length, first event JSON, job
 * ttl, session ttl, live channel, job id.
 * Marks the job running, counts the attempt and publishes its first event; returns
 * \`{job hash, last messages}\`, or nil when the job is gone or finished. (The session keys
 * are known only once the job is read, so they are built from the halves \`keys.ts\` gives.)
 */
export const TAKE_LUA = `${PUBLISH_FN}
local st = redis.call('HGET', KEYS[1], 'status')
if not st or st == 'done' or st == 'error' then return false end
redis.call('HSET', KEYS[1], 'status', 'running')
redis.call('HINCRBY', KEYS[1], 'attempts', 1)
local sid = redis.call('HGET', KEYS[1], 'session_id') or ''
local skey = ARGV[1] .. sid .. ARGV[2]
local mkey = ARGV[3] .. sid .. ARGV[4]
local pkey = ARGV[5] .. sid .. ARGV[6]
publish(KEYS[2], KEYS[1], skey, mkey, pkey, ARGV[8], ARGV[9], ARGV[10], ARGV[11], ARGV[12])
return {redis.call('HGETALL', KEYS[1]), redis.call('LRANGE', mkey, -tonumber(ARGV[7]), -1)}
`;

/**
 * KEYS: job events, job, session hash, messages, pending events.
 * ARGV: event JSON, job ttl, session ttl, live channel, job id. Returns the event's seq.
 */
export const PUBLISH_LUA = `${PUBLISH_FN}
return publish(KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5])
`;

/**
 * KEYS: job events, job, session hash, messages, pending events (one slot).
 * ARGV: final event JSON, status, result JSON or error text, user message JSON ('' on error),
 * assistant message JSON, job ttl, session ttl, live channel, job id, regenerate ('1': the new
 * pair replaces the last one when that one asked the same question).
 * Returns the final event's seq, or 0 when the job had already finished. The user's session
 * list (before) and the worker's processing list (after) are separate steps (keys.ts).
 */
export const FINISH_LUA = `
local st = redis.call('HGET', KEYS[2], 'status')
if st == 'done' or st == 'error' then return 0 end
local seq = redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[6])
if ARGV[2] == 'done' then
  redis.call('HSET', KEYS[2], 'job_id', ARGV[9], 'status', 'done', 'result', ARGV[3])
else
  redis.call('HSET', KEYS[2], 'job_id', ARGV[9], 'status', 'error', 'error', ARGV[3])
end
redis.call('EXPIRE', KEYS[2], ARGV[6])
if redis.call('EXISTS', KEYS[3]) == 1 then
  if ARGV[4] ~= '' then
    -- A user message is stored exactly as the new one is, so equal text is the same question.
    if ARGV[10] == '1' and redis.call('LINDEX', KEYS[4], -2) == ARGV[4] then redis.call('LTRIM', KEYS[4], 0, -3) end
    redis.call('RPUSH', KEYS[4], ARGV[4], ARGV[5])
  end
  if redis.call('HGET', KEYS[3], 'pending_job_id') == ARGV[9] then
    redis.call('HSET', KEYS[3], 'pending_job_id', '')
    redis.call('DEL', KEYS[5])
  end
  redis.call('EXPIRE', KEYS[3], ARGV[7])
  redis.call('EXPIRE', KEYS[4], ARGV[7])
end
redis.call('PUBLISH', ARGV[8], '{"seq":' .. seq .. ',"event":' .. ARGV[1] .. '}')
return seq
`;

/**
 * KEYS: the user's session list, the user hash (the user's slot).
 * ARGV: session id, '1' to list it (a finished answer), session ttl.
 * Lists the session once, newest first; a user and its list live at least as long as their
 * newest session. Idempotent, so it runs before FINISH_LUA: a crash between lists a session
 * whose answer is written by the retry (or a session that is gone, dropped when next read).
 */
export const LIST_SESSION_LUA = `
if ARGV[2] == '1' and not redis.call('LPOS', KEYS[1], ARGV[1]) then redis.call('LPUSH', KEYS[1], ARGV[1]) end
for _, k in ipairs(KEYS) do
  local t = redis.call('TTL', k)
  if t == -1 or (t >= 0 and t < tonumber(ARGV[3])) then redis.call('EXPIRE', k, ARGV[3]) end
end
return 1
`;
