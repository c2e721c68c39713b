import { accountExists } from '../domain/errors.js';
import { codeExpiry } from '../domain/codes.js';
import { signupCodeMail } from '../domain/mail.js';
import { codeHash, newCode, type PasswordHasher } from '../domain/secrets.js';
import { checkPassword, checkText, normEmail } from '../domain/validate.js';
import { sendMail } from './send-mail.js';
import type { SignupCodeDeps } from './send-signup-code.js';

export type RegisterInput = { email: string; password: string; name: string };

/**
 * Starts (or restarts) a sign-up: the password is hashed (argon2id) into an intent that carries a
 * fresh hashed code, and the code is mailed. Returns when the code expires.
 */
export async function registerAccount(
  deps: SignupCodeDeps<'upsert' | 'removeIfCode'> & { passwords: PasswordHasher },
  input: RegisterInput,
): Promise<Date> {
  const email = normEmail(input.email);
  const password = checkPassword(input.password);
  const name = checkText(input.name, 'name');
  if (await deps.users.exists(email)) throw accountExists();
  const passwordHash = await deps.passwords.hash(password);
  const code = newCode();
  const hash = codeHash('signup', email, code);
  const expires = codeExpiry(deps.now());
  await deps.signups.upsert({
    _id: email,
    name,
    password_hash: passwordHash,
    code_hash: hash,
    code_expires_at: expires,
    code_attempts: 0,
    verified_at: null,
    onboarding_token_hash: null,
    onboarding_expires_at: null,
    created_at: new Date(deps.now()),
  });
  try {
    await sendMail(deps, 'signup_code', signupCodeMail(email, name, code));
  } catch (err) {
    // Nothing half-created: an intent whose code never left is removed again.
    await deps.signups.removeIfCode(email, hash);
    throw err;
  }
  deps.metrics.signups.inc({ step: 'registered' });
  return expires;
}
