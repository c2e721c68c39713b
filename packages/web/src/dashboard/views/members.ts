/**
 * Members (issue 34 item 1): who is in the organisation and with which role, pending invitations,
 * and — for admins and owners — inviting by e-mail, changing roles and removing members. The API
 * decides (an admin cannot touch owners; the founding owner stays); its refusal is shown as it says.
 */
import { api, type Member, type Invitation } from '../api.js';
import { announce, confirmDialog, field, fmtDate, formError, h, message, onSubmit, value } from '../dom.js';
import type { App, View } from '../main.js';

const ROLES = ['viewer', 'sender', 'admin', 'owner'] as const;
type Role = (typeof ROLES)[number];
const ROLE_TEXT: Record<Role, string> = {
  viewer: 'Viewer: reads transactions',
  sender: 'Sender: also sends and acts on transactions',
  admin: 'Admin: also keys, webhooks, members and settings',
  owner: 'Owner: also billing and ownership',
};
const rank = (r: string) => ROLES.indexOf(r as Role);

/** Who looks at the page, what they may do, and how a change is followed (reload, or the refusal said above the list). */
type Ctx = {
  me: Awaited<ReturnType<App['profile']>>;
  myRole: Role;
  manages: boolean;
  grantable: Role[];
  listError: HTMLElement;
  reload: () => Promise<void>;
};

/** Says a refusal above the list and puts focus back on the control that was used. */
const fail = (ctx: Ctx, err: unknown, focus?: HTMLElement) => {
  ctx.listError.textContent = message(err);
  ctx.listError.hidden = false;
  focus?.focus();
};

/** A member's role: a select when the viewer may change it (not the founder, not oneself, owners only by owners). */
function roleCell(ctx: Ctx, m: Member) {
  const { me, myRole } = ctx;
  const canChange =
    ctx.manages && m.user_id !== me.organisation_id && m.user_id !== me.user_id && (myRole === 'owner' || m.role !== 'owner');
  if (!canChange) return h('td', { 'data-label': 'Role' }, m.role);
  const select = h(
    'select',
    { 'aria-label': `Role of ${m.email}`, 'data-role-of': m.user_id },
    ...ctx.grantable.map((r) => h('option', { value: r, ...(r === m.role ? { selected: true } : {}) }, r)),
  );
  select.addEventListener('change', async () => {
    ctx.listError.hidden = true;
    try {
      await api.changeMemberRole(m.user_id, select.value);
      announce(`${m.email} is now ${select.value}.`);
      await ctx.reload();
    } catch (err) {
      select.value = m.role;
      fail(ctx, err, select);
    }
  });
  return h('td', { 'data-label': 'Role' }, select);
}

/** A member's Remove button, when the viewer may remove them (not the founder; owners only by owners). */
function removeCell(ctx: Ctx, m: Member) {
  if (!ctx.manages || m.user_id === ctx.me.organisation_id || (m.role === 'owner' && ctx.myRole !== 'owner')) return h('td', {});
  const btn = h(
    'button',
    { type: 'button', class: 'danger small', 'data-remove': m.user_id, 'aria-label': `Remove ${m.email}` },
    'Remove',
  );
  btn.addEventListener('click', async () => {
    const ok = await confirmDialog(
      `Remove ${m.email}?`,
      'Their sessions and API keys stop working at once. Their transactions stay.',
      'Remove member',
    );
    if (!ok) return btn.focus();
    try {
      await api.removeMember(m.user_id);
      announce(`${m.email} removed.`);
      await ctx.reload();
    } catch (err) {
      fail(ctx, err, btn);
    }
  });
  return h('td', {}, btn);
}

/** The members' table: name, e-mail, role, joined, and the remove action. */
const membersTable = (ctx: Ctx, members: Member[]) =>
  h(
    'table',
    { class: 'table stack' },
    h('caption', { class: 'visually-hidden' }, 'Members of the organisation'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['Name', 'E-mail', 'Role', 'Joined'].map((c) => h('th', { scope: 'col' }, c)),
        h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
      ),
    ),
    h(
      'tbody',
      {},
      ...members.map((m) =>
        h(
          'tr',
          { 'data-member': m.email },
          h('th', { scope: 'row' }, m.name),
          h('td', { 'data-label': 'E-mail' }, m.email),
          roleCell(ctx, m),
          h('td', { 'data-label': 'Joined' }, fmtDate(m.joined_at)),
          removeCell(ctx, m),
        ),
      ),
    ),
  );

/** A pending invitation: who, as what, until when, and Withdraw for those who manage members. */
function invitationRow(ctx: Ctx, i: Invitation) {
  const row = h('p', { 'data-invitation': i.email }, `${i.email} as ${i.role}, until ${fmtDate(i.expires_at)} `);
  if (!ctx.manages) return row;
  const btn = h('button', { type: 'button', class: 'small', 'aria-label': `Withdraw the invitation of ${i.email}` }, 'Withdraw');
  btn.addEventListener('click', async () => {
    try {
      await api.revokeInvitation(i.id);
      announce(`The invitation of ${i.email} is withdrawn.`);
      await ctx.reload();
    } catch (err) {
      fail(ctx, err, btn);
    }
  });
  row.append(btn);
  return row;
}

/** The invitation form: an e-mail and a role the viewer may give. */
function inviteForm(ctx: Ctx) {
  const form = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'h-invite', class: 'card', id: 'invite' },
    h('h2', { id: 'h-invite' }, 'Invite someone'),
    field('E-mail', 'email', { type: 'email', required: true, autocomplete: 'off' }),
    field('Role', 'role', {}, { tag: 'select', options: ctx.grantable.map((r) => [r, ROLE_TEXT[r]] as [string, string]) }),
    formError(),
    h('button', { type: 'submit', class: 'primary' }, 'Send invitation'),
  );
  onSubmit(form, async (f) => {
    const email = value(f, 'email').trim();
    await api.inviteMember(email, value(f, 'role'));
    f.reset();
    announce(`Invitation sent to ${email}. The link works once, for 7 days.`);
    await ctx.reload();
  });
  return form;
}

export async function membersView(app: App): Promise<View> {
  const me = await app.profile();
  const myRole = me.role as Role;
  let data = await api.members();
  const root = h('section', {}, h('h1', { tabindex: -1 }, 'Members'));
  const listBox = h('div', { id: 'members' });
  const pendingBox = h('div', { id: 'invitations' });
  const ctx: Ctx = {
    me,
    myRole,
    manages: rank(myRole) >= rank('admin'),
    // Admins give roles up to admin; owners any.
    grantable: ROLES.filter((r) => myRole === 'owner' || r !== 'owner'),
    listError: h('p', { class: 'form-error', role: 'alert', hidden: true }),
    reload: async () => {
      data = await api.members();
      render();
    },
  };
  const render = () => {
    listBox.replaceChildren(membersTable(ctx, data.members));
    pendingBox.replaceChildren(
      ...(data.invitations.length
        ? data.invitations.map((i) => invitationRow(ctx, i))
        : [h('p', { class: 'hint' }, 'No pending invitations.')]),
    );
  };

  render();
  root.append(
    h('p', { class: 'hint' }, `You are ${myRole} of ${me.org_name}.`),
    ...(ctx.manages ? [inviteForm(ctx)] : []),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'h-members' },
      h('h2', { id: 'h-members' }, 'Members'),
      ctx.listError,
      listBox,
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'h-pending' },
      h('h2', { id: 'h-pending' }, 'Pending invitations'),
      pendingBox,
    ),
  );
  return { id: 'members', title: 'Members', nav: 'members', node: root };
}

/** /app/join#code=…: a new member names themselves and chooses a password; the mail proved the address. */
export function joinView(app: App): View {
  const code = new URLSearchParams(location.hash.slice(1)).get('code') ?? '';
  const form = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'h-join', class: 'card narrow' },
    h('h1', { id: 'h-join', tabindex: -1 }, 'Join your team on Signet'),
    h('p', { class: 'hint' }, 'Your e-mail address is the one the invitation was sent to.'),
    field('Your name', 'name', { required: true, maxlength: 200, autocomplete: 'name' }),
    field(
      'Password',
      'password',
      { type: 'password', required: true, minlength: 10, autocomplete: 'new-password' },
      { hint: 'At least 10 characters.' },
    ),
    formError(),
    h('button', { type: 'submit', class: 'primary' }, 'Join'),
  );
  if (!code)
    form.prepend(
      h('p', { class: 'form-error', role: 'alert' }, 'This link has no invitation code; open the link from the mail.'),
    );
  onSubmit(form, async (f) => {
    const s = await api.acceptInvitation(code, value(f, 'name').trim(), value(f, 'password'));
    // The code is spent: it leaves the address bar and the history entry.
    history.replaceState(null, '', '/app/join');
    await app.signedIn(s.token);
  });
  return { id: 'join', title: 'Join', node: h('section', {}, form) };
}
