import QRCode from 'qrcode';
import type { Redis } from 'ioredis';
import {
  DomainError,
  forbidden,
  invalid,
  outboxEvent,
  unauthenticated,
  type Logger,
  type Mailer,
  type Metrics,
} from '@signet/kit';
import { eventsV1, type identityV1 } from '@signet/proto';
import {
  accountExists,
  apiKeyNotFound,
  badCode,
  badCredentials,
  challengeInvalid,
  noPendingSignup,
  onboardingTokenInvalid,
  totpAlreadyOn,
  totpNotSetUp,
  totpOff,
  userNotFound,
} from '../domain/errors.js';
import { resetCodeMail, signupCodeMail } from '../domain/mail.js';
import {
  API_KEY_PATTERN,
  API_KEY_PREFIX_LENGTH,
  codeHash,
  hashPassword,
  newApiKey,
  newCode,
  newOpaqueToken,
  sameHash,
  sha256,
  verifyPassword,
  type SecretBox,
} from '../domain/secrets.js';
import type { Sessions } from '../domain/session.js';
import { matchStep, newTotpSecret, otpauthUri } from '../domain/totp.js';
import { checkCode, checkPassword, checkSessionTtl, checkText, normEmail } from '../domain/validate.js';
import type { ApiKeyRepository, ApiKeyRecord } from '../store/api-key.repository.js';
import type { SignupRepository } from '../store/signup.repository.js';
import type { UserRecord, UserRepository } from '../store/user.repository.js';

export const USER_CREATED_SUBJECT = 'signet.identity.user.created';
const CODE_TTL_MS = 10 * 60_000;
const CODE_MAX_ATTEMPTS = 5;
const ONBOARDING_TTL_MS = 60 * 60_000;
const MFA_CHALLENGE_TTL_S = 300;
const MFA_MAX_ATTEMPTS = 5;
const TOTP_ISSUER = 'Signet';

export type IdentityDeps = {
  users: UserRepository;
  signups: SignupRepository;
  apiKeys: ApiKeyRepository;
  sessions: Sessions;
  box: SecretBox;
  mailer: Mailer;
  redis: Redis;
  redisPrefix: string;
  defaultSessionTtlHours: number;
  metrics: Metrics;
  logger: Logger;
  onUserCreated: () => void;
};

function identityMetrics(metrics: Metrics) {
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
  };
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : '');

function apiKeyOut(k: ApiKeyRecord): identityV1.ApiKey {
  return { id: k._id, name: k.name, prefix: k.prefix, createdAt: iso(k.created_at), lastUsedAt: iso(k.last_used_at) };
}

export function identityHandlers(d: IdentityDeps) {
  const m = identityMetrics(d.metrics);
  const mfaKey = (challenge: string) => `${d.redisPrefix}identity:mfa:${sha256(challenge)}`;

  async function session(user: UserRecord): Promise<identityV1.Session> {
    const { token, claims } = await d.sessions.issue(
      user._id,
      user.password_version,
      user.session_ttl_hours || d.defaultSessionTtlHours,
    );
    return { token, email: user.email, orgName: user.org_name, userId: user._id, expiresAt: claims.expiresAt.toISOString() };
  }

  async function mustUser(id: string): Promise<UserRecord> {
    const u = id ? await d.users.byId(id) : null;
    if (!u) throw userNotFound();
    return u;
  }

  async function send(kind: string, mail: Parameters<Mailer['send']>[0]) {
    try {
      await d.mailer.send(mail);
      m.mails.inc({ kind, result: 'sent' });
    } catch (err) {
      m.mails.inc({ kind, result: 'failed' });
      d.logger.warn({ err: { message: (err as Error).message }, kind }, 'mail not sent');
      throw new DomainError('unavailable', 'the mail could not be sent; try again shortly', 'MAIL_UNAVAILABLE');
    }
  }

  function profileOut(u: UserRecord): identityV1.Profile {
    return {
      userId: u._id,
      email: u.email,
      name: u.name,
      orgName: u.org_name,
      twoFactorEnabled: u.totp_enabled,
      sessionTtlHours: u.session_ttl_hours || d.defaultSessionTtlHours,
      createdAt: iso(u.created_at),
    };
  }

  /** The step a TOTP code matches for this sealed secret, consumed so the code works once; null when wrong or used. */
  async function useTotp(user: UserRecord, sealed: string | null, code: string): Promise<number | null> {
    if (!sealed) return null;
    const step = matchStep(d.box.open(sealed, user._id), code, Date.now());
    if (step === null) return null;
    return (await d.users.useTotpStep(user._id, step)) ? step : null;
  }

  return {
    async authenticate(req: identityV1.AuthenticateRequest): Promise<identityV1.AuthenticateResponse> {
      const cred = req.credential;
      if (cred?.$case === 'apiKey') {
        const key = cred.value;
        const rec = API_KEY_PATTERN.test(key) ? await d.apiKeys.activeByPrefix(key.slice(0, API_KEY_PREFIX_LENGTH)) : null;
        const user = rec && sameHash(rec.hash, sha256(key)) ? await d.users.byId(rec.user_id) : null;
        if (!rec || !user) {
          m.authentications.inc({ method: 'api_key', result: 'rejected' });
          throw unauthenticated('invalid API key');
        }
        await d.apiKeys.touch(rec._id);
        m.authentications.inc({ method: 'api_key', result: 'ok' });
        return { userId: user._id, email: user.email, orgName: user.org_name, method: 'api_key', sessionId: '', expiresAt: 0 };
      }
      if (cred?.$case === 'sessionToken') {
        const claims = await d.sessions.verify(cred.value);
        const user = claims ? await d.users.byId(claims.userId) : null;
        if (!claims || !user || user.password_version !== claims.passwordVersion) {
          m.authentications.inc({ method: 'session', result: 'rejected' });
          throw unauthenticated('invalid or expired session');
        }
        m.authentications.inc({ method: 'session', result: 'ok' });
        return {
          userId: user._id,
          email: user.email,
          orgName: user.org_name,
          method: 'session',
          sessionId: claims.sessionId,
          expiresAt: Math.floor(claims.expiresAt.getTime() / 1000),
        };
      }
      throw unauthenticated('no credential');
    },

    async getUser(req: identityV1.GetUserRequest): Promise<identityV1.GetUserResponse> {
      const u = await mustUser(req.userId);
      return { userId: u._id, email: u.email, name: u.name, orgName: u.org_name };
    },

    async register(req: identityV1.RegisterRequest): Promise<identityV1.RegisterResponse> {
      const email = normEmail(req.email);
      const password = checkPassword(req.password);
      const name = checkText(req.name, 'name');
      if (await d.users.exists(email)) throw accountExists();
      const passwordHash = await hashPassword(password);
      const code = newCode();
      const ch = codeHash('signup', email, code);
      const expires = new Date(Date.now() + CODE_TTL_MS);
      await d.signups.upsert({
        _id: email,
        name,
        password_hash: passwordHash,
        code_hash: ch,
        code_expires_at: expires,
        code_attempts: 0,
        verified_at: null,
        onboarding_token_hash: null,
        onboarding_expires_at: null,
        created_at: new Date(),
      });
      try {
        await send('signup_code', signupCodeMail(email, name, code));
      } catch (err) {
        // Nothing half-created: an intent whose code never left is removed again.
        await d.signups.removeIfCode(email, ch);
        throw err;
      }
      m.signups.inc({ step: 'registered' });
      return { codeExpiresAt: expires.toISOString() };
    },

    async sendSignupCode(req: identityV1.SendSignupCodeRequest): Promise<identityV1.SendSignupCodeResponse> {
      const email = normEmail(req.email);
      if (await d.users.exists(email)) throw accountExists();
      const intent = await d.signups.byEmail(email);
      if (!intent) throw noPendingSignup();
      const code = newCode();
      const expires = new Date(Date.now() + CODE_TTL_MS);
      if (!(await d.signups.setCode(email, codeHash('signup', email, code), expires))) throw noPendingSignup();
      await send('signup_code', signupCodeMail(email, intent.name, code));
      return { codeExpiresAt: expires.toISOString() };
    },

    async verifyEmail(req: identityV1.VerifyEmailRequest): Promise<identityV1.VerifyEmailResponse> {
      const email = normEmail(req.email);
      const code = checkCode(req.code);
      const intent = await d.signups.byEmail(email);
      if (!intent || !intent.code_hash || !intent.code_expires_at || intent.code_expires_at.getTime() < Date.now()) {
        m.codes.inc({ purpose: 'signup', result: 'expired' });
        throw badCode();
      }
      if (!sameHash(intent.code_hash, codeHash('signup', email, code))) {
        await d.signups.failCode(email, intent.code_hash, CODE_MAX_ATTEMPTS);
        m.codes.inc({ purpose: 'signup', result: 'wrong' });
        throw badCode();
      }
      const token = newOpaqueToken();
      if (!(await d.signups.markVerified(email, intent.code_hash, sha256(token), new Date(Date.now() + ONBOARDING_TTL_MS))))
        throw badCode();
      m.codes.inc({ purpose: 'signup', result: 'ok' });
      m.signups.inc({ step: 'verified' });
      return { onboardingToken: token };
    },

    async completeOnboarding(req: identityV1.CompleteOnboardingRequest): Promise<identityV1.Session> {
      const orgName = checkText(req.orgName, 'org_name');
      if (!req.onboardingToken) throw invalid('onboarding_token is required');
      const intent = await d.signups.byOnboardingToken(sha256(req.onboardingToken));
      if (!intent || !intent.verified_at || !intent.onboarding_expires_at || intent.onboarding_expires_at.getTime() < Date.now())
        throw onboardingTokenInvalid();
      const user = await d.users.create(
        {
          email: intent._id,
          name: intent.name,
          org_name: orgName,
          password_hash: intent.password_hash,
          session_ttl_hours: d.defaultSessionTtlHours,
          created_at: new Date(),
        },
        (userId) => [
          outboxEvent(USER_CREATED_SUBJECT, (meta) =>
            eventsV1.UserCreated.encode({
              eventId: meta.event_id,
              occurredAt: meta.occurred_at,
              userId,
              email: intent._id,
              orgName,
            }).finish(),
          ),
        ],
      );
      if (!user) throw accountExists();
      await d.signups.remove(intent._id);
      d.onUserCreated();
      m.signups.inc({ step: 'onboarded' });
      return session(user);
    },

    async checkEmail(req: identityV1.CheckEmailRequest): Promise<identityV1.CheckEmailResponse> {
      return { exists: await d.users.exists(normEmail(req.email)) };
    },

    async login(req: identityV1.LoginRequest): Promise<identityV1.LoginResponse> {
      const email = req.email.trim().toLowerCase();
      const user = email && req.password ? await d.users.byEmail(email) : null;
      const ok = await verifyPassword(user?.password_hash, req.password);
      if (!user || !ok) {
        m.logins.inc({ result: 'bad_credentials' });
        throw badCredentials();
      }
      if (user.totp_enabled) {
        const challenge = newOpaqueToken();
        const key = mfaKey(challenge);
        await d.redis.multi().hset(key, { user_id: user._id, attempts: '0' }).expire(key, MFA_CHALLENGE_TTL_S).exec();
        m.logins.inc({ result: 'mfa_required' });
        return {
          result: {
            $case: 'mfa',
            value: { challenge, expiresAt: new Date(Date.now() + MFA_CHALLENGE_TTL_S * 1000).toISOString() },
          },
        };
      }
      m.logins.inc({ result: 'ok' });
      return { result: { $case: 'session', value: await session(user) } };
    },

    async completeMfaLogin(req: identityV1.CompleteMfaLoginRequest): Promise<identityV1.Session> {
      if (!req.challenge) throw invalid('challenge is required');
      const code = checkCode(req.code);
      const key = mfaKey(req.challenge);
      const state = await d.redis.hgetall(key);
      const user = state.user_id ? await d.users.byId(state.user_id) : null;
      if (!user || !user.totp_enabled) {
        await d.redis.del(key);
        m.logins.inc({ result: 'mfa_challenge_invalid' });
        throw challengeInvalid();
      }
      if ((await useTotp(user, user.totp_secret, code)) === null) {
        const attempts = await d.redis.hincrby(key, 'attempts', 1);
        if (attempts >= MFA_MAX_ATTEMPTS) await d.redis.del(key);
        m.logins.inc({ result: 'mfa_wrong_code' });
        throw unauthenticated('the two-factor code is wrong or already used');
      }
      // Single use: of two racing completions only the one that deletes the challenge wins.
      if ((await d.redis.del(key)) !== 1) throw challengeInvalid();
      m.logins.inc({ result: 'ok' });
      return session(user);
    },

    async getProfile(req: identityV1.GetProfileRequest): Promise<identityV1.Profile> {
      return profileOut(await mustUser(req.userId));
    },

    async updateAccountSettings(req: identityV1.UpdateAccountSettingsRequest): Promise<identityV1.Profile> {
      const hours = checkSessionTtl(req.sessionTtlHours);
      const before = req.userId ? await d.users.setSessionTtl(req.userId, hours) : null;
      if (!before) throw userNotFound();
      if (before.previous !== hours) {
        m.settings.inc({ setting: 'session_ttl_hours' });
        d.logger.info(
          { userId: req.userId, setting: 'session_ttl_hours', from: before.previous, to: hours },
          'account setting changed',
        );
      }
      return profileOut(await mustUser(req.userId));
    },

    async changePassword(req: identityV1.ChangePasswordRequest): Promise<identityV1.Session> {
      const next = checkPassword(req.newPassword, 'new_password');
      const user = await mustUser(req.userId);
      if (!(await verifyPassword(user.password_hash, req.currentPassword))) throw forbidden('current_password is wrong');
      const updated = await d.users.setPassword(user._id, await hashPassword(next), user.password_version);
      if (!updated) throw new DomainError('conflict', 'the password was changed meanwhile; sign in again', 'PASSWORD_CHANGED');
      return session(updated);
    },

    async sendResetCode(req: identityV1.SendResetCodeRequest): Promise<identityV1.SendResetCodeResponse> {
      const email = normEmail(req.email);
      const user = await d.users.byEmail(email);
      if (user) {
        const code = newCode();
        await d.users.setResetCode(user._id, codeHash('reset', email, code), new Date(Date.now() + CODE_TTL_MS));
        // Not awaited: the answer (and its timing) must not depend on whether a mail went out.
        void send('reset_code', resetCodeMail(email, code)).catch(() => undefined);
      }
      return {};
    },

    async resetPassword(req: identityV1.ResetPasswordRequest): Promise<identityV1.ResetPasswordResponse> {
      const email = normEmail(req.email);
      const code = checkCode(req.code);
      const next = checkPassword(req.newPassword, 'new_password');
      const user = await d.users.byEmail(email);
      const stored = user?.reset_code_hash;
      if (!user || !stored || !user.reset_code_expires_at || user.reset_code_expires_at.getTime() < Date.now()) {
        m.codes.inc({ purpose: 'reset', result: 'expired' });
        throw badCode();
      }
      if (!sameHash(stored, codeHash('reset', email, code))) {
        await d.users.failResetCode(user._id, stored, CODE_MAX_ATTEMPTS);
        m.codes.inc({ purpose: 'reset', result: 'wrong' });
        throw badCode();
      }
      const updated = await d.users.setPassword(user._id, await hashPassword(next), user.password_version);
      if (!updated) throw badCode();
      m.codes.inc({ purpose: 'reset', result: 'ok' });
      return { userId: user._id };
    },

    async setupTotp(req: identityV1.SetupTotpRequest): Promise<identityV1.SetupTotpResponse> {
      const user = await mustUser(req.userId);
      if (user.totp_enabled) throw totpAlreadyOn();
      const secret = newTotpSecret();
      await d.users.setPendingTotp(user._id, d.box.seal(secret, user._id));
      const uri = otpauthUri(secret, user.email, TOTP_ISSUER);
      return {
        secret,
        otpauthUri: uri,
        qrDataUrl: await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 256 }),
      };
    },

    async enableTotp(req: identityV1.EnableTotpRequest): Promise<identityV1.EnableTotpResponse> {
      const code = checkCode(req.code);
      const user = await mustUser(req.userId);
      if (user.totp_enabled) throw totpAlreadyOn();
      if (!user.totp_pending_secret) throw totpNotSetUp();
      const step = matchStep(d.box.open(user.totp_pending_secret, user._id), code, Date.now());
      if (step === null) throw badCode();
      if (!(await d.users.enableTotp(user._id, user.totp_pending_secret, step))) throw totpNotSetUp();
      m.totp.inc({ action: 'enabled' });
      return {};
    },

    async disableTotp(req: identityV1.DisableTotpRequest): Promise<identityV1.DisableTotpResponse> {
      const code = checkCode(req.code);
      const user = await mustUser(req.userId);
      if (!user.totp_enabled) throw totpOff();
      const passwordOk = await verifyPassword(user.password_hash, req.password);
      if (!passwordOk || (await useTotp(user, user.totp_secret, code)) === null) throw forbidden('password or code is wrong');
      await d.users.disableTotp(user._id);
      m.totp.inc({ action: 'disabled' });
      return {};
    },

    async createApiKey(req: identityV1.CreateApiKeyRequest): Promise<identityV1.CreatedApiKey> {
      const name = checkText(req.name, 'name', 100);
      const user = await mustUser(req.userId);
      const k = newApiKey();
      const rec = await d.apiKeys.create(user._id, name, k.prefix, k.hash);
      m.apiKeys.inc({ action: 'created' });
      return { key: apiKeyOut(rec), secret: k.key };
    },

    async listApiKeys(req: identityV1.ListApiKeysRequest): Promise<identityV1.ListApiKeysResponse> {
      return { keys: (await d.apiKeys.listActive(req.userId)).map(apiKeyOut) };
    },

    async revokeApiKey(req: identityV1.RevokeApiKeyRequest): Promise<identityV1.RevokeApiKeyResponse> {
      if (!(await d.apiKeys.revoke(req.userId, req.id))) throw apiKeyNotFound();
      m.apiKeys.inc({ action: 'revoked' });
      return {};
    },
  };
}
