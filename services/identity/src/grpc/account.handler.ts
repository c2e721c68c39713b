import type { identityV1 } from '@signet/proto';
import type { IdentityDeps } from '../usecases/deps.js';
import { getProfile } from '../usecases/get-profile.js';
import { getUser } from '../usecases/get-user.js';
import { setEmbedOrigins } from '../usecases/set-embed-origins.js';
import { updateAccountSettings } from '../usecases/update-account-settings.js';
import { auditContextOf } from './audit-context.js';
import { profileOut } from './mappers.js';

type Call = Parameters<typeof auditContextOf>[0];

/** The account: GetUser (for other services), GetProfile, UpdateAccountSettings and SetEmbedOrigins (its owner). */
export function accountHandlers(deps: IdentityDeps) {
  return {
    async getUser(req: identityV1.GetUserRequest): Promise<identityV1.GetUserResponse> {
      const u = await getUser(deps, req.userId);
      return { userId: u._id, email: u.email, name: u.name, orgName: u.org_name };
    },

    async getProfile(req: identityV1.GetProfileRequest): Promise<identityV1.Profile> {
      return profileOut(await getProfile(deps, req.userId));
    },

    async updateAccountSettings(req: identityV1.UpdateAccountSettingsRequest, call?: Call): Promise<identityV1.Profile> {
      return profileOut(
        await updateAccountSettings(
          deps,
          req.userId,
          req.sessionTtlHours,
          {
            biometric_retention_days: req.biometricRetentionDays,
            expiry_days: req.expiryDays,
            reminder_first_after_hours: req.reminderFirstAfterHours,
            reminder_every_hours: req.reminderEveryHours,
            reminder_max: req.reminderMax,
          },
          auditContextOf(call),
        ),
      );
    },

    async setEmbedOrigins(req: identityV1.SetEmbedOriginsRequest, call?: Call): Promise<identityV1.Profile> {
      return profileOut(await setEmbedOrigins(deps, req.userId, req.origins, auditContextOf(call)));
    },
  };
}
