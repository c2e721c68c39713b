import { invalid } from '@signet/kit';

/**
 * An account's defaults for the expiry and reminder schedule of the transactions it creates (issue 18):
 * checked here, kept on the user record, carried to the transaction service by
 * `identity.settings.changed`. Absent on the record: the operator's defaults, which the transaction
 * service reads from the same settings (in seconds, so tests can make them short).
 */
export const LIFECYCLE_FIELDS = ['expiry_days', 'reminder_first_after_hours', 'reminder_every_hours', 'reminder_max'] as const;
export type LifecycleField = (typeof LIFECYCLE_FIELDS)[number];
export type LifecycleSettings = Partial<Record<LifecycleField, number>>;

/** EXPIRY_DEFAULT_SECONDS, EXPIRY_MAX_SECONDS, REMINDER_FIRST_AFTER_SECONDS, REMINDER_EVERY_SECONDS, REMINDER_MAX. */
export type LifecycleOperator = {
  expirySeconds: number;
  expiryMaxSeconds: number;
  reminderFirstSeconds: number;
  reminderEverySeconds: number;
  reminderMax: number;
};

/** At most this many automatic reminders per transaction (as the transaction service bounds them). */
export const MAX_REMINDERS = 20;
const DAY = 86_400;
const HOUR = 3_600;

/** The bound of each field under the operator's maximum expiry: a reminder after the expiry is never sent. */
export function lifecycleBounds(op: LifecycleOperator): Record<LifecycleField, { min: number; max: number; unit: string }> {
  const hours = Math.max(1, Math.floor(op.expiryMaxSeconds / HOUR));
  return {
    expiry_days: { min: 1, max: Math.max(1, Math.floor(op.expiryMaxSeconds / DAY)), unit: 'days' },
    reminder_first_after_hours: { min: 1, max: hours, unit: 'hours' },
    reminder_every_hours: { min: 1, max: hours, unit: 'hours' },
    reminder_max: { min: 0, max: MAX_REMINDERS, unit: 'reminders' },
  };
}

/** The given fields, each a whole number within its bound, else INVALID_ARGUMENT naming the field. */
export function checkLifecycle(req: LifecycleSettings, op: LifecycleOperator): LifecycleSettings {
  const bounds = lifecycleBounds(op);
  const out: LifecycleSettings = {};
  for (const field of LIFECYCLE_FIELDS) {
    const v = req[field];
    if (v === undefined) continue;
    const b = bounds[field];
    if (!Number.isInteger(v) || v < b.min || v > b.max)
      throw invalid(`${field} must be a whole number of ${b.unit} from ${b.min} to ${b.max}`);
    out[field] = v;
  }
  return out;
}

/** What applies to the account's next transaction: its own values, else the operator's (rounded to the unit, at least 1). */
export function effectiveLifecycle(
  own: { [K in LifecycleField]?: number | null },
  op: LifecycleOperator,
): Required<LifecycleSettings> {
  const unit = (seconds: number, per: number) => Math.max(1, Math.round(seconds / per));
  return {
    expiry_days: own.expiry_days ?? unit(Math.min(op.expirySeconds, op.expiryMaxSeconds), DAY),
    reminder_first_after_hours: own.reminder_first_after_hours ?? unit(op.reminderFirstSeconds, HOUR),
    reminder_every_hours: own.reminder_every_hours ?? unit(op.reminderEverySeconds, HOUR),
    reminder_max: own.reminder_max ?? op.reminderMax,
  };
}
