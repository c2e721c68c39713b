import type { identitySecurityV1, identityV1 } from '@signet/proto';
import { NO_CLIENT, type ClientInfo } from '../domain/audit.js';
import type { AuditRecord } from '../store/audit.repository.js';
import type { PasskeyRecord } from '../store/passkey.repository.js';
import { completeSecondFactor } from '../usecases/complete-second-factor.js';
import { generateRecoveryCodes } from '../usecases/generate-recovery-codes.js';
import { getSecurityStatus } from '../usecases/get-security-status.js';
import { listAuditEvents } from '../usecases/list-audit-events.js';
import { listPasskeys, removePasskey, renamePasskey } from '../usecases/manage-passkeys.js';
import { finishPasskeyLogin, startPasskeyLogin } from '../usecases/passkey-login.js';
import { finishPasskeyRegistration, startPasskeyRegistration } from '../usecases/passkey-registration.js';
import { passwordLogin } from '../usecases/password-login.js';
import { recordAuditEvent } from '../usecases/record-audit-event.js';
import type { SecurityDeps } from '../usecases/security-deps.js';
import { iso, sessionOut } from './mappers.js';

const client = (c: identitySecurityV1.ClientInfo | undefined): ClientInfo =>
  c ? { ip: c.ip, userAgent: c.userAgent } : NO_CLIENT;

const passkeyOut = (p: PasskeyRecord): identitySecurityV1.Passkey => ({
  id: p._id,
  name: p.name,
  createdAt: iso(p.created_at),
  lastUsedAt: iso(p.last_used_at),
});

const auditOut = (e: AuditRecord): identitySecurityV1.AuditEvent => ({
  id: e._id,
  at: iso(e.at),
  action: e.action,
  actorId: e.actor_id,
  actorEmail: e.actor_email,
  target: e.target,
  ip: e.ip,
  userAgent: e.user_agent,
  details: e.details ?? {},
});

/** signet.identity.v1.SecurityService: audited sign-ins, passkeys, recovery codes, the audit log. */
export function securityHandlers(deps: SecurityDeps): SecurityHandlers {
  return handlersOf(deps);
}
export type SecurityHandlers = ReturnType<typeof handlersOf>;

function handlersOf(deps: SecurityDeps) {
  return {
    async passwordLogin(req: identitySecurityV1.PasswordLoginRequest): Promise<identitySecurityV1.PasswordLoginResponse> {
      const r = await passwordLogin(deps, { email: req.email, password: req.password, client: client(req.client) });
      if (r.kind === 'session') return { result: { $case: 'session', value: sessionOut(r.session) } };
      const value = { challenge: r.challenge, expiresAt: r.expiresAt.toISOString(), methods: r.methods };
      return { result: { $case: 'secondFactor', value } };
    },
    async completeSecondFactor(req: identitySecurityV1.CompleteSecondFactorRequest): Promise<identityV1.Session> {
      const f = req.factor;
      const factor =
        f?.$case === 'recoveryCode'
          ? { kind: 'recovery_code' as const, code: f.value }
          : { kind: 'totp' as const, code: f?.value ?? '' };
      return sessionOut(await completeSecondFactor(deps, { challenge: req.challenge, factor, client: client(req.client) }));
    },
    async startPasskeyRegistration(
      req: identitySecurityV1.StartPasskeyRegistrationRequest,
    ): Promise<identitySecurityV1.WebauthnOptions> {
      return { optionsJson: await startPasskeyRegistration(deps, req.userId) };
    },
    async finishPasskeyRegistration(
      req: identitySecurityV1.FinishPasskeyRegistrationRequest,
    ): Promise<identitySecurityV1.Passkey> {
      const input = { userId: req.userId, name: req.name, responseJson: req.responseJson, client: client(req.client) };
      return passkeyOut(await finishPasskeyRegistration(deps, input));
    },
    async listPasskeys(req: identitySecurityV1.ListPasskeysRequest): Promise<identitySecurityV1.ListPasskeysResponse> {
      return { passkeys: (await listPasskeys(deps, req.userId)).map(passkeyOut) };
    },
    async removePasskey(req: identitySecurityV1.RemovePasskeyRequest): Promise<identitySecurityV1.RemovePasskeyResponse> {
      await removePasskey(deps, { userId: req.userId, passkeyId: req.passkeyId, client: client(req.client) });
      return {};
    },
    async renamePasskey(req: identitySecurityV1.RenamePasskeyRequest): Promise<identitySecurityV1.Passkey> {
      const input = { userId: req.userId, passkeyId: req.passkeyId, name: req.name, client: client(req.client) };
      return passkeyOut(await renamePasskey(deps, input));
    },
    async startPasskeyLogin(req: identitySecurityV1.StartPasskeyLoginRequest): Promise<identitySecurityV1.WebauthnOptions> {
      return { optionsJson: await startPasskeyLogin(deps, { challenge: req.challenge }) };
    },
    async finishPasskeyLogin(req: identitySecurityV1.FinishPasskeyLoginRequest): Promise<identityV1.Session> {
      const input = { challenge: req.challenge, responseJson: req.responseJson, client: client(req.client) };
      return sessionOut(await finishPasskeyLogin(deps, input));
    },
    async generateRecoveryCodes(
      req: identitySecurityV1.GenerateRecoveryCodesRequest,
    ): Promise<identitySecurityV1.GenerateRecoveryCodesResponse> {
      return { codes: await generateRecoveryCodes(deps, { userId: req.userId, client: client(req.client) }) };
    },
    async getSecurityStatus(req: identitySecurityV1.GetSecurityStatusRequest): Promise<identitySecurityV1.SecurityStatus> {
      return getSecurityStatus(deps, req.userId);
    },
    async listAuditEvents(req: identitySecurityV1.ListAuditEventsRequest): Promise<identitySecurityV1.ListAuditEventsResponse> {
      const page = await listAuditEvents(deps, req);
      return { events: page.events.map(auditOut), nextCursor: page.nextCursor };
    },
    async recordAuditEvent(
      req: identitySecurityV1.RecordAuditEventRequest,
    ): Promise<identitySecurityV1.RecordAuditEventResponse> {
      await recordAuditEvent(deps, { ...req, client: client(req.client) });
      return {};
    },
  };
}
