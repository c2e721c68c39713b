/** Billing: plan, this month's usage against the quota, credits, past-due notice, checkout links. */
import { api } from '../api.js';
import { fmtDay, h } from '../dom.js';
import type { App, View } from '../main.js';

/** What the usage means now: the quota left, or what happens past it with the credits there are. */
function usageText(limitReached: boolean, credits: number): string {
  if (!limitReached) return '';
  if (credits > 0) return ` — the monthly limit is reached; new transactions use credits (${credits} left).`;
  return ' — the monthly limit is reached and no credits are left: buy credits or upgrade to send more this month.';
}

function creditsText(credits: number): string {
  if (credits === 0) return 'No credits left. Pay-as-you-go credits are used once the monthly quota is spent.';
  return `Pay-as-you-go credits: ${credits} left, used once the monthly quota is spent.`;
}

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
        usageText(a.monthly_used >= a.monthly_limit, a.signature_credits),
      ),
      h('h2', {}, 'Credits'),
      h('p', { class: 'big', id: 'credits' }, String(a.signature_credits)),
      h('p', { class: 'hint', id: 'credits-text' }, creditsText(a.signature_credits)),
    ),
  );
  const links: HTMLElement[] = [];
  if (a.plan !== 'Pro' && a.plan !== 'Firm' && a.checkout.pro)
    links.push(h('a', { class: 'button primary', href: a.checkout.pro, rel: 'noopener' }, 'Upgrade to Pro'));
  if (a.plan !== 'Firm' && a.checkout.firm)
    links.push(h('a', { class: 'button', href: a.checkout.firm, rel: 'noopener' }, 'Upgrade to Firm'));
  // With no credits left, buying some is the first thing offered.
  const noCredits = a.signature_credits === 0;
  if (a.checkout.credits) {
    const buy = h(
      'a',
      { class: `button${noCredits ? ' primary' : ''}`, href: a.checkout.credits, rel: 'noopener', id: 'buy-credits' },
      'Buy credits',
    );
    if (noCredits) links.unshift(buy);
    else links.push(buy);
  }
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
