/** Billing: plan, this month's usage against the quota, credits, past-due notice, checkout links. */
import { api } from '../api.js';
import { fmtDay, h } from '../dom.js';
import type { App, View } from '../main.js';

export async function billingView(_app: App): Promise<View> {
  const a = await api.account();
  const root = h('section', {}, h('h1', { tabindex: -1 }, 'Billing'));
  if (a.past_due) {
    root.append(
      h(
        'div',
        { class: 'alert', role: 'alert', id: 'past-due' },
        h('strong', {}, 'Your payment is past due. '),
        a.grace_ends_at
          ? `Update your payment method before ${fmtDay(a.grace_ends_at)}, or the account moves to the Free plan.`
          : 'Update your payment method to keep your plan.',
      ),
    );
  }
  const pct = a.monthly_limit > 0 ? Math.min(100, Math.round((a.monthly_used / a.monthly_limit) * 100)) : 0;
  const usageId = 'usage-label';
  // CSSOM, not a style attribute: the page's CSP has no 'unsafe-inline' for styles.
  const fill = h('div', { class: `bar-fill${pct >= 100 ? ' full' : pct >= 80 ? ' high' : ''}` });
  fill.style.width = `${pct}%`;
  root.append(
    h(
      'div',
      { class: 'card' },
      h('h2', {}, 'Plan'),
      h('p', { class: 'big', id: 'plan' }, a.plan),
      h('h2', { id: usageId }, 'Signatures this month'),
      h(
        'div',
        {
          class: 'bar-track',
          role: 'meter',
          'aria-labelledby': usageId,
          'aria-valuemin': 0,
          'aria-valuemax': a.monthly_limit,
          'aria-valuenow': Math.min(a.monthly_used, a.monthly_limit),
          'aria-valuetext': `${a.monthly_used} of ${a.monthly_limit} used`,
        },
        fill,
      ),
      h(
        'p',
        { id: 'usage' },
        `${a.monthly_used} of ${a.monthly_limit} used`,
        pct >= 100 ? ' — the monthly limit is reached; new transactions use credits.' : '',
      ),
      h('h2', {}, 'Credits'),
      h('p', { class: 'big', id: 'credits' }, String(a.signature_credits)),
      h('p', { class: 'hint' }, 'Pay-as-you-go credits are used once the monthly quota is spent.'),
    ),
  );
  const links: HTMLElement[] = [];
  if (a.plan !== 'Pro' && a.plan !== 'Firm' && a.checkout.pro)
    links.push(h('a', { class: 'button primary', href: a.checkout.pro, rel: 'noopener' }, 'Upgrade to Pro'));
  if (a.plan !== 'Firm' && a.checkout.firm)
    links.push(h('a', { class: 'button', href: a.checkout.firm, rel: 'noopener' }, 'Upgrade to Firm'));
  if (a.checkout.credits) links.push(h('a', { class: 'button', href: a.checkout.credits, rel: 'noopener' }, 'Buy credits'));
  root.append(
    h(
      'div',
      { class: 'card', id: 'checkout' },
      h('h2', {}, 'Upgrade or buy credits'),
      links.length
        ? h('div', { class: 'row' }, ...links)
        : h('p', { class: 'hint' }, 'Checkout is not configured on this installation; contact your administrator.'),
    ),
  );
  return { id: 'billing', title: 'Billing', nav: 'billing', node: root };
}
