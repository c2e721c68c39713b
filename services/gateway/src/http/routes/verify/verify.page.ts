/**
 * The public /verify page: plain HTML and an inline script, no external assets. A person types the
 * reference and the hash prefix, or drops the original PDF (hashed in the browser with WebCrypto), and sees the
 * result and every check made: the online answer, the document hash, the leaf recomputed from the
 * certificate (RFC 8785 + RFC 9162), the inclusion proof up to the checkpoint root, and the Ed25519
 * signatures of the checkpoint and the seal (where the browser supports Ed25519 in WebCrypto). A
 * dropped signed PDF is instead sent to POST /api/verify/signed-pdf and every check it answers is shown.
 */
import { createHash } from 'node:crypto';

const script = String.raw`
'use strict';
var $ = function (id) { return document.getElementById(id); };
var enc = new TextEncoder();
var fullHash = null;

function hex(buf) { return Array.from(new Uint8Array(buf)).map(function (b) { return b.toString(16).padStart(2, '0'); }).join(''); }
function b64(buf) { var s = ''; new Uint8Array(buf).forEach(function (b) { s += String.fromCharCode(b); }); return btoa(s); }
function unb64(s) { var bin = atob(s.replace(/-/g, '+').replace(/_/g, '/')); var out = new Uint8Array(bin.length); for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i); return out; }
function concat(parts) { var n = 0; parts.forEach(function (p) { n += p.length; }); var out = new Uint8Array(n), at = 0; parts.forEach(function (p) { out.set(p, at); at += p.length; }); return out; }
async function sha256(bytes) { return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)); }
function leafHash(bytes) { return sha256(concat([new Uint8Array([0]), bytes])); }
function nodeHash(l, r) { return sha256(concat([new Uint8Array([1]), l, r])); }
function same(a, b) { if (a.length !== b.length) return false; for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return false; return true; }

// RFC 8785: sorted keys (UTF-16 order), ECMAScript number and string serialization.
function canonicalize(v) {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map(canonicalize).join(',') + ']';
  return '{' + Object.keys(v).sort().filter(function (k) { return v[k] !== undefined; }).map(function (k) { return JSON.stringify(k) + ':' + canonicalize(v[k]); }).join(',') + '}';
}

// RFC 9162 section 2.1.3.2.
async function rootFromProof(index, size, leaf, proof) {
  if (index >= size) return null;
  var fn = index, sn = size - 1, r = leaf;
  for (var i = 0; i < proof.length; i++) {
    var p = proof[i];
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      r = await nodeHash(p, r);
      if (fn % 2 === 0) while (fn % 2 === 0 && fn !== 0) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
    } else {
      r = await nodeHash(r, p);
    }
    fn = Math.floor(fn / 2); sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : null;
}

async function ed25519(pub, sig, msg) {
  try {
    var key = await crypto.subtle.importKey('raw', pub, { name: 'Ed25519' }, false, ['verify']);
    return await crypto.subtle.verify({ name: 'Ed25519' }, key, sig, msg);
  } catch (e) { return null; }
}

function check(ok, text) {
  var li = document.createElement('li');
  li.className = ok === true ? 'ok' : ok === false ? 'bad' : 'skip';
  li.textContent = (ok === true ? '\u2713 ' : ok === false ? '\u2717 ' : '\u2013 ') + text;
  $('checks').appendChild(li);
  return ok;
}

async function verifyLog(ref, prefix, log) {
  var res = await fetch('/api/ledger/proof/' + encodeURIComponent(ref) + '?hash=' + prefix);
  if (!res.ok) { check(false, 'proof bundle could not be fetched (' + res.status + ')'); return false; }
  var bundle = await res.json();
  var keyInfo = await (await fetch('/api/ledger/public-key' + (log === 'test' ? '?log=test' : ''))).json();
  // After a key rotation the log serves every key with its id: each signature names the key it was made with.
  var served = keyInfo.keys && keyInfo.keys.length ? keyInfo.keys : [keyInfo];
  var keyFor = function (id) { for (var i = 0; i < served.length; i++) if (served[i].key_id === id) return served[i]; return null; };
  var keyName = function (k) { return k.key_id + (k.current === false ? ' (retired)' : ''); };
  $('download').href = '/api/ledger/proof/' + encodeURIComponent(ref) + '?hash=' + prefix + '&download=1';
  $('download').hidden = false;
  var all = true;
  if (fullHash) all = check(fullHash === bundle.certificate.document_sha256, 'the dropped PDF\u2019s full SHA-256 ' + (fullHash === bundle.certificate.document_sha256 ? 'is' : 'is NOT') + ' the certified ' + bundle.certificate.document_sha256) && all;
  var leaf = await leafHash(enc.encode(canonicalize(bundle.certificate)));
  check(true, 'leaf hash recomputed from the certificate (RFC 8785 JSON, RFC 9162 leaf): ' + hex(leaf));
  var lines = bundle.checkpoint.split('\n');
  var root = await rootFromProof(bundle.leaf_index, bundle.tree_size, leaf, bundle.inclusion_proof.map(unb64));
  var cpRoot = unb64(lines[2] || '');
  var included = !!root && lines[0] === keyInfo.origin && Number(lines[1]) === bundle.tree_size && same(root, cpRoot);
  all = check(included, 'inclusion proof (' + bundle.inclusion_proof.length + ' hashes) leads from leaf ' + bundle.leaf_index + ' to the root of the checkpoint of ' + lines[1] + ' certificates') && all;
  var split = bundle.checkpoint.lastIndexOf('\n\n');
  var text = enc.encode(bundle.checkpoint.slice(0, split + 1));
  var m = /^\u2014 (\S+) (\S+)$/.exec(bundle.checkpoint.slice(split + 2).split('\n')[0] || '');
  var cpSig = m ? unb64(m[2]).slice(4) : new Uint8Array(0);
  var cpKey = m ? keyFor(hex(unb64(m[2]).slice(0, 4))) : null;
  var cpOk = m && m[1] === keyInfo.origin && cpKey ? await ed25519(unb64(cpKey.public_key), cpSig, text) : false;
  all = (check(cpOk, cpOk === null ? 'checkpoint signature not checked: this browser has no Ed25519 in WebCrypto (use signet-verify)' : cpKey ? 'checkpoint signed by the log key ' + keyName(cpKey) + ' (' + keyInfo.origin + ')' : 'checkpoint is not signed by a key of ' + keyInfo.origin) !== false) && all;
  var seal = /^v1\.([0-9a-f]{8})\.(\d+)\.([A-Za-z0-9_-]+)$/.exec(bundle.ledger_seal);
  var sealMsg = enc.encode('signet-ledger-seal/v1\n' + keyInfo.origin + '\n' + bundle.leaf_index + '\n' + b64(leaf) + '\n');
  var sealKey = seal ? keyFor(seal[1]) : null;
  var sealOk = seal && sealKey && Number(seal[2]) === bundle.leaf_index ? await ed25519(unb64(sealKey.public_key), unb64(seal[3]), sealMsg) : false;
  all = (check(sealOk, sealOk === null ? 'seal signature not checked in this browser' : 'ledger seal is the log key ' + (sealKey ? keyName(sealKey) : '(unknown)') + '\u2019s signature over this certificate at leaf ' + bundle.leaf_index) !== false) && all;
  return all;
}

async function run(ev) {
  if (ev) ev.preventDefault();
  var ref = $('ref').value.trim().toUpperCase();
  var prefix = $('hash').value.trim().toLowerCase();
  clear();
  if (!/^[A-Z0-9]{2,8}-TX-\d{8}$/.test(ref)) { $('result').textContent = 'The reference looks like ABC-TX-00000001.'; $('result').className = 'bad'; return; }
  if (!/^[0-9a-f]{16}$/.test(prefix)) { $('result').textContent = 'Enter the first 16 characters of the document SHA-256, or drop the PDF.'; $('result').className = 'bad'; return; }
  $('result').textContent = 'Checking\u2026';
  try {
    var res = await fetch('/api/verify/' + encodeURIComponent(ref) + '/' + prefix);
    var body = await res.json();
    if (res.status !== 200) { check(false, 'no certificate matches this reference and document hash'); $('result').textContent = 'Not verified: ' + body.detail; $('result').className = 'bad'; return; }
    check(body.valid, 'the service reports a valid certificate ' + body.reference + ' for a document whose hash starts ' + body.document_sha256_prefix);
    [['Signer', body.signer_name], ['Issuer', body.issuer_name], ['Verified at (UTC)', body.verified_at], ['Verification', body.verification_mode], ['Ledger seal', body.ledger_seal], ['Log', body.log === 'test' ? 'TEST log (test mode: no real signing took place)' : 'live']].forEach(function (row) {
      var dt = document.createElement('dt'); dt.textContent = row[0]; var dd = document.createElement('dd'); dd.textContent = row[1];
      $('details').appendChild(dt); $('details').appendChild(dd);
    });
    var ok = body.valid && await verifyLog(ref, prefix, body.log);
    $('result').textContent = ok ? (body.log === 'test' ? 'TEST certificate, verified in the test log: ' : 'Verified: ') + body.reference : 'Not verified: see the failed check below';
    $('result').className = ok ? 'ok' : 'bad';
  } catch (e) {
    $('result').textContent = 'The check could not be completed: ' + e.message; $('result').className = 'bad';
  }
}

function clear() { $('checks').innerHTML = ''; $('result').textContent = ''; $('result').className = ''; $('details').innerHTML = ''; $('download').hidden = true; }
function row(name, value) { var dt = document.createElement('dt'); dt.textContent = name; var dd = document.createElement('dd'); dd.textContent = value; $('details').appendChild(dt); $('details').appendChild(dd); }

// A signed PDF (it has a signature's /ByteRange) is sent to the server, which checks the seal, its
// timestamp, its certificate chain and the embedded cert.json, and answers every check.
function isSigned(bytes) {
  var needle = enc.encode('/ByteRange');
  outer: for (var i = 0; i + needle.length <= bytes.length; i++) {
    if (bytes[i] !== 47) continue;
    for (var j = 1; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

async function checkSigned(file, bytes) {
  clear();
  $('file').textContent = file.name + ': a signed PDF, sent to this server to check its seal, timestamp and embedded evidence (it is not kept)';
  $('result').textContent = 'Checking the signed PDF\u2026';
  try {
    var res = await fetch('/api/verify/signed-pdf', { method: 'POST', headers: { 'Content-Type': 'application/pdf' }, body: bytes });
    var body = await res.json().catch(function () { return { detail: 'the server answered ' + res.status }; });
    if (res.status !== 200) { check(false, body.detail); $('result').textContent = 'Not verified: ' + body.detail; $('result').className = 'bad'; return; }
    body.checks.forEach(function (c) { check(c.ok, c.name + ': ' + c.detail); });
    if (body.reference) { row('Certificate', body.reference); $('ref').value = body.reference; }
    if (body.sealed_by) row('Sealed by', body.sealed_by);
    if (body.timestamp) row('Trusted time (UTC)', body.timestamp);
    if (body.log) row('Log', body.log === 'test' ? 'TEST log (test mode: no real signing took place)' : 'live');
    $('result').textContent = body.valid ? (body.log === 'test' ? 'TEST certificate, signed PDF verified in the test log: ' : 'Verified signed PDF: ') + body.reference : 'Not verified: see the failed check below';
    $('result').className = body.valid ? 'ok' : 'bad';
  } catch (e) {
    $('result').textContent = 'The check could not be completed: ' + e.message; $('result').className = 'bad';
  }
}

async function takeFile(file) {
  if (!file) return;
  var bytes = new Uint8Array(await file.arrayBuffer());
  if (isSigned(bytes)) return checkSigned(file, bytes);
  $('file').textContent = 'Hashing ' + file.name + '\u2026';
  var digest = hex(await crypto.subtle.digest('SHA-256', bytes));
  fullHash = digest;
  $('hash').value = digest.slice(0, 16);
  $('file').textContent = file.name + ': SHA-256 ' + digest + ' (computed in this browser; the file is not uploaded)';
  if ($('ref').value.trim()) run();
}

$('form').addEventListener('submit', run);
$('pdf').addEventListener('change', function (e) { takeFile(e.target.files[0]); });
var drop = $('drop');
drop.addEventListener('dragover', function (e) { e.preventDefault(); drop.classList.add('over'); });
drop.addEventListener('dragleave', function () { drop.classList.remove('over'); });
drop.addEventListener('drop', function (e) { e.preventDefault(); drop.classList.remove('over'); takeFile(e.dataTransfer.files[0]); });
$('hash').addEventListener('input', function () { fullHash = null; });
var q = new URLSearchParams(location.search);
if (q.get('ref')) $('ref').value = q.get('ref');
if (q.get('hash')) $('hash').value = q.get('hash');
if (q.get('ref') && q.get('hash')) run();
`;

const style = `
body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}
h1{font-size:1.6rem}label{display:block;margin:.6rem 0 .2rem;font-weight:600}
input[type=text]{width:100%;padding:.5rem;font:inherit;font-family:ui-monospace,monospace;box-sizing:border-box}
#drop{border:2px dashed #8893a0;border-radius:8px;padding:1.2rem;text-align:center;margin:1rem 0}#drop.over{background:#eef4ff}
button{margin-top:1rem;padding:.55rem 1.4rem;font:inherit;cursor:pointer}
#result{font-size:1.2rem;font-weight:700;margin:1.2rem 0 .4rem}.ok{color:#116329}.bad{color:#b3261e}.skip{color:#6b7280}
#checks{padding-left:1rem;list-style:none}#checks li{margin:.3rem 0;word-break:break-all}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dd{margin:0;word-break:break-all;font-family:ui-monospace,monospace}
label.pick{display:inline;font-weight:400}#file{font-size:.85rem;word-break:break-all;color:#444}small{color:#555}`;

export const verifyPageScriptHash = createHash('sha256').update(script).digest('base64');
export const verifyPageStyleHash = createHash('sha256').update(style).digest('base64');

export const verifyPageHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Verify a certificate — Signet</title>
<style>${style}</style>
</head>
<body>
<h1>Verify a certificate</h1>
<p>Drop the signed PDF to check its seal, trusted time and embedded evidence. Or enter the certificate reference and the first 16 characters of the original document’s SHA-256 (drop the original to compute it here).</p>
<form id="form" autocomplete="off">
  <label for="ref">Reference</label>
  <input type="text" id="ref" name="ref" placeholder="ABC-TX-00000001" spellcheck="false">
  <div id="drop">Drop the signed PDF (or the original) here, or <label class="pick"><u>choose a file</u><input type="file" id="pdf" accept="application/pdf" hidden></label>
    <div id="file"></div></div>
  <label for="hash">Document SHA-256, first 16 characters</label>
  <input type="text" id="hash" name="hash" placeholder="0123456789abcdef" maxlength="16" spellcheck="false">
  <button type="submit">Verify</button>
</form>
<div id="result" role="status" aria-live="polite"></div>
<dl id="details"></dl>
<ul id="checks"></ul>
<p><a id="download" hidden>Download the evidence (cert.json)</a></p>
<p><small>Offline, with nothing but the evidence, the PDF and the log’s public key (<a href="/api/ledger/public-key">/api/ledger/public-key</a>):
<code>signet-verify cert.json document.pdf --key &lt;verifier key&gt;</code></small></p>
<script>${script}</script>
</body>
</html>
`;
