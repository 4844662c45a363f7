/** The `x-anon-id` header shared by the chat routes, and its resolution to a user (or 401). */
import { z } from '@hono/zod-openapi';
import { AppError } from '../errors.js';
import type { AnonMapping, UserStore } from '../store/users.js';

/** Headers schema with the optional anonymous ID. */
export const AnonHeaderSchema = z.object({
  'x-anon-id': z.string().optional().openapi({ description: 'Anonymous user token (the `anon_id` cookie value)' }),
});

/** The 401 for an anonymous ID that names no user. */
export function unknownAnonId(): AppError {
  return new AppError(401, 'unknown-anon-id', 'the anonymous ID is unknown or expired; call /chat/bootstrap-anon for a new one');
}

/**
 * The user behind an `x-anon-id` value: null when no ID was sent (an empty value counts as
 * none), the mapping when known.
 * @throws AppError 401 when an ID was sent and names no live user.
 */
export async function resolveUser(users: UserStore, anonId: string | undefined): Promise<AnonMapping | null> {
  if (!anonId) return null;
  const user = await users.resolve(anonId);
  if (!user) throw unknownAnonId();
  return user;
}

/** Who may use a session or job created under an identity (`ANON_READS`). */
export type AnonReads = 'open' | 'owner';

/**
 * Whether the caller may use a session or job owned by `ownerId`. A record without an owner:
 * anyone holding its random UUID. An owned one: its owner; and under `open` (the contract's
 * rule, the default without production settings) also a caller that sends no `x-anon-id`, as
 * the contract's header-less clients do (docs/security.md, "Identity and ownership").
 */
export function mayUse(ownerId: string | null, caller: AnonMapping | null, reads: AnonReads): boolean {
  if (!ownerId) return true;
  return caller ? ownerId === caller.userId : reads === 'open';
}
