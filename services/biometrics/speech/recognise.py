#!/usr/bin/env python3
"""Speech worker of the biometrics service: were the issued words spoken inside their window?

Long-lived: the service starts it once and sends one JSON object per line on stdin; it answers one
JSON object per line on stdout, in order. Nothing else is written to stdout; pocketsphinx logs only
fatal errors, to stderr. Audio is never logged or echoed.

Requests
  {"id": 1, "op": "verify", "words": ["abandon", ...], "window": [2.0, 7.5], "pcm": "<base64>"}
      pcm: the whole recording, 16 kHz mono signed 16-bit little-endian; window in seconds.
  {"id": 2, "op": "lookup", "words": [...]}   which words the pronunciation dictionary lacks
Answers
  {"id": 1, "ok": true, "aligned": true, "score": -0.41, "words": [{"word", "start", "end",
   "score"}, ...], "missing": [], "ms": 180}
  {"id": 2, "ok": true, "missing": ["..."]}
  {"id": n, "ok": false, "error": "..."}                        a request that could not be read
On start it writes {"ready": true, "protocol": 1, "pocketsphinx": "<version>"}.

Method (see docs/decisions.md, "Words verified"): the window's audio is force-aligned to the
expected words (no alignment: not spoken). Each aligned word is then cut out with a little context,
aligned again on its own and decoded by a free phone loop over exactly the same frames; the
difference of the two acoustic log-likelihoods per frame is the word's likelihood ratio (≈ 0 when
the word is what was said, strongly negative when the loop explains the sound much better). The
score is the lowest word's ratio, so one wrong word fails the phrase. The threshold is applied by
the caller (services/biometrics/src/analysis/words.ts).
"""

import base64
import json
import math
import os
import re
import sys
import time

PROTOCOL = 1
SAMPLE_RATE = 16_000
FRAME_SAMPLES = 160  # 100 frames per second
# Context kept on each side of a word when it is scored on its own (frames).
WORD_PAD_FRAMES = 10
# Shortest window worth aligning (frames): four words cannot be said in less.
MIN_WINDOW_FRAMES = 40
WORD_RE = re.compile(r"^[a-z][a-z']*$")
NOT_WORDS = {"<s>", "</s>", "<sil>"}


def _ln(p):
    # pocketsphinx's Python layer returns scores as probabilities; a word whose acoustic likelihood
    # underflows a double is as good as impossible.
    return math.log(p) if p > 0 else -1e9


class Verifier:
    def __init__(self, extra_dict=None):
        from pocketsphinx import Decoder, get_model_path

        model = os.path.join(get_model_path(), "en-us")
        common = dict(
            hmm=os.path.join(model, "en-us"),
            dict=os.path.join(model, "cmudict-en-us.dict"),
            loglevel="FATAL",
            # every senone scored in every frame, so both decoders' scores are normalised by the
            # same per-frame best and their difference is a likelihood ratio
            compallsen=True,
        )
        self.align = Decoder(lm=None, **common)
        self.loop = Decoder(allphone=os.path.join(model, "en-us-phone.lm.bin"), **common)
        self.extra = {}
        if extra_dict and os.path.exists(extra_dict):
            with open(extra_dict, encoding="utf-8") as fh:
                for line in fh:
                    parts = line.split()
                    if len(parts) >= 2 and not line.startswith("#"):
                        self.extra[parts[0]] = " ".join(parts[1:])
        for word, phones in self.extra.items():
            if self.align.lookup_word(word) is None:
                self.align.add_word(word, phones, True)

    def missing(self, words):
        return [w for w in words if self.align.lookup_word(w) is None]

    def _decode(self, dec, pcm):
        # fresh feature state (cepstral mean) per utterance: a result never depends on the one before
        dec.reinit_feat()
        dec.start_utt()
        dec.process_raw(pcm, full_utt=True)
        dec.end_utt()
        return list(dec.seg()) if dec.hyp() is not None else None

    def _aligned(self, pcm, words):
        """Word segments of the forced alignment, or None when the words cannot be aligned."""
        self.align.set_align_text(" ".join(words))
        segs = self._decode(self.align, pcm)
        if segs is None:
            return None
        out = [s for s in segs if s.word not in NOT_WORDS and not s.word.startswith(("[", "+"))]
        if [s.word.split("(")[0] for s in out] != list(words):
            return None
        return out

    def _word_ratio(self, pcm, word, sf, ef):
        """Per-frame log-likelihood ratio of `word` against the phone loop on its own frames."""
        a = max(0, sf - WORD_PAD_FRAMES) * FRAME_SAMPLES
        b = min(len(pcm) // 2, (ef + 1 + WORD_PAD_FRAMES) * FRAME_SAMPLES)
        piece = pcm[2 * a : 2 * b]
        frames = (b - a) // FRAME_SAMPLES
        self.align.set_align_text(word)
        segs = self._decode(self.align, piece)
        if segs is None:
            return None
        loop = self._decode(self.loop, piece)
        if not loop:
            return None
        forced = sum(_ln(s.ascore) for s in segs)
        free = sum(_ln(s.ascore) for s in loop)
        return (forced - free) / max(1, frames)

    def verify(self, pcm, words, window):
        t0 = time.monotonic()
        total = len(pcm) // 2
        start = max(0, int(round(window[0] * SAMPLE_RATE)))
        end = min(total, int(round(window[1] * SAMPLE_RATE)))
        cut = pcm[2 * start : 2 * max(start, end)]
        result = {"ok": True, "aligned": False, "score": None, "words": [], "missing": self.missing(words)}
        if result["missing"] or len(cut) // (2 * FRAME_SAMPLES) < MIN_WINDOW_FRAMES:
            result["ms"] = round((time.monotonic() - t0) * 1000)
            return result
        segs = self._aligned(cut, words)
        if segs is not None:
            result["aligned"] = True
            scores = []
            for s in segs:
                word = s.word.split("(")[0]
                r = self._word_ratio(cut, word, s.start_frame, s.end_frame)
                scores.append(-1e9 if r is None else r)
                result["words"].append(
                    {
                        "word": word,
                        "start": round(window[0] + s.start_frame / 100, 2),
                        "end": round(window[0] + (s.end_frame + 1) / 100, 2),
                        "score": None if r is None else round(r, 3),
                    }
                )
            result["score"] = round(min(scores), 3)
        result["ms"] = round((time.monotonic() - t0) * 1000)
        return result


def _words(req):
    words = req.get("words")
    if not isinstance(words, list) or not words or len(words) > 16:
        raise ValueError("words must be a list of 1..16 words")
    out = []
    for w in words:
        w = str(w).strip().lower()
        if not WORD_RE.match(w) or len(w) > 32:
            raise ValueError("words must be lower-case letters")
        out.append(w)
    return out


def handle(verifier, req):
    op = req.get("op", "verify")
    words = _words(req)
    if op == "lookup":
        return {"ok": True, "missing": verifier.missing(words)}
    if op != "verify":
        raise ValueError("unknown op")
    window = req.get("window")
    if not (isinstance(window, list) and len(window) == 2 and all(isinstance(x, (int, float)) for x in window)):
        raise ValueError("window must be [start, end] in seconds")
    if not window[1] > window[0] >= 0:
        raise ValueError("window must satisfy 0 <= start < end")
    pcm = base64.b64decode(req.get("pcm") or "", validate=True)
    if len(pcm) % 2:
        raise ValueError("pcm must be whole 16-bit samples")
    return verifier.verify(pcm, words, (float(window[0]), float(window[1])))


def main():
    extra = os.path.join(os.path.dirname(os.path.abspath(__file__)), "extra.dict")
    verifier = Verifier(extra)
    import pocketsphinx

    out = sys.stdout
    out.write(json.dumps({"ready": True, "protocol": PROTOCOL, "pocketsphinx": getattr(pocketsphinx, "__version__", "5")}) + "\n")
    out.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        rid = None
        try:
            req = json.loads(line)
            rid = req.get("id")
            res = handle(verifier, req)
        except Exception as e:  # one bad request never ends the worker; no payload is echoed
            res = {"ok": False, "error": f"{type(e).__name__}: {str(e)[:200]}"}
        res["id"] = rid
        out.write(json.dumps(res) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
