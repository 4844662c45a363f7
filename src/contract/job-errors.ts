/**
 * Job error texts clients compare against. Kept apart from the zod schemas so that the web
 * chat's bundle, which needs only these values, does not pull zod in.
 */

/**
 * The `error` of a job its owner stopped (`POST /chat/job/{job_id}/cancel`): a cancelled job
 * ends in the contract's `error` status, so clients written against the seed need nothing new.
 */
export const JOB_CANCELLED = 'cancelled by the user';
