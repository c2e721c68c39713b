import { userNotFound } from '../domain/errors.js';
import type { UserRecord, UserRepository } from '../store/user.repository.js';

/** The user with this id; not found for an unknown or empty id. */
export async function getUser(deps: { users: Pick<UserRepository, 'byId'> }, userId: string): Promise<UserRecord> {
  const user = userId ? await deps.users.byId(userId) : null;
  if (!user) throw userNotFound();
  return user;
}
