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
  {"id": 1, "ok": true, "aligned": true, "score": -0.41, "second": -1.2, "words": [{"word", "start",
   "end", "score", "second"}, ...], "missing": [], "ms": 180}
      second: Whisper's score of the same words (whisper_score.py), null when it is not installed
  {"id": 2, "ok": true, "missing": ["..."]}
  {"id": n, "ok": false, "error": "..."}                        a request that could not be read
On start it writes {"ready": true, "protocol": 1, "pocketsphinx": "<version>", "second": "whisper-base"
or null}.

Method (see docs/decisions.md, "Words verified"): the window's audio is force-aligned to the
expected words in order (no alignment: not spoken), a second alignment pass gives each word's
phones, and a free phone loop (allphone search with the model's phone bigram) decodes the same
frames. Each phone's acoustic log-likelihood under the forced alignment, less the loop's over the
same frames, per frame, is its likelihood ratio (≈ 0 when the phone is what was said, strongly
negative when the sound is something else); a word scores the mean of its phones, and the phrase
the lowest word, so one wrong word fails it. Every senone is scored in every frame (compallsen),
so both decoders' scores share the same per-frame normalisation. The threshold is applied by the
caller (services/biometrics/src/analysis/words.ts).

Second opinion (whisper_score.py, when its packages are installed): once the words are aligned,
Whisper base scores the same window for the probability of the expected phrase (teacher forcing);
each word gets the mean log-probability of its tokens. Pocketsphinx says whether each word's sounds
are there; Whisper, with a far stronger acoustic model, whether they make that word. The rule on
both is in words.ts.
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
# Alignment scores come in units of log base 1.0001, scaled down by 2**10 in the phone alignment.
LN_BASE = math.log(1.0001)
ALIGN_SCORE_SHIFT = 1024
# Shortest window worth aligning (frames): four words cannot be said in less.
MIN_WINDOW_FRAMES = 40
WORD_RE = re.compile(r"^[a-z][a-z']*$")
NOT_WORDS = {"<s>", "</s>", "<sil>"}
VOWELS = {"AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW"}


def non_rhotic(phones):
    """The non-rhotic (British, Australian, ...) reading of a CMU pronunciation: no R after a vowel
    unless a vowel follows, and an unstressed-style final or pre-consonant ER as a schwa (AH):
    "elevator" EH L AH V EY T ER -> EH L AH V EY T AH, "car" K AA R -> K AA. The dictionary is
    American; espeak-ng's default English voice and most English speakers outside North America
    say the word this way, and forced alignment to the rhotic form alone failed on espeak-ng's
    "elevator" (the whole phrase then counts as not spoken)."""
    out = []
    for i, p in enumerate(phones):
        nxt = phones[i + 1] if i + 1 < len(phones) else None
        follows_vowel = nxt is not None and nxt in VOWELS
        if p == "ER" and not follows_vowel:
            out.append("AH")
        elif p == "R" and i > 0 and phones[i - 1] in VOWELS and not follows_vowel:
            continue
        else:
            out.append(p)
    return out


def _ln(p):
    # pocketsphinx's Python layer returns scores as probabilities; a word whose acoustic likelihood
    # underflows a double is as good as impossible.
    return math.log(p) if p > 0 else -1e9


def load_second():
    """Whisper's scorer, or (None, why) when its packages are absent or do not load."""
    try:
        import whisper_score

        files = whisper_score.model_files()
        if files is None:
            return None, "whisper model packages not installed"
        return whisper_score.WhisperScorer(files), None
    except Exception as e:  # a broken optional install never stops the worker
        return None, f"{type(e).__name__}: {str(e)[:200]}"


class Verifier:
    def __init__(self, extra_dict=None, second=None):
        from pocketsphinx import Decoder, get_model_path

        self.second = second
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
        self.variants_done = set()
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

    def add_variants(self, words):
        """Each word's non-rhotic pronunciation as an alternative (word(n)), once: the alignment
        may take either form, the scores are the aligned phones' as for any pronunciation."""
        for w in words:
            if w in self.variants_done:
                continue
            self.variants_done.add(w)
            base = self.align.lookup_word(w)
            if base is None:
                continue
            known = [base.split()]
            n = 2
            while (alt := self.align.lookup_word(f"{w}({n})")) is not None:
                known.append(alt.split())
                n += 1
            for phones in list(known):
                v = non_rhotic(phones)
                if v and v not in known:
                    self.align.add_word(f"{w}({n})", " ".join(v), True)
                    known.append(v)
                    n += 1

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

    def _phone_scores(self, cut, loop):
        """Per aligned word: its phones as (name, first frame, frames, forced log-likelihood, free
        phone loop's log-likelihood over the same frames); a phone's ratio is (forced - free) / frames."""
        self.align.set_alignment()
        # a second pass for phone boundaries; its search has no word segmentation to read (seg()
        # crashes there), only the alignment
        self.align.reinit_feat()
        self.align.start_utt()
        self.align.process_raw(cut, full_utt=True)
        self.align.end_utt()
        al = self.align.get_alignment()
        if al is None or not loop:
            return None
        lp = [(p.start_frame, p.end_frame, _ln(p.ascore)) for p in loop]
        out = []
        for w in al:
            name = w.name.split("(")[0]
            if name in NOT_WORDS or name.startswith(("[", "+")):
                continue
            ph = []
            for p in w:
                sf, n = p.start, p.duration
                if n <= 0:
                    continue
                forced = p.score * ALIGN_SCORE_SHIFT * LN_BASE
                free = 0.0
                for a, b, sc in lp:
                    ov = min(sf + n - 1, b) - max(sf, a) + 1
                    if ov > 0:
                        free += sc * ov / (b - a + 1)
                ph.append((p.name, sf, n, forced, free))
            out.append((name, w.start, w.start + w.duration, ph))
        return out

    def verify(self, pcm, words, window, phones=False):
        t0 = time.monotonic()
        total = len(pcm) // 2
        start = max(0, int(round(window[0] * SAMPLE_RATE)))
        end = min(total, int(round(window[1] * SAMPLE_RATE)))
        cut = pcm[2 * start : 2 * max(start, end)]
        result = {"ok": True, "aligned": False, "score": None, "second": None, "words": [], "missing": self.missing(words)}
        if result["missing"] or len(cut) // (2 * FRAME_SAMPLES) < MIN_WINDOW_FRAMES:
            result["ms"] = round((time.monotonic() - t0) * 1000)
            return result
        self.add_variants(words)
        if self._aligned(cut, words) is not None:
            loop = self._decode(self.loop, cut)
            per = self._phone_scores(cut, loop)
            if per is not None and [w for w, _s, _e, _p in per] == list(words):
                result["aligned"] = True
                scores = []
                for word, sf, ef, ph in per:
                    r = sum((f - g) / n for _p, _s, n, f, g in ph) / len(ph) if ph else None
                    scores.append(-1e9 if r is None else r)
                    entry = {
                        "word": word,
                        "start": round(window[0] + sf / 100, 2),
                        "end": round(window[0] + ef / 100, 2),
                        "score": None if r is None else round(r, 3),
                    }
                    if phones:  # eval/words_eval.py --dump: the phones behind the score
                        entry["phones"] = [[p, s, n, round(f, 2), round(g, 2)] for p, s, n, f, g in ph]
                    result["words"].append(entry)
                result["score"] = round(min(scores), 3)
                if self.second is not None:
                    second = self.second.word_scores(cut, words)
                    for entry, s in zip(result["words"], second):
                        entry["second"] = round(s, 3)
                    result["second"] = round(min(second), 3)
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
    second, why = load_second()
    if why:
        sys.stderr.write(f"speech worker: no second opinion ({why})\n")
    verifier = Verifier(extra, second)
    import pocketsphinx

    out = sys.stdout
    ready = {"ready": True, "protocol": PROTOCOL, "pocketsphinx": getattr(pocketsphinx, "__version__", "5")}
    ready["second"] = "whisper-base" if second else None
    out.write(json.dumps(ready) + "\n")
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
