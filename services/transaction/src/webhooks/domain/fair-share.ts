/** A delivery being attempted now: whose endpoint, whose account. */
export type InFlight = { _id: string; endpoint_id: string; owner_id: string };

/**
 * Fair delivery (issue 31): the endpoints with `perEndpoint` attempts in flight and the owners with
 * `perOwner`, whose further due deliveries wait until one of theirs ends. Everyone else's are
 * claimed first come, first served, so one owner's slow or dead endpoints hold at most `perOwner`
 * of the job's attempts and never delay another owner's deliveries.
 */
export function busyKeys(flying: InFlight[], perEndpoint: number, perOwner: number): { endpoints: string[]; owners: string[] } {
  const byEndpoint = new Map<string, number>();
  const byOwner = new Map<string, number>();
  for (const f of flying) {
    byEndpoint.set(f.endpoint_id, (byEndpoint.get(f.endpoint_id) ?? 0) + 1);
    byOwner.set(f.owner_id, (byOwner.get(f.owner_id) ?? 0) + 1);
  }
  const full = (m: Map<string, number>, cap: number) => [...m].filter(([, n]) => n >= cap).map(([k]) => k);
  return { endpoints: full(byEndpoint, perEndpoint), owners: full(byOwner, perOwner) };
}
