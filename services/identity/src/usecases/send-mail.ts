import type { Mail } from '@signet/kit';
import { mailUnavailable } from '../domain/errors.js';
import type { IdentityDeps } from './deps.js';

/** Hands a mail to SMTP, counted by kind; a failure is logged without the mail and answered as unavailable. */
export async function sendMail(deps: Pick<IdentityDeps, 'mailer' | 'metrics' | 'logger'>, kind: string, mail: Mail) {
  try {
    await deps.mailer.send(mail);
    deps.metrics.mails.inc({ kind, result: 'sent' });
  } catch (err) {
    deps.metrics.mails.inc({ kind, result: 'failed' });
    deps.logger.warn({ err: { message: (err as Error).message }, kind }, 'mail not sent');
    throw mailUnavailable();
  }
}
