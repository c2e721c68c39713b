import type { Metrics } from '@signet/kit';

type Counter<L extends string> = { inc(labels: Partial<Record<L, string>>, value?: number): void };
export type IdentityMetrics = {
  logins: Counter<'result'>;
  signups: Counter<'step'>;
  codes: Counter<'purpose' | 'result'>;
  mails: Counter<'kind' | 'result'>;
  apiKeys: Counter<'action'>;
  authentications: Counter<'method' | 'result'>;
  totp: Counter<'action'>;
  settings: Counter<'setting'>;
  members: Counter<'action'>;
};

/** The identity service's domain instruments (declared in README.md). */
export function identityMetrics(metrics: Metrics): IdentityMetrics {
  return {
    logins: metrics.counter('signet_identity_logins_total', 'Login attempts by outcome', ['result']),
    signups: metrics.counter('signet_identity_signups_total', 'Sign-up steps completed', ['step']),
    codes: metrics.counter('signet_identity_code_checks_total', 'One-time code checks by purpose and outcome', [
      'purpose',
      'result',
    ]),
    mails: metrics.counter('signet_identity_mails_total', 'Mails handed to SMTP by kind and outcome', ['kind', 'result']),
    apiKeys: metrics.counter('signet_identity_api_keys_total', 'API key lifecycle operations', ['action']),
    authentications: metrics.counter('signet_identity_authentications_total', 'Authenticate calls by method and outcome', [
      'method',
      'result',
    ]),
    totp: metrics.counter('signet_identity_totp_changes_total', 'Two-factor authentication turned on or off', ['action']),
    settings: metrics.counter('signet_identity_settings_changed_total', 'Account settings changed, by setting', ['setting']),
    members: metrics.counter('signet_identity_member_changes_total', 'Organisation membership changes, by action', ['action']),
  };
}
