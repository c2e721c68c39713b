/**
 * The certificate bundle ("cert.json") served by GET /api/ledger/proof/{reference}: everything an
 * offline verifier needs besides the document and the log's public key.
 */
import { createRequire } from 'node:module';
import { leafHash, rootFromInclusionProof } from './merkle.js';
import { mismatchedCommitments, openedHashes, parseOpenings, type CommitmentOpenings } from './commitments.js';
import {
  cosignedBeforeKey,
  describeKey,
  keyList,
  outsidePeriod,
  sealKey,
  verifyCheckpointWith,
  type LogKey,
  type LogKeys,
} from './keys.js';
import { parseSeal, verifySeal, type Checkpoint } from './note.js';
import { checkConsistentWithRemembered, type ConsistencyProof, type RememberedCheckpoint } from './state.js';
import { checkWitnessQuorum, verifyCosignature, type WitnessPolicy } from './witness.js';

// RFC 8785 (JSON Canonicalization Scheme); a CommonJS module whose export is the function.
const canonicalizeJson = createRequire(import.meta.url)('canonicalize') as (value: unknown) => string | undefined;

/** v2 (issue 17): certificates of version 2 and, in the owner's copy, the commitment openings. */
export const BUNDLE_FORMAT = 'signet-certificate-bundle/v2';
/** Bundles served before v2: the same fields; still verified. */
export const BUNDLE_FORMAT_V1 = 'signet-certificate-bundle/v1';
export const BUNDLE_FORMATS = [BUNDLE_FORMAT, BUNDLE_FORMAT_V1] as const;

export type CertificateBundle = {
  format: (typeof BUNDLE_FORMATS)[number];
  /** The certificate exactly as sealed; its RFC 8785 canonical JSON is the leaf. */
  certificate: { reference: string; document_sha256: string } & Record<string, unknown>;
  ledger_seal: string;
  leaf_index: number;
  tree_size: number;
  /** Base64 SHA-256 hashes, from the leaf's sibling up to the root (RFC 9162 §2.1.3.1). */
  inclusion_proof: string[];
  /** The C2SP signed checkpoint of the tree of tree_size. */
  checkpoint: string;
  /** v2, the owner's copy only: the salt and media hashes the certificate's commitments are made of. Not part of the leaf. */
  commitment_openings?: CommitmentOpenings;
};

/** The leaf bytes of a certificate: its canonical JSON (RFC 8785), UTF-8. */
export function certificateLeaf(certificate: unknown): Buffer {
  const text = canonicalizeJson(certificate);
  if (text === undefined) throw new Error('certificate cannot be canonicalized');
  return Buffer.from(text, 'utf8');
}

export type Check = { name: string; ok: boolean; detail: string };
/** `checkpoint`: the verified checkpoint of the bundle (what a verifier may remember). */
export type BundleReport = { ok: boolean; reference?: string; checks: Check[]; checkpoint?: Checkpoint };

export type VerifyOptions = {
  /** The log key, or every key of the log with its period (after a rotation): each signature picks its key by key id. */
  key: LogKeys;
  documentSha256?: string;
  /** The witnesses whose cosignatures the checkpoint must carry, and how many of them (check `witnesses`). */
  witnesses?: WitnessPolicy;
  /** A checkpoint seen before, which this one must be consistent with (check `consistency`). */
  remembered?: RememberedCheckpoint;
  consistency?: ConsistencyProof;
  /** SHA-256 (hex) of media files to match against the opened commitments (check `media`; needs the openings). */
  media?: string[];
};

const isIndex = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

/** Parses a bundle; throws naming the first bad field. */
export function parseBundle(value: unknown): CertificateBundle {
  if (typeof value !== 'object' || value === null) throw new Error('bundle must be a JSON object');
  const b = value as Record<string, unknown>;
  if (!BUNDLE_FORMATS.includes(b.format as CertificateBundle['format']))
    throw new Error(`bundle format must be ${BUNDLE_FORMAT} or ${BUNDLE_FORMAT_V1}`);
  const cert = b.certificate as Record<string, unknown> | undefined;
  if (typeof cert !== 'object' || cert === null || Array.isArray(cert)) throw new Error('bundle certificate must be an object');
  if (typeof cert.reference !== 'string') throw new Error('certificate reference must be a string');
  if (typeof cert.document_sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(cert.document_sha256))
    throw new Error('certificate document_sha256 must be 64 lower-case hex characters');
  if (typeof b.ledger_seal !== 'string') throw new Error('ledger_seal must be a string');
  if (!isIndex(b.leaf_index)) throw new Error('leaf_index must be a non-negative integer');
  if (!isIndex(b.tree_size)) throw new Error('tree_size must be a non-negative integer');
  if (!Array.isArray(b.inclusion_proof) || b.inclusion_proof.some((h) => typeof h !== 'string'))
    throw new Error('inclusion_proof must be an array of base64 strings');
  if (typeof b.checkpoint !== 'string') throw new Error('checkpoint must be a string');
  if (b.commitment_openings !== undefined) {
    if (b.format === BUNDLE_FORMAT_V1) throw new Error('commitment_openings needs a v2 bundle');
    parseOpenings(b.commitment_openings);
  }
  return b as unknown as CertificateBundle;
}

/**
 * Checks a bundle against the log key and, when given, the document's SHA-256 (hex). Every check is
 * reported, passed or not; `ok` only when all of them pass.
 */
export function verifyBundle(value: unknown, opts: VerifyOptions): BundleReport {
  const checks: Check[] = [];
  let bundle: CertificateBundle;
  try {
    bundle = parseBundle(value);
  } catch (err) {
    return { ok: false, checks: [{ name: 'bundle', ok: false, detail: (err as Error).message }] };
  }
  checks.push({
    name: 'bundle',
    ok: true,
    detail: `${bundle.format} for ${bundle.certificate.reference} (certificate version ${String(bundle.certificate.version ?? 1)})`,
  });
  const keys = keyList(opts.key);
  const keyNames = `${[...new Set(keys.map((k) => k.name))].join(', ')} (key ${keys.map(describeKey).join(', ')})`;

  const leaf = leafHash(certificateLeaf(bundle.certificate));
  checks.push({ name: 'leaf', ok: true, detail: `leaf hash ${leaf.toString('hex')} = SHA-256(0x00 ‖ RFC 8785 certificate)` });
  const { cp, check } = checkpointCheck(bundle, keys, keyNames, opts.witnesses);
  checks.push(check, inclusionCheck(bundle, leaf, cp), sealCheck(bundle, keys, leaf));
  if (opts.documentSha256 !== undefined) checks.push(documentCheck(bundle, opts.documentSha256));
  checks.push(...commitmentChecks(bundle, opts.media));
  if (opts.witnesses) checks.push(witnessCheck(bundle, cp, opts.witnesses));
  if (opts.remembered) {
    checks.push(
      cp
        ? checkConsistentWithRemembered(opts.remembered, cp, opts.consistency)
        : { name: 'consistency', ok: false, detail: 'no trusted checkpoint to compare with the remembered one' },
    );
  }
  return { ok: checks.every((c) => c.ok), reference: bundle.certificate.reference, checks, ...(cp ? { checkpoint: cp } : {}) };
}

/**
 * The checkpoint (`checkpoint`): a note signed by one of the log's keys, within that key's period for
 * the certificate and not cosigned before the key was in use. `cp` is the trusted checkpoint, or null.
 */
function checkpointCheck(
  bundle: CertificateBundle,
  keys: readonly LogKey[],
  keyNames: string,
  witnesses: WitnessPolicy | undefined,
): { cp: Checkpoint | null; check: Check } {
  const signed = verifyCheckpointWith(bundle.checkpoint, keys);
  const cosignTimes = witnesses
    ? witnesses.witnesses.map((w) => verifyCosignature(bundle.checkpoint, w)).filter((t): t is number => t !== null)
    : [];
  const refused = signed
    ? (outsidePeriod(signed.key, bundle.certificate.verified_at) ?? cosignedBeforeKey(signed.key, cosignTimes))
    : null;
  const cp = signed && !refused ? signed.cp : null;
  return {
    cp,
    check: cp
      ? {
          name: 'checkpoint',
          ok: true,
          detail: `checkpoint of ${cp.origin} at size ${cp.size} signed by key ${describeKey(signed!.key)}`,
        }
      : {
          name: 'checkpoint',
          ok: false,
          detail: refused
            ? `checkpoint signed outside its key's period: ${refused}`
            : `checkpoint is not a valid note signed by ${keyNames}`,
        },
  };
}

/** The inclusion proof (`inclusion`): it takes the leaf to the root of the trusted checkpoint, at its size. */
function inclusionCheck(bundle: CertificateBundle, leaf: Buffer, cp: Checkpoint | null): Check {
  const proof = bundle.inclusion_proof.map((h) => Buffer.from(h, 'base64'));
  const root = rootFromInclusionProof(bundle.leaf_index, bundle.tree_size, leaf, proof);
  if (!root) {
    return {
      name: 'inclusion',
      ok: false,
      detail: `inclusion proof does not fit leaf ${bundle.leaf_index} of a tree of ${bundle.tree_size}`,
    };
  }
  if (!cp) return { name: 'inclusion', ok: false, detail: 'no trusted checkpoint to compare the computed root with' };
  if (cp.size !== bundle.tree_size || !cp.root.equals(root)) {
    return {
      name: 'inclusion',
      ok: false,
      detail: `computed root ${root.toString('base64')} (size ${bundle.tree_size}) is not the checkpoint root ${cp.root.toString('base64')} (size ${cp.size})`,
    };
  }
  return {
    name: 'inclusion',
    ok: true,
    detail: `leaf ${bundle.leaf_index} is in the tree of ${cp.size} (${proof.length} proof hashes to root ${root.toString('base64')})`,
  };
}

/** The ledger seal (`seal`): a log key's signature over the leaf and its index, made within the key's period. */
function sealCheck(bundle: CertificateBundle, keys: readonly LogKey[], leaf: Buffer): Check {
  const seal = parseSeal(bundle.ledger_seal);
  const sk = sealKey(bundle.ledger_seal, keys);
  const sealRefused = sk ? outsidePeriod(sk, bundle.certificate.verified_at) : null;
  return seal && sk && !sealRefused && verifySeal(bundle.ledger_seal, sk, bundle.leaf_index, leaf)
    ? { name: 'seal', ok: true, detail: `ledger seal signs leaf ${bundle.leaf_index} of ${sk.name} (key ${describeKey(sk)})` }
    : {
        name: 'seal',
        ok: false,
        detail: sealRefused
          ? `ledger seal made outside its key's period: ${sealRefused}`
          : 'ledger seal is not the log key’s signature over this certificate and leaf index',
      };
}

/** The document (`document`): its SHA-256 (hex, either case) is the certified one. */
function documentCheck(bundle: CertificateBundle, documentSha256: string): Check {
  const expected = bundle.certificate.document_sha256;
  return documentSha256.toLowerCase() === expected
    ? { name: 'document', ok: true, detail: `document SHA-256 ${expected} matches the certificate` }
    : {
        name: 'document',
        ok: false,
        detail: `document SHA-256 ${documentSha256.toLowerCase()} is not the certified ${expected}`,
      };
}

/** The witnesses (`witnesses`): a quorum of them cosigned the checkpoint, and the checkpoint is trusted. */
function witnessCheck(bundle: CertificateBundle, cp: Checkpoint | null, witnesses: WitnessPolicy): Check {
  const q = checkWitnessQuorum(bundle.checkpoint, witnesses);
  const who = q.cosigned.length ? q.cosigned.join(', ') : 'none';
  return {
    name: 'witnesses',
    ok: cp !== null && q.ok,
    detail: `${q.cosigned.length} of ${q.of} witness(es) cosigned the checkpoint (${who}); ${q.quorum} required`,
  };
}

/** With the owner's openings: the commitments open to them (`commitments`); with media hashes too, each is an opened one (`media`). */
function commitmentChecks(bundle: CertificateBundle, media: string[] | undefined): Check[] {
  const o = bundle.commitment_openings;
  if (!o)
    return media?.length
      ? [
          {
            name: 'media',
            ok: false,
            detail: 'media given but the bundle has no commitment openings (the owner’s evidence has them)',
          },
        ]
      : [];
  const bad = mismatchedCommitments(bundle.certificate, o);
  const out: Check[] = [
    bad.length
      ? { name: 'commitments', ok: false, detail: `the openings do not give the certified commitments: ${bad.join(', ')}` }
      : {
          name: 'commitments',
          ok: true,
          detail: `every media commitment of the ${o.signers.length} signer(s) opens with the salt and media hashes given`,
        },
  ];
  if (media?.length) {
    const opened = openedHashes(o);
    const missing = media.map((m) => m.toLowerCase()).filter((m) => !opened.has(m));
    out.push(
      missing.length
        ? { name: 'media', ok: false, detail: `media SHA-256 ${missing.join(', ')} is not among the committed media` }
        : { name: 'media', ok: true, detail: `${media.length} media file(s) match committed media hashes` },
    );
  }
  return out;
}
