import nodemailer, { type Transporter } from 'nodemailer';

/** `replyTo`: where the recipient's answer goes (an account's branding, issue 34 item 4); absent: the From address. */
export type Mail = { to: string; subject: string; text: string; html: string; replyTo?: string };

/**
 * Outgoing mail over SMTP. The body is never logged: it carries links and codes. Connections are pooled
 * (nodemailer's SMTP pool: up to 5, each reused for up to 100 messages) unless the URL says `pool=false`:
 * a new connection per message (TCP, greeting, EHLO, STARTTLS where offered) capped the link mails at
 * about a quarter of the creation rate on this machine.
 */
export function createMailer(smtpUrl: string, from: string) {
  const url = new URL(smtpUrl);
  if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
  const transport: Transporter = nodemailer.createTransport(url.toString());
  return {
    async send(mail: Mail): Promise<void> {
      await transport.sendMail({ from, ...mail });
    },
    async verify(): Promise<void> {
      await transport.verify();
    },
    close: () => transport.close(),
  };
}

export type Mailer = ReturnType<typeof createMailer>;
