/**
 * Sign in (the password, then a second factor — passkey, TOTP or recovery code — when the account has
 * one; or a passkey alone), sign up (register → email code → organisation), password reset.
 */
import { runWebauthn, webauthnSupported } from '../../sign/webauthn.js';
import { api, type MfaChallenge, type WebauthnResponse } from '../api.js';
import { announce, field, formError, h, onSubmit, value } from '../dom.js';
import type { App, View } from '../main.js';
import { webauthnMessage } from './security.js';

const submit = (label: string) => h('button', { type: 'submit', class: 'primary' }, label);
const link = (href: string, text: string) => h('a', { href, 'data-link': true }, text);

/** Swaps the step shown inside a view and focuses its heading. */
function stepper(root: HTMLElement) {
  return (step: HTMLElement) => {
    root.replaceChildren(step);
    step.querySelector<HTMLElement>('h1')?.focus();
  };
}

export function loginView(app: App): View {
  const root = h('section', { class: 'narrow' });
  const show = stepper(root);

  const form = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'h-login' },
    h('h1', { id: 'h-login', tabindex: -1 }, 'Sign in'),
    field('Email', 'email', { type: 'email', autocomplete: 'username', required: true }),
    field('Password', 'password', { type: 'password', autocomplete: 'current-password', required: true }),
    formError(),
    submit('Sign in'),
    h('p', { class: 'links' }, link('/app/signup', 'Create an account'), ' · ', link('/app/reset', 'Forgot your password?')),
  );
  onSubmit(form, async (f) => {
    const r = await api.login(value(f, 'email'), value(f, 'password'));
    if ('mfa_required' in r) return show(secondFactorStep(app, r));
    await app.signedIn(r.token);
  });

  root.append(form);
  if (webauthnSupported()) root.append(passkeyOnlyForm(app));
  return { id: 'login', title: 'Sign in', node: root };
}

/** "Sign in with a passkey": a discoverable credential alone, no e-mail or password. */
function passkeyOnlyForm(app: App) {
  const f = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'h-login-passkey', id: 'login-passkey', class: 'alt' },
    h('h2', { id: 'h-login-passkey', class: 'visually-hidden' }, 'Sign in with a passkey'),
    h('p', { class: 'or' }, 'or'),
    formError(),
    h('button', { type: 'submit' }, 'Sign in with a passkey'),
  );
  onSubmit(f, async () => {
    const s = await api.passkeyLogin(await askPasskey(await api.passkeyLoginOptions()));
    await app.signedIn(s.token);
  });
  return f;
}

const askPasskey = async (options: Record<string, unknown>) => {
  try {
    return (await runWebauthn('authentication', options)) as WebauthnResponse;
  } catch (e) {
    throw new Error(webauthnMessage(e));
  }
};

const METHOD_TEXT: Record<MfaChallenge['methods'][number], string> = {
  passkey: 'Use a passkey',
  totp: 'Use your authenticator app',
  recovery_code: 'Use a recovery code',
};

/**
 * The second step after the password: the methods the account has (passkey, authenticator app,
 * recovery code), the first one open and the others one click away; the challenge serves each of them.
 */
function secondFactorStep(app: App, c: MfaChallenge) {
  // A passkey first (one touch), then the authenticator app, then a recovery code.
  const order = ['passkey', 'totp', 'recovery_code'];
  const methods = c.methods
    .filter((m) => m !== 'passkey' || webauthnSupported())
    .sort((a, b) => order.indexOf(a) - order.indexOf(b));
  const root = h('div', { 'data-step': 'mfa' }, h('h1', { id: 'h-mfa', tabindex: -1 }, 'Second step'));
  const body = h('div', {});
  const choices = h('p', { class: 'links', id: 'mfa-choices' });
  root.append(body, choices, h('p', { class: 'links' }, link('/app/login', 'Start again')));

  const open = (m: (typeof methods)[number], focus: boolean) => {
    const form =
      m === 'passkey'
        ? passkeyFactor(app, c.challenge)
        : m === 'totp'
          ? totpFactor(app, c.challenge)
          : recoveryFactor(app, c.challenge);
    body.replaceChildren(form);
    choices.replaceChildren(
      ...methods
        .filter((o) => o !== m)
        .flatMap((o, i) => {
          const b = h('button', { type: 'button', class: 'link', 'data-method': o }, METHOD_TEXT[o]);
          b.addEventListener('click', () => open(o, true));
          return i ? [' · ', b] : [b];
        }),
    );
    if (focus) form.querySelector<HTMLElement>('input, button')?.focus();
  };
  open(methods[0] ?? 'totp', false);
  return root;
}

function passkeyFactor(app: App, challenge: string) {
  const f = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'h-mfa-passkey', 'data-method': 'passkey' },
    h('h2', { id: 'h-mfa-passkey' }, 'Passkey'),
    h('p', {}, 'Confirm with the passkey on this device or your security key.'),
    formError(),
    submit('Use my passkey'),
  );
  onSubmit(f, async () => {
    const s = await api.passkeyLogin(await askPasskey(await api.passkeyLoginOptions(challenge)), challenge);
    await app.signedIn(s.token);
  });
  return f;
}

function totpFactor(app: App, challenge: string) {
  const f = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'h-mfa-totp', 'data-method': 'totp' },
    h('h2', { id: 'h-mfa-totp' }, 'Authenticator app'),
    h('p', {}, 'Enter the 6-digit code from your authenticator app.'),
    field('Authentication code', 'code', {
      inputmode: 'numeric',
      autocomplete: 'one-time-code',
      pattern: '[0-9]{6}',
      maxlength: 6,
      required: true,
    }),
    formError(),
    submit('Verify'),
  );
  onSubmit(f, async () => {
    const s = await api.mfaLogin(challenge, value(f, 'code').trim());
    await app.signedIn(s.token);
  });
  return f;
}

function recoveryFactor(app: App, challenge: string) {
  const f = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'h-mfa-recovery', 'data-method': 'recovery_code' },
    h('h2', { id: 'h-mfa-recovery' }, 'Recovery code'),
    h('p', {}, 'Enter one of the recovery codes you saved. Each code works once.'),
    field('Recovery code', 'recovery_code', {
      autocomplete: 'off',
      autocapitalize: 'characters',
      spellcheck: 'false',
      maxlength: 64,
      required: true,
    }),
    formError(),
    submit('Verify'),
  );
  onSubmit(f, async () => {
    const s = await api.recoveryLogin(challenge, value(f, 'recovery_code').trim());
    await app.signedIn(s.token);
  });
  return f;
}

export function signupView(app: App): View {
  const root = h('section', { class: 'narrow' });
  const show = stepper(root);

  const register = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'h-signup', 'data-step': 'register' },
    h('h1', { id: 'h-signup', tabindex: -1 }, 'Create your account'),
    field('Your name', 'name', { autocomplete: 'name', required: true, maxlength: 200 }),
    field('Work email', 'email', { type: 'email', autocomplete: 'email', required: true }),
    field(
      'Password',
      'password',
      { type: 'password', autocomplete: 'new-password', required: true, minlength: 10 },
      { hint: 'At least 10 characters.' },
    ),
    formError(),
    submit('Continue'),
    h('p', { class: 'links' }, 'Already have an account? ', link('/app/login', 'Sign in')),
  );
  onSubmit(register, async (f) => {
    const email = value(f, 'email').trim();
    await api.register({ email, password: value(f, 'password'), name: value(f, 'name') });
    show(codeStep(email));
  });

  const codeStep = (email: string) => {
    const resend = h('button', { type: 'button', class: 'link' }, 'Send a new code');
    const f = h(
      'form',
      { novalidate: true, 'aria-labelledby': 'h-code', 'data-step': 'code' },
      h('h1', { id: 'h-code', tabindex: -1 }, 'Check your email'),
      h('p', {}, 'We sent a 6-digit code to ', h('strong', {}, email), '. It is valid for 10 minutes.'),
      field('Verification code', 'code', { inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: 6, required: true }),
      formError(),
      h('div', { class: 'row' }, submit('Verify email'), resend),
    );
    resend.addEventListener('click', async () => {
      try {
        await api.sendCode(email);
        announce('A new code is on its way.');
      } catch (err) {
        const slot = f.querySelector<HTMLElement>('.form-error')!;
        slot.textContent = err instanceof Error ? err.message : String(err);
        slot.hidden = false;
      }
    });
    onSubmit(f, async () => {
      const r = await api.verifyEmail(email, value(f, 'code').trim());
      show(orgStep(r.onboarding_token));
    });
    return f;
  };

  const orgStep = (onboardingToken: string) => {
    const f = h(
      'form',
      { novalidate: true, 'aria-labelledby': 'h-org', 'data-step': 'org' },
      h('h1', { id: 'h-org', tabindex: -1 }, 'Your organisation'),
      field(
        'Organisation name',
        'org_name',
        { autocomplete: 'organization', required: true, maxlength: 200 },
        {
          hint: 'Shown on every certificate you issue.',
        },
      ),
      formError(),
      submit('Finish'),
    );
    onSubmit(f, async () => {
      const s = await api.onboarding(onboardingToken, value(f, 'org_name'));
      await app.signedIn(s.token);
    });
    return f;
  };

  root.append(register);
  return { id: 'signup', title: 'Create your account', node: root };
}

export function resetView(app: App): View {
  const root = h('section', { class: 'narrow' });
  const show = stepper(root);
  const ask = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'h-reset', 'data-step': 'email' },
    h('h1', { id: 'h-reset', tabindex: -1 }, 'Reset your password'),
    field('Email', 'email', { type: 'email', autocomplete: 'username', required: true }),
    formError(),
    submit('Send a reset code'),
    h('p', { class: 'links' }, link('/app/login', 'Back to sign in')),
  );
  onSubmit(ask, async (f) => {
    const email = value(f, 'email').trim();
    await api.sendResetCode(email);
    show(codeStep(email));
  });
  const codeStep = (email: string) => {
    const f = h(
      'form',
      { novalidate: true, 'aria-labelledby': 'h-reset2', 'data-step': 'code' },
      h('h1', { id: 'h-reset2', tabindex: -1 }, 'Choose a new password'),
      h('p', {}, 'If an account exists for ', h('strong', {}, email), ', a 6-digit code is on its way.'),
      field('Reset code', 'code', { inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: 6, required: true }),
      field(
        'New password',
        'new_password',
        { type: 'password', autocomplete: 'new-password', required: true, minlength: 10 },
        {
          hint: 'At least 10 characters.',
        },
      ),
      formError(),
      submit('Set password'),
    );
    onSubmit(f, async () => {
      await api.resetPassword(email, value(f, 'code').trim(), value(f, 'new_password'));
      app.go('/app/login', { replace: true, notice: 'Your password is changed. Sign in with the new one.' });
    });
    return f;
  };
  root.append(ask);
  return { id: 'reset', title: 'Reset your password', node: root };
}
