import type { Mail } from '@signet/kit';

/** Mail bodies carry codes: they go to SMTP only, never to a log line. */
export function signupCodeMail(to: string, name: string, code: string): Mail {
  return {
    to,
    subject: `Your Signet verification code: ${code}`,
    text: `Hello ${name},\n\nyour Signet verification code is ${code}. It is valid for 10 minutes.\n\nIf you did not sign up, ignore this message.\n`,
    html: `<p>Hello ${escapeHtml(name)},</p><p>your Signet verification code is <strong>${code}</strong>. It is valid for 10 minutes.</p><p>If you did not sign up, ignore this message.</p>`,
  };
}

export function resetCodeMail(to: string, code: string): Mail {
  return {
    to,
    subject: `Your Signet password reset code: ${code}`,
    text: `Your Signet password reset code is ${code}. It is valid for 10 minutes.\n\nIf you did not ask for it, ignore this message; your password is unchanged.\n`,
    html: `<p>Your Signet password reset code is <strong>${code}</strong>. It is valid for 10 minutes.</p><p>If you did not ask for it, ignore this message; your password is unchanged.</p>`,
  };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The invitation to an organisation: the link carries the one-time code. */
export function invitationMail(to: string, orgName: string, inviter: string, role: string, link: string): Mail {
  return {
    to,
    subject: `${inviter} invited you to ${orgName} on Signet`,
    text: `${inviter} invited you to join ${orgName} on Signet as ${role}.\n\nAccept within 7 days: ${link}\n\nThe link works once. If you did not expect it, ignore this message.\n`,
    html: `<p>${escapeHtml(inviter)} invited you to join <strong>${escapeHtml(orgName)}</strong> on Signet as ${escapeHtml(role)}.</p><p><a href="${escapeHtml(link)}">Accept the invitation</a> within 7 days. The link works once.</p><p>If you did not expect it, ignore this message.</p>`,
  };
}
