/**
 * The log checks of a certificate the service reported valid: its evidence bundle is fetched and the page
 * recomputes the leaf from the certificate, follows the inclusion proof to the checkpoint's root, and
 * checks the Ed25519 signatures of the checkpoint and of the ledger seal with the log key each names
 * (after a key rotation the log serves every key with its id).
 */
import { bundle as fetchBundle, bundleUrl, logKeys, type LogKey, type Verification } from './api.js';
import { b64, canonicalize, ed25519, enc, hex, leafHash, rootFromProof, same, unb64 } from './crypto.js';
import { $, check } from './dom.js';

const keyName = (k: LogKey) => k.key_id + (k.current === false ? ' (retired)' : '');

/** Every check passed (a signature this browser cannot check does not fail). fullHash: of a dropped PDF, if any. */
export async function verifyLog(
  ref: string,
  prefix: string,
  log: Verification['log'],
  fullHash: string | null,
): Promise<boolean> {
  const bundle = await fetchBundle(ref, prefix);
  if (typeof bundle === 'number') {
    check(false, `proof bundle could not be fetched (${bundle})`);
    return false;
  }
  const keyInfo = await logKeys(log);
  const keyFor = (id: string) => keyInfo.keys.find((k) => k.key_id === id) ?? null;
  const download = $<HTMLAnchorElement>('download');
  download.href = bundleUrl(ref, prefix, true);
  download.hidden = false;

  let all = true;
  const certified = String(bundle.certificate.document_sha256);
  if (fullHash)
    all =
      check(
        fullHash === certified,
        'the dropped PDF\u2019s full SHA-256 ' + (fullHash === certified ? 'is' : 'is NOT') + ' the certified ' + certified,
      ) && all;
  const leaf = await leafHash(enc.encode(canonicalize(bundle.certificate)));
  check(true, 'leaf hash recomputed from the certificate (RFC 8785 JSON, RFC 9162 leaf): ' + hex(leaf));

  const lines = bundle.checkpoint.split('\n');
  const root = await rootFromProof(bundle.leaf_index, bundle.tree_size, leaf, bundle.inclusion_proof.map(unb64));
  const cpRoot = unb64(lines[2] ?? '');
  const included = !!root && lines[0] === keyInfo.origin && Number(lines[1]) === bundle.tree_size && same(root, cpRoot);
  all =
    check(
      included,
      `inclusion proof (${bundle.inclusion_proof.length} hashes) leads from leaf ${bundle.leaf_index} to the root of the checkpoint of ${String(lines[1])} certificates`,
    ) && all;

  const split = bundle.checkpoint.lastIndexOf('\n\n');
  const text = enc.encode(bundle.checkpoint.slice(0, split + 1));
  const m = /^\u2014 (\S+) (\S+)$/.exec(bundle.checkpoint.slice(split + 2).split('\n')[0] ?? '');
  const [, signer = '', sig = ''] = m ?? [];
  const cpSig = m ? unb64(sig).slice(4) : new Uint8Array(0);
  const cpKey = m ? keyFor(hex(unb64(sig).slice(0, 4))) : null;
  const cpOk = m && signer === keyInfo.origin && cpKey ? await ed25519(unb64(cpKey.public_key), cpSig, text) : false;
  all =
    check(
      cpOk,
      cpOk === null
        ? 'checkpoint signature not checked: this browser has no Ed25519 in WebCrypto (use signet-verify)'
        : cpKey
          ? `checkpoint signed by the log key ${keyName(cpKey)} (${keyInfo.origin})`
          : `checkpoint is not signed by a key of ${keyInfo.origin}`,
    ) !== false && all;

  const seal = /^v1\.([0-9a-f]{8})\.(\d+)\.([A-Za-z0-9_-]+)$/.exec(bundle.ledger_seal);
  const [, sealKeyId = '', sealLeaf = '', sealSig = ''] = seal ?? [];
  const sealMsg = enc.encode(`signet-ledger-seal/v1\n${keyInfo.origin}\n${bundle.leaf_index}\n${b64(leaf)}\n`);
  const sealKey = seal ? keyFor(sealKeyId) : null;
  const sealOk =
    seal && sealKey && Number(sealLeaf) === bundle.leaf_index
      ? await ed25519(unb64(sealKey.public_key), unb64(sealSig), sealMsg)
      : false;
  all =
    check(
      sealOk,
      sealOk === null
        ? 'seal signature not checked in this browser'
        : `ledger seal is the log key ${sealKey ? keyName(sealKey) : '(unknown)'}\u2019s signature over this certificate at leaf ${bundle.leaf_index}`,
    ) !== false && all;
  return all;
}
