import type { Mail } from '@signet/kit';
import { mailUnavailable } from '../domain/errors.js';
import type { IdentityDeps } from './deps.js';

/** What sending a mail needs; use cases that mail take it as part of their dependencies. */
export type MailDeps = Pick<IdentityDeps, 'mailer' | 'metrics' | 'logger'>;

/** Hands a mail to SMTP, counted by kind; a failure is logged without the mail and answered as unavailable. */
export async function sendMail(deps: MailDeps, kind: string, mail: Mail) {
  try {
    await deps.mailer.send(mail);
    deps.metrics.mails.inc({ kind, result: 'sent' });
  } catch (err) {
    deps.metrics.mails.inc({ kind, result: 'failed' });
    deps.logger.warn({ err: { message: (err as Error).message }, kind }, 'mail not sent');
    throw mailUnavailable();
  }
}
