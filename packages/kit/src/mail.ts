import nodemailer, { type Transporter } from 'nodemailer';

export type Mail = { to: string; subject: string; text: string; html: string };

/** Outgoing mail over SMTP. The body is never logged: it carries links and codes. */
export function createMailer(smtpUrl: string, from: string) {
  const transport: Transporter = nodemailer.createTransport(smtpUrl);
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
