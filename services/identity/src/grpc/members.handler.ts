import type { identityV1 } from '@signet/proto';
import { acceptInvitation } from '../usecases/accept-invitation.js';
import { changeMemberRole } from '../usecases/change-member-role.js';
import type { IdentityDeps } from '../usecases/deps.js';
import { inviteMember } from '../usecases/invite-member.js';
import { listMembers } from '../usecases/list-members.js';
import { removeMember } from '../usecases/remove-member.js';
import { revokeInvitation } from '../usecases/revoke-invitation.js';
import { invitationOut, memberOut, sessionOut } from './mappers.js';

/** Members and roles: InviteMember, AcceptInvitation, ListMembers, ChangeMemberRole, RemoveMember, RevokeInvitation. */
export function memberHandlers(deps: IdentityDeps) {
  return {
    async inviteMember(req: identityV1.InviteMemberRequest): Promise<identityV1.Invitation> {
      return invitationOut(
        await inviteMember(deps, { actorId: req.actorId, email: req.email, role: req.role, acceptUrl: req.acceptUrl }),
      );
    },

    async acceptInvitation(req: identityV1.AcceptInvitationRequest): Promise<identityV1.Session> {
      return sessionOut(await acceptInvitation(deps, { code: req.code, name: req.name, password: req.password }));
    },

    async listMembers(req: identityV1.ListMembersRequest): Promise<identityV1.ListMembersResponse> {
      const out = await listMembers(deps, req.actorId);
      return { members: out.members.map(memberOut), invitations: out.invitations.map(invitationOut) };
    },

    async changeMemberRole(req: identityV1.ChangeMemberRoleRequest): Promise<identityV1.Member> {
      return memberOut(await changeMemberRole(deps, { actorId: req.actorId, userId: req.userId, role: req.role }));
    },

    async removeMember(req: identityV1.RemoveMemberRequest): Promise<identityV1.RemoveMemberResponse> {
      await removeMember(deps, { actorId: req.actorId, userId: req.userId });
      return {};
    },

    async revokeInvitation(req: identityV1.RevokeInvitationRequest): Promise<identityV1.RemoveMemberResponse> {
      await revokeInvitation(deps, { actorId: req.actorId, id: req.id });
      return {};
    },
  };
}
