import type { Metrics } from '@signet/kit';
import type { SecurityDeps } from './usecases/security-deps.js';

/** Passkeys, recovery codes and the audit log (declared in README.md). */
export function securityMetrics(metrics: Metrics): SecurityDeps['securityMetrics'] & {
  auditRetained: { inc(labels: Record<string, string>, value?: number): void };
} {
  return {
    passkeys: metrics.counter(
      'signet_identity_passkey_operations_total',
      'Passkey registrations, renames, removals and sign-ins by outcome',
      ['action', 'result'],
    ),
    recoveryCodes: metrics.counter(
      'signet_identity_recovery_code_operations_total',
      'Recovery codes generated and used, by outcome',
      ['action', 'result'],
    ),
    audit: metrics.counter('signet_identity_audit_entries_total', 'Audit log entries written, by action', ['action']),
    auditRetained: metrics.counter('signet_identity_audit_entries_expired_total', 'Audit log entries deleted past retention', []),
  };
}
