import { normEmail } from '../domain/validate.js';
import type { UserRepository } from '../store/user.repository.js';

/** Whether an account already uses this email (the sign-up form asks before registering). */
export async function checkEmail(deps: { users: Pick<UserRepository, 'exists'> }, rawEmail: string): Promise<boolean> {
  return deps.users.exists(normEmail(rawEmail));
}
