/** Account: profile, session length, new transactions' defaults, change password, two-factor setup (QR + manual secret) and disable. */
import { api, session } from '../api.js';
import { announce, field, fmtDate, formError, h, message, onSubmit, value } from '../dom.js';
import type { App, View } from '../main.js';
import { transactionSettingsCard } from './account-settings.js';
import { brandingCard } from './branding.js';
import { embedOriginsCard } from './embed-origins.js';

/** The choices of "Stay signed in for", in hours (the API accepts any whole number from 1 to 720). */
const SESSION_LENGTHS: [number, string][] = [
  [1, '1 hour'],
  [8, '8 hours'],
  [24, '24 hours'],
  [168, '7 days'],
  [720, '30 days'],
];
const lengthLabel = (hours: number) =>
  SESSION_LENGTHS.find(([h]) => h === hours)?.[1] ??
  (hours % 24 === 0 ? `${hours / 24} days` : `${hours} hour${hours === 1 ? '' : 's'}`);

type Profile = Awaited<ReturnType<App['profile']>>;
type TotpSetup = { secret: string; otpauth_uri: string; qr_data_url: string };

/** Who the account is: name, email, organisation, member since. */
const profileFacts = (p: Profile) =>
  h(
    'dl',
    { class: 'facts' },
    h('dt', {}, 'Name'),
    h('dd', {}, p.name),
    h('dt', {}, 'Email'),
    h('dd', {}, p.email),
    h('dt', {}, 'Organisation'),
    h('dd', {}, p.org_name),
    h('dt', {}, 'Member since'),
    h('dd', {}, fmtDate(p.created_at)),
  );

/** Session length: applies to sign-ins from now on; this session keeps the expiry it was issued with. */
function sessionLengthForm(p: Profile) {
  const ttl = p.session_ttl_hours ?? 24;
  const choices: [string, string][] = SESSION_LENGTHS.map(([hours, label]) => [String(hours), label]);
  // A value set through the API that is not one of the choices stays selectable as it is.
  if (!SESSION_LENGTHS.some(([hours]) => hours === ttl)) choices.push([String(ttl), lengthLabel(ttl)]);
  const stay = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'h-stay', class: 'card', id: 'session-length' },
    h('h2', { id: 'h-stay' }, 'Sessions'),
    field(
      'Stay signed in for',
      'session_ttl_hours',
      {},
      { tag: 'select', options: choices, hint: 'Applies to your next sign-in. Sessions already signed in keep their expiry.' },
    ),
    formError(),
    h('button', { type: 'submit', class: 'primary' }, 'Save'),
  );
  (stay.elements.namedItem('session_ttl_hours') as HTMLSelectElement).value = String(ttl);
  onSubmit(stay, async (f) => {
    const saved = await api.updateSettings({ session_ttl_hours: Number(value(f, 'session_ttl_hours')) });
    p.session_ttl_hours = saved.session_ttl_hours;
    const text = `Saved. From your next sign-in you stay signed in for ${lengthLabel(saved.session_ttl_hours)}.`;
    announce(text);
    const ok = f.querySelector('.ok') ?? h('p', { class: 'ok', role: 'status' });
    ok.textContent = text;
    f.append(ok);
  });
  return stay;
}

/** Change password: the API returns a fresh session; every older one stops working. */
function passwordForm() {
  const pw = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'h-pw', class: 'card' },
    h('h2', { id: 'h-pw' }, 'Change password'),
    field('Current password', 'current_password', { type: 'password', autocomplete: 'current-password', required: true }),
    field(
      'New password',
      'new_password',
      { type: 'password', autocomplete: 'new-password', required: true, minlength: 10 },
      { hint: 'At least 10 characters. Other signed-in devices are signed out.' },
    ),
    formError(),
    h('button', { type: 'submit', class: 'primary' }, 'Change password'),
  );
  onSubmit(
    pw,
    async (f) => {
      const s = await api.changePassword(value(f, 'current_password'), value(f, 'new_password'));
      session.set(s.token);
      f.reset();
      announce('Password changed.');
      const ok = f.querySelector('.ok') ?? h('p', { class: 'ok', role: 'status' });
      ok.textContent = 'Password changed. Other sessions are signed out.';
      f.append(ok);
    },
    { current_password: 'current_password' },
  );
  return pw;
}

/** Two-factor off: says so, with the button that starts the setup (its refusal is said under it). */
function twoFactorOff(setup: (s: TotpSetup) => void) {
  const start = h('button', { type: 'button', class: 'primary', id: 'twofa-setup' }, 'Set up two-factor authentication');
  const err = h('p', { class: 'form-error', role: 'alert', hidden: true });
  start.addEventListener('click', async () => {
    start.disabled = true;
    err.hidden = true;
    try {
      setup(await api.setup2fa());
    } catch (e) {
      err.textContent = message(e);
      err.hidden = false;
      start.disabled = false;
    }
  });
  return [
    h('p', { 'data-twofa': 'off' }, 'Off. Add a second step to sign-in with an authenticator app (TOTP).'),
    h('div', { class: 'row' }, start),
    err,
  ];
}

/** Two-factor on: says so, with the form that turns it off (password and a code). */
function twoFactorOn(p: Profile, show: (enabled: boolean) => void) {
  const f = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'h-2fa-off' },
    h('p', { 'data-twofa': 'on' }, 'On. Sign-in asks for a code from your authenticator app.'),
    h('h3', { id: 'h-2fa-off' }, 'Turn it off'),
    field('Password', 'password', { type: 'password', autocomplete: 'current-password', required: true }),
    field('Authentication code', 'code', { inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: 6, required: true }),
    formError(),
    h('button', { type: 'submit', class: 'danger' }, 'Turn off two-factor'),
  );
  onSubmit(f, async () => {
    await api.disable2fa(value(f, 'password'), value(f, 'code').trim());
    p.two_factor_enabled = false;
    announce('Two-factor authentication is off.');
    show(false);
  });
  return f;
}

/** The setup: the QR code, the secret written out, and the first code that turns two-factor on. */
function twoFactorSetup(p: Profile, s: TotpSetup, show: (enabled: boolean) => void) {
  const f = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'h-2fa-setup' },
    h('h3', { id: 'h-2fa-setup', tabindex: -1 }, 'Scan with your authenticator app'),
    h('img', {
      src: s.qr_data_url,
      alt: 'QR code for your authenticator app (the same secret is written below)',
      class: 'qr',
      width: 200,
      height: 200,
    }),
    h('p', {}, 'Cannot scan? Enter this secret by hand:'),
    h('p', {}, h('code', { id: 'twofa-secret', class: 'secret' }, s.secret.replace(/(.{4})/g, '$1 ').trim())),
    field('Code from the app', 'code', { inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: 6, required: true }),
    formError(),
    h('button', { type: 'submit', class: 'primary' }, 'Turn on'),
  );
  onSubmit(f, async () => {
    await api.enable2fa(value(f, 'code').trim());
    p.two_factor_enabled = true;
    announce('Two-factor authentication is on.');
    show(true);
  });
  return f;
}

/** The two-factor card: off (with Set up), the setup, or on (with Turn off). */
function twoFactorCard(p: Profile) {
  const twofa = h('section', { class: 'card', 'aria-labelledby': 'h-2fa', id: 'twofa' });
  const heading = () => h('h2', { id: 'h-2fa' }, 'Two-factor authentication');
  const show = (enabled: boolean) => {
    twofa.replaceChildren(heading());
    if (!enabled) return twofa.append(...twoFactorOff(setup));
    twofa.append(twoFactorOn(p, show));
  };
  const setup = (s: TotpSetup) => {
    const f = twoFactorSetup(p, s, show);
    twofa.replaceChildren(heading(), f);
    f.querySelector<HTMLElement>('h3')?.focus();
  };
  show(p.two_factor_enabled);
  return twofa;
}

export async function accountView(app: App): Promise<View> {
  const p = await app.profile();
  const root = h('section', {});
  root.append(h('h1', { tabindex: -1 }, 'Account'), profileFacts(p));
  root.append(
    sessionLengthForm(p),
    transactionSettingsCard(p),
    embedOriginsCard(await api.embedOrigins()),
    brandingCard(await api.branding(), p.org_name),
  );
  root.append(passwordForm());
  root.append(
    twoFactorCard(p),
    h(
      'p',
      { class: 'hint' },
      'Passkeys and recovery codes are on the ',
      h('a', { href: '/app/security', 'data-link': true }, 'Security'),
      ' page.',
    ),
  );
  return { id: 'account', title: 'Account', nav: 'account', node: root };
}
