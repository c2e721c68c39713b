import type { identityV1 } from '@signet/proto';
import { acceptInvitation } from '../usecases/accept-invitation.js';
import { changeMemberRole } from '../usecases/change-member-role.js';
import type { IdentityDeps } from '../usecases/deps.js';
import { inviteMember } from '../usecases/invite-member.js';
import { listMembers } from '../usecases/list-members.js';
import { removeMember } from '../usecases/remove-member.js';
import { revokeInvitation } from '../usecases/revoke-invitation.js';
import { auditContextOf } from './audit-context.js';
import { invitationOut, memberOut, sessionOut } from './mappers.js';

type Call = Parameters<typeof auditContextOf>[0];
const clientOf = (call: Call) => auditContextOf(call).client;

/** Members and roles: InviteMember, AcceptInvitation, ListMembers, ChangeMemberRole, RemoveMember, RevokeInvitation. */
export function memberHandlers(deps: IdentityDeps) {
  return {
    async inviteMember(req: identityV1.InviteMemberRequest, call?: Call): Promise<identityV1.Invitation> {
      return invitationOut(
        await inviteMember(deps, {
          actorId: req.actorId,
          email: req.email,
          role: req.role,
          acceptUrl: req.acceptUrl,
          client: clientOf(call),
        }),
      );
    },

    async acceptInvitation(req: identityV1.AcceptInvitationRequest, call?: Call): Promise<identityV1.Session> {
      return sessionOut(
        await acceptInvitation(deps, { code: req.code, name: req.name, password: req.password, client: clientOf(call) }),
      );
    },

    async listMembers(req: identityV1.ListMembersRequest): Promise<identityV1.ListMembersResponse> {
      const out = await listMembers(deps, req.actorId);
      return { members: out.members.map(memberOut), invitations: out.invitations.map(invitationOut) };
    },

    async changeMemberRole(req: identityV1.ChangeMemberRoleRequest, call?: Call): Promise<identityV1.Member> {
      return memberOut(
        await changeMemberRole(deps, { actorId: req.actorId, userId: req.userId, role: req.role, client: clientOf(call) }),
      );
    },

    async removeMember(req: identityV1.RemoveMemberRequest, call?: Call): Promise<identityV1.RemoveMemberResponse> {
      await removeMember(deps, { actorId: req.actorId, userId: req.userId, client: clientOf(call) });
      return {};
    },

    async revokeInvitation(req: identityV1.RevokeInvitationRequest, call?: Call): Promise<identityV1.RemoveMemberResponse> {
      await revokeInvitation(deps, { actorId: req.actorId, id: req.id, client: clientOf(call) });
      return {};
    },
  };
}
