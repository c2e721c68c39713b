/** Sign in (with the TOTP step), sign up (register → email code → organisation), password reset. */
import { api } from '../api.js';
import { announce, field, formError, h, onSubmit, value } from '../dom.js';
import type { App, View } from '../main.js';

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
    if ('mfa_required' in r) return show(mfaStep(r.challenge));
    await app.signedIn(r.token);
  });

  const mfaStep = (challenge: string) => {
    const f = h(
      'form',
      { novalidate: true, 'aria-labelledby': 'h-mfa', 'data-step': 'mfa' },
      h('h1', { id: 'h-mfa', tabindex: -1 }, 'Two-factor code'),
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
      h('p', { class: 'links' }, link('/app/login', 'Start again')),
    );
    onSubmit(f, async () => {
      const s = await api.mfaLogin(challenge, value(f, 'code').trim());
      await app.signedIn(s.token);
    });
    return f;
  };

  root.append(form);
  return { id: 'login', title: 'Sign in', node: root };
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
