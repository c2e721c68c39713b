import { accountExists, noPendingSignup } from '../domain/errors.js';
import { codeExpiry } from '../domain/codes.js';
import { signupCodeMail } from '../domain/mail.js';
import { codeHash, newCode } from '../domain/secrets.js';
import { normEmail } from '../domain/validate.js';
import type { SignupRepository } from '../store/signup.repository.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { sendMail, type MailDeps } from './send-mail.js';

/** What mailing a sign-up code needs, with the sign-up intent methods the caller uses. */
export type SignupCodeDeps<M extends keyof SignupRepository> = MailDeps &
  Pick<IdentityDeps, 'now'> & { users: Pick<UserRepository, 'exists'>; signups: Pick<SignupRepository, M> };

/** Mails a fresh sign-up code to a pending intent (the old code and its wrong tries are gone). Returns its expiry. */
export async function sendSignupCode(deps: SignupCodeDeps<'byEmail' | 'setCode'>, rawEmail: string): Promise<Date> {
  const email = normEmail(rawEmail);
  if (await deps.users.exists(email)) throw accountExists();
  const intent = await deps.signups.byEmail(email);
  if (!intent) throw noPendingSignup();
  const code = newCode();
  const expires = codeExpiry(deps.now());
  if (!(await deps.signups.setCode(email, codeHash('signup', email, code), expires))) throw noPendingSignup();
  await sendMail(deps, 'signup_code', signupCodeMail(email, intent.name, code));
  return expires;
}
