/** The /verify page's elements and what it writes into them: the result line, the details and the list of checks. */

export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el as T;
}

/** One check in the list: passed (true), failed (false) or not made (null). Answers what it was given. */
export function check<T extends boolean | null>(ok: T, text: string): T {
  const li = document.createElement('li');
  li.className = ok === true ? 'ok' : ok === false ? 'bad' : 'skip';
  li.textContent = (ok === true ? '\u2713 ' : ok === false ? '\u2717 ' : '\u2013 ') + text;
  $('checks').appendChild(li);
  return ok;
}

/** A name and value in the details list. */
export function row(name: string, value: string): void {
  const dt = document.createElement('dt');
  dt.textContent = name;
  const dd = document.createElement('dd');
  dd.textContent = value;
  $('details').append(dt, dd);
}

/**
 * The result line; verdict ok or bad colours it, none leaves it plain. test: a certificate of the test
 * log that checks out, shown as a test (a TEST badge, not the green of a live certificate).
 */
export function result(text: string, verdict: 'ok' | 'bad' | 'test' | '' = ''): void {
  $('result').textContent = text;
  $('result').className = verdict;
}

export function clear(): void {
  $('checks').innerHTML = '';
  result('');
  $('details').innerHTML = '';
  $('download').hidden = true;
}

export const logName = (log: string | null) => (log === 'test' ? 'TEST log (test mode: no real signing took place)' : 'live');

/** The verdict of a check that passed: a test-log certificate is a test, whatever its checks. */
export const passed = (log: string | null | undefined): 'ok' | 'test' => (log === 'test' ? 'test' : 'ok');

/** How the signers were verified: a test certificate claims no verification, since no ceremony ran. */
export const verificationText = (mode: string, log: string | null | undefined) =>
  log === 'test' ? 'none: test mode, completed by its sender without a ceremony' : mode;

/** What the ceremony proved, in the service's one wording: the certificate's (its weakest signer's), then each signer's when several. */
export function assuranceRows(a: {
  assurance: string;
  assurance_meaning: string;
  signers: { name: string; assurance: string; assurance_meaning: string }[];
}): void {
  row('Assurance', `${a.assurance}: ${a.assurance_meaning}`);
  if (a.signers.length > 1) for (const s of a.signers) row(`Assurance of ${s.name}`, `${s.assurance}: ${s.assurance_meaning}`);
}
