/**
 * The account's defaults for the transactions it creates from now on (issues 18 and 21): how long
 * their biometric data is kept after they end, when their links expire, and their automatic
 * reminders. The bounds are the API's: a value past the operator's maximum is answered with a 400
 * naming it, shown beside the field.
 */
import { api, ApiError, type Profile, type Settings, type SettingsChange } from '../api.js';
import { announce, field, formError, h, onSubmit, value } from '../dom.js';

type Field = keyof SettingsChange & keyof Settings & keyof Profile;
type Spec = { label: string; hint: string; min: number; max: number; unit: string };

/** The fields in the form's order, with the API's own bounds (the operator may set lower maxima). */
const FIELDS: { [K in Exclude<Field, 'session_ttl_hours'>]: Spec } = {
  biometric_retention_days: {
    label: 'Keep biometric data for (days)',
    hint: 'The face video, frames and reference photo, counted from when the transaction ends. 0 erases them then. The certificate stays.',
    min: 0,
    max: 3650,
    unit: 'days',
  },
  expiry_days: {
    label: 'Signing links expire after (days)',
    hint: 'Counted from creation, unless the transaction sets its own expiry.',
    min: 1,
    max: 3650,
    unit: 'days',
  },
  reminder_first_after_hours: {
    label: 'First reminder after (hours)',
    hint: 'To signers who have not finished, counted from creation.',
    min: 1,
    max: 87_600,
    unit: 'hours',
  },
  reminder_every_hours: { label: 'Then remind every (hours)', hint: '', min: 1, max: 87_600, unit: 'hours' },
  reminder_max: { label: 'Reminders at most', hint: '0 sends no automatic reminders.', min: 0, max: 20, unit: 'reminders' },
};
const NAMES = Object.keys(FIELDS) as (keyof typeof FIELDS)[];

/** A whole number within the API's bounds, else a 400 in the API's words for the field's error slot. */
function whole(form: HTMLFormElement, name: keyof typeof FIELDS): number {
  const raw = value(form, name).trim();
  const { min, max, unit } = FIELDS[name];
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max)
    throw new ApiError(400, `${name}: must be a whole number of ${unit} from ${min} to ${max}`);
  return n;
}

const plural = (n: number, unit: string) => `${n} ${n === 1 ? unit.replace(/s$/, '') : unit}`;

function savedText(s: Settings): string {
  const kept =
    s.biometric_retention_days === 0 ? 'erased when it ends' : `kept ${plural(s.biometric_retention_days, 'days')} after it ends`;
  const reminders =
    s.reminder_max === 0
      ? 'no automatic reminders'
      : `up to ${plural(s.reminder_max, 'reminders')}, the first after ${plural(s.reminder_first_after_hours, 'hours')}`;
  return `Saved. A new transaction's biometric data is ${kept}; its links expire after ${plural(s.expiry_days, 'days')}; ${reminders}.`;
}

export function transactionSettingsCard(p: Profile): HTMLFormElement {
  const form = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'h-tx-settings', class: 'card', id: 'transaction-settings' },
    h('h2', { id: 'h-tx-settings' }, 'New transactions'),
    h('p', { class: 'hint' }, 'These apply to transactions created from now on; existing ones keep theirs.'),
    ...NAMES.map((name) => {
      const { label, hint, min } = FIELDS[name];
      return field(label, name, { type: 'number', inputmode: 'numeric', min, step: 1, required: true }, hint ? { hint } : {});
    }),
    formError(),
    h('button', { type: 'submit', class: 'primary' }, 'Save'),
  );
  const input = (name: keyof typeof FIELDS) => form.elements.namedItem(name) as HTMLInputElement;
  const fill = (s: Pick<Settings, keyof typeof FIELDS>) => NAMES.forEach((name) => (input(name).value = String(s[name])));
  fill(p);
  onSubmit(form, async (f) => {
    f.querySelector('.ok')?.remove();
    const change = Object.fromEntries(NAMES.map((name) => [name, whole(f, name)])) as Required<
      Pick<SettingsChange, keyof typeof FIELDS>
    >;
    const saved = await api.updateSettings(change);
    Object.assign(p, saved);
    fill(saved);
    const text = savedText(saved);
    announce(text);
    f.append(h('p', { class: 'ok', role: 'status' }, text));
  });
  return form;
}
