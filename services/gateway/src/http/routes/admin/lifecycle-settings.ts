import { z } from 'zod';
import type { identityV1 } from '@signet/proto';

/**
 * The account's expiry and reminder defaults (issue 18) in the settings body and answers: they apply
 * to transactions created afterwards that give no expires_at or reminder fields of their own.
 * Identity checks them again, the expiry against the operator's maximum (a 400 names it).
 */
const whole = (unit: string, min: number, max: number) =>
  z
    .number({ error: `must be a whole number of ${unit}` })
    .int(`must be a whole number of ${unit}`)
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);

export const lifecycleSettingsFields = {
  expiry_days: whole('days', 1, 3650).optional().meta({
    description: 'Days from creation to expiry of transactions created without expires_at (the operator sets the maximum)',
  }),
  reminder_first_after_hours: whole('hours', 1, 87_600)
    .optional()
    .meta({ description: 'Hours from creation to the first automatic reminder' }),
  reminder_every_hours: whole('hours', 1, 87_600).optional().meta({ description: 'Hours between automatic reminders' }),
  reminder_max: whole('reminders', 0, 20)
    .optional()
    .meta({ description: 'Automatic reminders per transaction at most; 0: none' }),
};

/** The values in force (the account's, else the operator's), as the answers carry them. */
export const lifecycleSettingsOut = {
  expiry_days: z.int(),
  reminder_first_after_hours: z.int(),
  reminder_every_hours: z.int(),
  reminder_max: z.int(),
};

export const lifecycleOf = (p: identityV1.Profile) => ({
  expiry_days: p.expiryDays,
  reminder_first_after_hours: p.reminderFirstAfterHours,
  reminder_every_hours: p.reminderEveryHours,
  reminder_max: p.reminderMax,
});
