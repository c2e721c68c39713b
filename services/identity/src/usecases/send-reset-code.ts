import { codeExpiry } from '../domain/codes.js';
import { resetCodeMail } from '../domain/mail.js';
import { codeHash, newCode } from '../domain/secrets.js';
import { normEmail } from '../domain/validate.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { sendMail, type MailDeps } from './send-mail.js';

/**
 * Mails a password reset code when the email has an account. The answer is the same either way,
 * and comes before the mail is sent, so neither it nor its timing tells whether an account exists.
 */
export async function sendResetCode(
  deps: MailDeps &
    Pick<IdentityDeps, 'now'> & {
      users: Pick<UserRepository, 'byEmail' | 'setResetCode'>;
    },
  rawEmail: string,
): Promise<void> {
  const email = normEmail(rawEmail);
  const user = await deps.users.byEmail(email);
  if (!user) return;
  const code = newCode();
  await deps.users.setResetCode(user._id, codeHash('reset', email, code), codeExpiry(deps.now()));
  // Not awaited: the answer (and its timing) must not depend on whether a mail went out.
  void sendMail(deps, 'reset_code', resetCodeMail(email, code)).catch(() => undefined);
}
