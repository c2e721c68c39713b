/**
 * The client side of C2SP tlog-witness (https://c2sp.org/tlog-witness): POST <url>/add-checkpoint with
 *   old <size the witness last cosigned>\n<base64 consistency proof hash, one a line>\n\n<signed checkpoint>
 * The witness answers 200 with its cosignature line(s), 409 (text/x.tlog.size) with the size it knows
 * when "old" is not that, 403 for an unknown log or a bad log signature, 422 for a bad proof, 400 for a
 * malformed request. Nothing here is trusted: the caller verifies the cosignature with the witness key.
 */
export type AddCheckpointResult =
  | { kind: 'cosigned'; lines: string }
  | { kind: 'conflict'; knownSize: number }
  | { kind: 'refused'; status: number; reason: string }
  | { kind: 'unavailable'; reason: string };

export function addCheckpointBody(oldSize: number, proof: Uint8Array[], checkpoint: string): string {
  const lines = [`old ${oldSize}`, ...proof.map((h) => Buffer.from(h).toString('base64'))];
  return `${lines.join('\n')}\n\n${checkpoint}`;
}

/** One add-checkpoint request with a deadline; never throws (a network failure is `unavailable`). */
export async function addCheckpoint(
  url: string,
  req: { oldSize: number; proof: Uint8Array[]; checkpoint: string },
  timeoutMs: number,
): Promise<AddCheckpointResult> {
  let res: Response;
  let body: string;
  try {
    res = await fetch(`${url}/add-checkpoint`, {
      method: 'POST',
      body: addCheckpointBody(req.oldSize, req.proof, req.checkpoint),
      signal: AbortSignal.timeout(timeoutMs),
    });
    body = await res.text();
  } catch (err) {
    return { kind: 'unavailable', reason: (err as Error).name === 'TimeoutError' ? 'timeout' : (err as Error).message };
  }
  if (res.status === 200) return { kind: 'cosigned', lines: body };
  if (res.status === 409) {
    const known = /^(\d{1,15})\n?$/.exec(body);
    return known
      ? { kind: 'conflict', knownSize: Number(known[1]) }
      : { kind: 'refused', status: 409, reason: 'conflict without a tree size' };
  }
  if (res.status >= 500 || res.status === 429) return { kind: 'unavailable', reason: `status ${res.status}` };
  return { kind: 'refused', status: res.status, reason: body.trim().slice(0, 200) };
}
