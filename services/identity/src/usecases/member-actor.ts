import { notAllowed } from '../domain/errors.js';
import { atLeast, orgOf, roleOf, type Role } from '../domain/roles.js';
import type { UserRecord, UserRepository } from '../store/user.repository.js';
import { getUser } from './get-user.js';

export type Actor = { user: UserRecord; orgId: string; role: Role };

/**
 * The member asking, with their organisation and role, checked again here (the gateway checks the
 * route's role first): below `min` is PERMISSION_DENIED.
 */
export async function actorWith(deps: { users: Pick<UserRepository, 'byId'> }, actorId: string, min: Role): Promise<Actor> {
  const user = await getUser(deps, actorId);
  const role = roleOf(user);
  if (!atLeast(role, min)) throw notAllowed(`this needs the ${min} role; yours is ${role}`);
  return { user, orgId: orgOf(user), role };
}
