/**
 * The Lua scripts of the job store (see `jobs.ts` for their callers and `keys.ts` for the
 * keys). Lifetimes are passed in seconds; the live channel gets `{"seq":n,"event":{...}}`.
 */

/**
 * KEYS: candidate session hash, its messages, its pending events, fresh session hash, job, queue.
 * ARGV: candidate id ('' = none), fresh id, user id, now, job id, message, llm JSON, job ttl,
 * session ttl. Returns `{session_id, is_new ('1'/'0')}`.
 */
export const SUBMIT_LUA = `
local sid, isnew
if ARGV[1] ~= '' and redis.call('EXISTS', KEYS[1]) == 1 then
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
  'message', ARGV[6], 'status', 'pending', 'created_at', ARGV[4], 'attempts', '0', 'llm', ARGV[7])
redis.call('EXPIRE', KEYS[5], ARGV[8])
redis.call('LPUSH', KEYS[6], ARGV[5])
return {sid, isnew}
`;

/**
 * KEYS: job. ARGV: the session messages key with \`{sid}\` in place of the session ID, history
 * length. Marks the job running and counts the attempt; returns \`{job hash, last messages}\`,
 * or nil when the job is gone or finished. (The messages key is known only once the job is
 * read, so it is built here from the template \`keys.ts\` gives.)
 */
export const TAKE_LUA = `
local st = redis.call('HGET', KEYS[1], 'status')
if not st or st == 'done' or st == 'error' then return false end
redis.call('HSET', KEYS[1], 'status', 'running')
redis.call('HINCRBY', KEYS[1], 'attempts', 1)
local sid = redis.call('HGET', KEYS[1], 'session_id') or ''
local mkey = string.gsub(ARGV[1], '{sid}', sid)
return {redis.call('HGETALL', KEYS[1]), redis.call('LRANGE', mkey, -tonumber(ARGV[2]), -1)}
`;

/**
 * KEYS: job events, job, session hash, messages, pending events.
 * ARGV: event JSON, job ttl, session ttl, live channel, job id. Returns the event's seq.
 * The job and its events live on while events arrive; the session's pending events are
 * written only while this job is the session's pending job.
 */
export const PUBLISH_LUA = `
local seq = redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[2])
if redis.call('HGET', KEYS[3], 'pending_job_id') == ARGV[5] then
  redis.call('RPUSH', KEYS[5], ARGV[1])
  for i = 3, 5 do redis.call('EXPIRE', KEYS[i], ARGV[3]) end
end
redis.call('PUBLISH', ARGV[4], '{"seq":' .. seq .. ',"event":' .. ARGV[1] .. '}')
return seq
`;

/**
 * KEYS: job events, job, session hash, messages, pending events, user's session list, the
 * worker's processing list.
 * ARGV: final event JSON, status, result JSON or error text, user message JSON ('' on error),
 * assistant message JSON, job ttl, session ttl, live channel, job id, session id, has user.
 * Returns the final event's seq, or 0 when the job had already finished.
 */
export const FINISH_LUA = `
local st = redis.call('HGET', KEYS[2], 'status')
if st == 'done' or st == 'error' then
  redis.call('LREM', KEYS[7], 1, ARGV[9])
  return 0
end
local seq = redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[6])
if ARGV[2] == 'done' then
  redis.call('HSET', KEYS[2], 'job_id', ARGV[9], 'status', 'done', 'result', ARGV[3])
else
  redis.call('HSET', KEYS[2], 'job_id', ARGV[9], 'status', 'error', 'error', ARGV[3])
end
redis.call('EXPIRE', KEYS[2], ARGV[6])
if redis.call('EXISTS', KEYS[3]) == 1 then
  if ARGV[4] ~= '' then redis.call('RPUSH', KEYS[4], ARGV[4], ARGV[5]) end
  if redis.call('HGET', KEYS[3], 'pending_job_id') == ARGV[9] then
    redis.call('HSET', KEYS[3], 'pending_job_id', '')
    redis.call('DEL', KEYS[5])
  end
  redis.call('EXPIRE', KEYS[3], ARGV[7])
  redis.call('EXPIRE', KEYS[4], ARGV[7])
  if ARGV[2] == 'done' and ARGV[11] == '1' and not redis.call('LPOS', KEYS[6], ARGV[10]) then
    redis.call('LPUSH', KEYS[6], ARGV[10])
  end
end
redis.call('LREM', KEYS[7], 1, ARGV[9])
redis.call('PUBLISH', ARGV[8], '{"seq":' .. seq .. ',"event":' .. ARGV[1] .. '}')
return seq
`;
