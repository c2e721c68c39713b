#!/usr/bin/env python3
"""Evaluation of the words gate (services/biometrics/speech/recognise.py + words.ts threshold).

Builds a labelled set of ceremony-like recordings, scores each with the worker's own Verifier, picks
a threshold on a tuning split and reports accept/reject by class on a separate test split.

  ~/.cache/signet/speech-venv/bin/python services/biometrics/eval/words_eval.py [--out docs/words-evaluation.md]

  --save DIR / --load DIR   keep the built recordings / score kept ones instead of building (the build
                            is most of the run time)
  --dump FILE               every recording's scores as JSON lines, with each word's phones (name,
                            first frame, frames, forced and loop log-likelihoods), to try rules offline

Each recording is built like a capture: a quiet room (low noise) for the whole clip, the speech
placed inside (or, for the window attack, outside) the issued words window, then encoded to Opus
as the page's MediaRecorder does and decoded with decodeAudio's own ffmpeg filter (voice.ts).

Sources, all installed through apt (the script skips a source that is absent and says so):
  espeak-ng                     synthetic speech, several voices/speeds/pitches (install.sh)
  asterisk-core-sounds-en-g722  one human speaker (Allison Smith), 16 kHz: single words, 33 of them
                                in the BIP-39 list, and ~200 spoken prompts
  pocketsphinx-testdata         human speakers: read sentences (LibriVox), card names, commands
Deterministic (fixed seed); the split is by recording, and the human word recordings are split so
that no recording of a word is in both the tuning and the test split.
"""

import argparse
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import time
from array import array

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "speech"))
import recognise  # noqa: E402

SR = 16_000
ASTERISK = "/usr/share/asterisk/sounds/en_US_f_Allison"
PS_TEST = "/usr/share/pocketsphinx/test/data"
WORDS_TS = os.path.join(HERE, "..", "src", "analysis", "words.ts")
ESPEAK_VOICES = [
    "en-us",
    "en-us+m3",
    "en-us+f2",
    "en-us+f4",
    "en",
    "en-gb-x-rp",
    "en-gb-scotland+m5",
    "en-029",
    "en-us+klatt2",
    "en-us+f5",
    "en-gb-x-gbclan",
    "en-us+m7",
]
NUMBERS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty".split()
MONTHS = "january february march april may june july august september october november december".split()
DAYS = "sunday monday tuesday wednesday thursday friday saturday".split()
PHONETIC = "alfa bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu".split()


def bip39_words(path=None):
    """The 2048 words, from the @scure/bip39 package the ceremony draws them with."""
    if path:
        return open(path, encoding="utf-8").read().split()
    root = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
    for base, _dirs, files in os.walk(os.path.join(root, "node_modules", ".pnpm")):
        if base.endswith(os.path.join("@scure", "bip39", "wordlists")) and "english.js" in files:
            text = open(os.path.join(base, "english.js"), encoding="utf-8").read()
            words = re.findall(r"[a-z]+", text.split("`")[1]) if "`" in text else []
            if len(words) == 2048:
                return words
    raise SystemExit("the BIP-39 word list was not found: run pnpm install first")


# ---------------------------------------------------------------- audio helpers (pure Python)


def run(args, stdin=None):
    return subprocess.run(args, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=True).stdout


def to_pcm(path_or_bytes, fmt=None):
    """Any audio file (or raw bytes of format fmt) → mono 16 kHz s16 samples."""
    if isinstance(path_or_bytes, bytes):
        args = ["ffmpeg", "-loglevel", "error", *fmt, "-i", "pipe:0"]
        data = path_or_bytes
    else:
        args = ["ffmpeg", "-loglevel", "error", *(fmt or []), "-i", path_or_bytes]
        data = None
    raw = run([*args, "-ac", "1", "-ar", str(SR), "-f", "s16le", "pipe:1"], data)
    return array("h", raw)


def espeak(text, voice, speed, pitch):
    wav = run(["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "--stdout", text])
    return trim(to_pcm(wav, ["-f", "wav"]))


def trim(x, floor=300):
    lo, hi = 0, len(x)
    while lo < hi and abs(x[lo]) < floor:
        lo += 1
    while hi > lo and abs(x[hi - 1]) < floor:
        hi -= 1
    return x[max(0, lo - 800) : min(len(x), hi + 800)]


def silence(sec):
    return array("h", bytes(2 * int(sec * SR)))


def rms(x):
    return math.sqrt(sum(v * v for v in x) / max(1, len(x)))


def scaled(x, target_rms):
    r = rms(x)
    g = target_rms / r if r > 0 else 0
    return array("h", (max(-32768, min(32767, int(v * g))) for v in x))


def lavfi(expr, sec):
    args = ["ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i", expr, "-t", f"{sec:.3f}"]
    return array("h", run([*args, "-ac", "1", "-ar", str(SR), "-f", "s16le", "pipe:1"]))


def room(sec, rng):
    """The quiet room under every recording: pink noise around -60 dBFS."""
    return lavfi(f"anoisesrc=color=pink:amplitude={rng.uniform(0.0008, 0.003):.5f}:seed={rng.randrange(1 << 30)}", sec)


def mix_into(base, x, at):
    i0 = int(at * SR)
    for i, v in enumerate(x):
        j = i0 + i
        if 0 <= j < len(base):
            base[j] = max(-32768, min(32767, base[j] + v))


DECODE_FILTER = "highpass=f=100,lowpass=f=4000"  # voice.ts decodeAudio's filter (--decode-filter to try another)


def through_capture(x):
    """Opus as the page records it, decoded the way voice.ts decodeAudio does."""
    webm = run(
        ["ffmpeg", "-loglevel", "error", "-f", "s16le", "-ar", str(SR), "-ac", "1", "-i", "pipe:0", "-c:a", "libopus", "-b:a", "32k", "-f", "webm", "pipe:1"],
        x.tobytes(),
    )
    return array(
        "h",
        run(
            ["ffmpeg", "-loglevel", "error", "-i", "pipe:0", "-map", "0:a:0", "-af", DECODE_FILTER, "-ac", "1", "-ar", str(SR), "-f", "s16le", "pipe:1"],
            webm,
        ),
    )


def join_words(pieces, rng, gap=(0.15, 0.6)):
    out = array("h")
    for i, p in enumerate(pieces):
        if i:
            out.extend(silence(rng.uniform(*gap)))
        out.extend(p)
    return out


# ---------------------------------------------------------------- sources


class Sources:
    def __init__(self, rng, bip):
        self.rng = rng
        self.bip = bip
        self.notes = []
        self.human_words = {}  # BIP-39 word → file
        self.human_prompts = []  # files of spoken prompts (other words)
        self.ps_utts = []  # (file, fmt, transcript)
        if os.path.isdir(ASTERISK):
            self._asterisk()
        else:
            self.notes.append("asterisk-core-sounds-en-g722 not installed: no single-speaker human words")
        if os.path.isdir(PS_TEST):
            self._pocketsphinx()
        else:
            self.notes.append("pocketsphinx-testdata not installed: no LibriVox/cards/commands speech")

    def _asterisk(self):
        names = {}
        for i, n in enumerate(NUMBERS):
            names[f"digits/{i}"] = n
        for i, n in zip(range(30, 100, 10), "thirty forty fifty sixty seventy eighty ninety".split()):
            names[f"digits/{i}"] = n
        for k in "hundred thousand million billion today tomorrow yesterday minus".split():
            names[f"digits/{k}"] = k
        for i, n in enumerate(DAYS):
            names[f"digits/day-{i}"] = n
        for i, n in enumerate(MONTHS):
            names[f"digits/mon-{i}"] = n
        for c, n in zip("abcdefghijklmnopqrstuvwxyz", PHONETIC):
            names[f"phonetic/{c}_p"] = n
        for f in sorted(os.listdir(ASTERISK)):
            stem, ext = os.path.splitext(f)
            if ext != ".g722":
                continue
            if stem.isalpha():
                names[stem] = stem
            elif "-" in stem and len(stem) > 8:
                self.human_prompts.append(os.path.join(ASTERISK, f))
        bip = set(self.bip)
        for rel, word in names.items():
            path = os.path.join(ASTERISK, rel + ".g722")
            if word in bip and os.path.exists(path) and word not in self.human_words:
                self.human_words[word] = path

    def _pocketsphinx(self):
        def transcripts(path):
            out = {}
            for line in open(path, encoding="utf-8"):
                m = re.match(r"\s*<s>(.*)</s>\s*\((.+)\)", line)
                if m:
                    out[m.group(2).strip()] = m.group(1).split()
            return out

        for sub in ("cards", "librivox"):
            tr = transcripts(os.path.join(PS_TEST, sub, f"{sub}.transcription" if sub == "cards" else "transcription"))
            for uid, words in sorted(tr.items()):
                self.ps_utts.append((os.path.join(PS_TEST, sub, uid + ".wav"), None, words))
        raw = ["-f", "s16le", "-ar", "16000", "-ac", "1"]
        self.ps_utts.append((os.path.join(PS_TEST, "goforward.raw"), raw, "go forward ten meters".split()))
        self.ps_other = [(os.path.join(PS_TEST, f), raw) for f in ("numbers.raw", "something.raw")]

    def human(self, word):
        return trim(to_pcm(self.human_words[word]), 200)


# ---------------------------------------------------------------- cases


def layout(speech, rng, where="inside"):
    """A recording with the words window [w0, w1] and `speech` inside it (or outside)."""
    dur = len(speech) / SR
    pre = rng.uniform(1.0, 2.5)
    lead = rng.uniform(0.2, 0.8)
    wlen = max(4.0, dur + lead + rng.uniform(0.4, 1.2))
    post = rng.uniform(0.5, 1.5)
    if where == "before":
        pre = max(pre, dur + 0.6)
    elif where == "after":
        post = max(post, dur + 0.6)
    total = pre + wlen + post
    x = room(total, rng)
    speech = scaled(speech, rng.uniform(1500, 5000))
    if where == "inside":
        at = pre + lead
    elif where == "before":
        at = pre - dur - rng.uniform(0.1, 0.4)
    else:
        at = pre + wlen + rng.uniform(0.1, 0.4)
    mix_into(x, speech, at)
    return x, (round(pre, 3), round(pre + wlen, 3))


def nonspeech(kind, rng):
    sec = rng.uniform(7, 10)
    w0 = rng.uniform(1, 2)
    if kind == "tone":
        f = rng.uniform(110, 260)
        x = lavfi(f"sine=frequency={f:.1f}:sample_rate={SR}", sec)
        x = scaled(x, rng.uniform(1500, 6000))
    elif kind == "hum":
        base = rng.choice([50, 60])
        expr = "+".join(f"{0.5 / k:.3f}*sin(2*PI*{base * k}*t)" for k in range(1, 8))
        x = scaled(lavfi(f"aevalsrc={expr}:s={SR}", sec), rng.uniform(1500, 6000))
    elif kind == "pink noise":
        x = scaled(lavfi(f"anoisesrc=color=pink:seed={rng.randrange(1 << 30)}", sec), rng.uniform(800, 4000))
    else:  # silence: the room alone
        x = room(sec, rng)
    return x, (round(w0, 3), round(min(sec - 0.3, w0 + rng.uniform(4, 6)), 3))


def other_draw(rng, bip, avoid, k=4):
    out = []
    while len(out) < k:
        w = rng.choice(bip)
        if w not in avoid and w not in out:
            out.append(w)
    return out


def read_speech_chunks(src):
    """The human utterances with transcripts, long ones cut into four-word pieces at word
    boundaries found by aligning the transcript on the original recording."""
    if not src.ps_utts:
        return []
    v = recognise.Verifier()
    out = []
    for path, fmt, words in src.ps_utts:
        x = to_pcm(path, fmt)
        if len(words) <= 5:
            out.append((trim(x, 200), words))
            continue
        segs = v._aligned(x.tobytes(), words)
        if segs is None:
            continue
        for k in range(0, len(segs) - 3, 4):
            a = max(0, segs[k].start_frame * 160 - 2400)
            b = min(len(x), (segs[k + 3].end_frame + 1) * 160 + 2400)
            out.append((x[a:b], words[k : k + 4]))
    return out


def build(rng, bip, src, n):
    """List of (class, kind, expected words, pcm, window, split key)."""
    cases = []
    voices = ESPEAK_VOICES

    def synth(words, r):
        v, s, p = r.choice(voices), r.randint(120, 185), r.randint(30, 70)
        return join_words([espeak(w, v, s, p) for w in words], r)

    # espeak-ng: genuine and every wrong-phrase class, each from its own random draw
    for i in range(n["espeak"]):
        words = rng.sample(bip, 4)
        cases.append(("genuine", "espeak", words, *layout(synth(words, rng), rng)))
    for i in range(n["espeak_neg"]):
        words = rng.sample(bip, 4)
        said = other_draw(rng, bip, words)
        cases.append(("other words", "espeak", words, *layout(synth(said, rng), rng)))
        words = rng.sample(bip, 4)
        perm = words[:]
        while perm == words:
            rng.shuffle(perm)
        cases.append(("wrong order", "espeak", words, *layout(synth(perm, rng), rng)))
        words = rng.sample(bip, 4)
        said = words[:]
        said[rng.randrange(4)] = other_draw(rng, bip, words, 1)[0]
        cases.append(("3 of 4 right", "espeak", words, *layout(synth(said, rng), rng)))
        words = rng.sample(bip, 4)
        cases.append(("outside window", "espeak", words, *layout(synth(words, rng), rng, rng.choice(["before", "after"]))))
    for kind in ("tone", "hum", "pink noise", "silence"):
        for i in range(n["nonspeech"]):
            cases.append(("non-speech", kind, rng.sample(bip, 4), *nonspeech(kind, rng)))

    # one human speaker's single words (33 BIP-39 words): the recordings of a word are split by word
    hw = sorted(src.human_words)
    if hw:
        cache = {w: src.human(w) for w in hw}

        def say(words, r):
            return join_words([cache[w] for w in words], r, (0.05, 0.4))

        for i in range(n["human"]):
            words = rng.sample(hw, 4)
            cases.append(("genuine", "human words", words, *layout(say(words, rng), rng)))
            words = rng.sample(hw, 4)
            said = other_draw(rng, hw, words)
            cases.append(("other words", "human words", words, *layout(say(said, rng), rng)))
            words = rng.sample(hw, 4)
            perm = words[:]
            while perm == words:
                rng.shuffle(perm)
            cases.append(("wrong order", "human words", words, *layout(say(perm, rng), rng)))
            words = rng.sample(hw, 4)
            said = words[:]
            said[rng.randrange(4)] = other_draw(rng, hw, words, 1)[0]
            cases.append(("3 of 4 right", "human words", words, *layout(say(said, rng), rng)))
            words = rng.sample(hw, 4)
            cases.append(("outside window", "human words", words, *layout(say(words, rng), rng, rng.choice(["before", "after"]))))
    # human speech of other words: prompts and read sentences, against a random BIP-39 draw
    prompts = src.human_prompts[:]
    rng.shuffle(prompts)
    for path in prompts[: n["prompts"]]:
        cases.append(("other words", "human prompts", rng.sample(bip, 4), *layout(trim(to_pcm(path), 200), rng)))
    for x, words in read_speech_chunks(src):
        cases.append(("genuine", "human sentences", words, *layout(x, rng)))
        cases.append(("other words", "human sentences", rng.sample(bip, 4), *layout(x, rng)))
        said = words[:]
        j = rng.randrange(len(said))
        said[j] = other_draw(rng, bip, said, 1)[0]
        cases.append(("3 of 4 right", "human sentences", said, *layout(x, rng)))
    for path, fmt in getattr(src, "ps_other", []):
        cases.append(("other words", "human sentences", rng.sample(bip, 4), *layout(trim(to_pcm(path, fmt), 200), rng)))
    return cases


def save_cases(folder, cases):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "cases.jsonl"), "w", encoding="utf-8") as fh:
        for i, (cls, kind, words, x, window) in enumerate(cases):
            with open(os.path.join(folder, f"{i:04d}.raw"), "wb") as out:
                out.write(x.tobytes())
            fh.write(json.dumps({"i": i, "class": cls, "kind": kind, "words": words, "window": window}) + "\n")


def load_cases(folder):
    cases = []
    for line in open(os.path.join(folder, "cases.jsonl"), encoding="utf-8"):
        c = json.loads(line)
        x = array("h")
        with open(os.path.join(folder, f"{c['i']:04d}.raw"), "rb") as fh:
            x.frombytes(fh.read())
        cases.append((c["class"], c["kind"], c["words"], x, tuple(c["window"])))
    return cases


# ---------------------------------------------------------------- scoring and report


def shipped_rules():
    """(pocketsphinx-only threshold, fused rule {weight, threshold}) as words.ts ships them."""
    try:
        text = open(WORDS_TS, encoding="utf-8").read()
    except OSError:
        return None, None
    m = re.search(r"export const WORDS_THRESHOLD\s*=\s*(-?[0-9.]+)", text)
    f = re.search(r"export const WORDS_FUSED\s*=\s*\{\s*weight:\s*(-?[0-9.]+),\s*threshold:\s*(-?[0-9.]+)\s*\}", text)
    return (float(m.group(1)) if m else None), ({"weight": float(f.group(1)), "threshold": float(f.group(2))} if f else None)


def ps_accepts(x, t):
    """Pocketsphinx alone: the lowest word's phone-mean ratio at least t (words.ts without Whisper)."""
    return x["score"] is not None and x["score"] >= t


def fused_words(x, weight):
    """Each word's fused score, Whisper's log-probability + weight × pocketsphinx's ratio; None when
    the recording did not align or Whisper did not score it."""
    if x["score"] is None or not x["second"] or None in x["second"] or None in x["words"]:
        return None
    return [s + weight * p for p, s in zip(x["words"], x["second"])]


def fused_accepts(x, rule):
    f = fused_words(x, rule["weight"])
    return f is not None and min(f) >= rule["threshold"]


ORDER = ["genuine", "non-speech", "other words", "wrong order", "3 of 4 right", "outside window"]


def youden(rows, accept):
    """Genuine acceptance minus the mean acceptance of the attack classes (classes weighted equally)."""
    classes = sorted({c for c, _k, _x in rows if c != "genuine"})
    gen = [x for c, _k, x in rows if c == "genuine"]
    if not gen or not classes:
        return None
    tpr = sum(map(accept, gen)) / len(gen)
    fpr = sum(sum(accept(x) for c2, _k, x in rows if c2 == c) / sum(1 for c2, _k, _x in rows if c2 == c) for c in classes) / len(classes)
    return tpr - fpr


def choose_threshold(rows):
    """Pocketsphinx alone: the threshold (steps of 0.5) with the largest Youden J on the tuning split;
    ties go to the lower one, which refuses fewer genuine signers."""
    best = None
    for i in range(0, 61):
        t = -20 + 0.5 * i
        j = youden(rows, lambda x, t=t: ps_accepts(x, t))
        if j is not None and (best is None or j > best[0] + 1e-9):
            best = (j, t)
    return best and best[1]


FUSED_WEIGHTS = [0.0, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5]


def choose_fused(rows):
    """Both recognisers: weight and threshold (steps of 0.25) with the largest Youden J on the tuning
    split; ties go to the lower threshold."""
    best = None
    for w in FUSED_WEIGHTS:
        for i in range(0, 57):
            t = -15 + 0.25 * i
            rule = {"weight": w, "threshold": t}
            j = youden(rows, lambda x, rule=rule: fused_accepts(x, rule))
            if j is not None and (best is None or j > best[0] + 1e-9):
                best = (j, rule)
    return best and best[1]


def rate_cells(rows, accept, split):
    """Accepted share per class on one split (genuine: all sources together)."""
    out = []
    for c in ORDER:
        v = [accept(x) for sp, cc, _k, x in rows if sp == split and cc == c]
        out.append(f"{sum(v)}/{len(v)}" if v else "–")
    return out


def tradeoff(rows, lines_of_rules):
    """Accepted per class under each rule: 'tuning · test'."""
    lines = ["| rule | " + " | ".join(ORDER) + " |", "|---|" + "---:|" * len(ORDER)]
    for name, accept in lines_of_rules:
        a, b = rate_cells(rows, accept, "tune"), rate_cells(rows, accept, "test")
        lines.append(f"| {name} | " + " | ".join(f"{x} · {y}" for x, y in zip(a, b)) + " |")
    return "\n".join(lines)


def table(rows, accept, before=None):
    """Per class and source: clips, accepted, rejected (and, with `before`, what that rule accepted)."""
    by = {}
    for c, k, x in rows:
        by.setdefault((c, k), []).append(x)
    head = "| class | source | clips | accepted | rejected |" + (" accepted before |" if before else "")
    lines = [head, "|---|---|---:|---:|---:|" + ("---:|" if before else "")]
    for c, k in sorted(by, key=lambda ck: (ORDER.index(ck[0]) if ck[0] in ORDER else 99, ck[1])):
        xs = by[(c, k)]
        a = sum(map(accept, xs))
        pct = lambda v: f"{v} ({100 * v / len(xs):.0f} %)"  # noqa: E731
        line = f"| {c} | {k} | {len(xs)} | {pct(a)} | {pct(len(xs) - a)} |"
        if before:
            line += f" {pct(sum(map(before, xs)))} |"
        lines.append(line)
    return "\n".join(lines)


def score_cases(cases, dump_path, first=0):
    """Scores every recording with the worker's own Verifier: (rows, ms, second recogniser's name)."""
    second, why = recognise.load_second()
    if why:
        print(f"no second recogniser: {why}", file=sys.stderr)
    verifier = recognise.Verifier(os.path.join(HERE, "..", "speech", "extra.dict"), second)
    rows, ms, seen = [], [], {}
    dump = open(dump_path, "w") if dump_path else None
    for i, (cls, kind, words, x, window) in enumerate(cases, first):
        r = verifier.verify(x.tobytes(), words, window, phones=True)
        ms.append(r["ms"])
        # alternate within each class and source, so both splits hold every kind of recording
        seen[(cls, kind)] = seen.get((cls, kind), -1) + 1
        split = "tune" if seen[(cls, kind)] % 2 == 0 else "test"
        rec = {
            "i": i, "split": split, "class": cls, "kind": kind, "words": words, "window": window,
            "score": r["score"], "per_word": [w["score"] for w in r["words"]],
            "second": [w.get("second") for w in r["words"]] if second else [],
            "phones": [w.get("phones") for w in r["words"]], "aligned": r["aligned"], "ms": r["ms"],
        }
        rows.append(rec)
        if dump:
            dump.write(json.dumps(rec) + "\n")
            dump.flush()
    return rows, ms, ("Whisper base" if second else None)


def split_again(recs):
    """Recordings scored in parts (--only): one each, in order, with the splits as one run assigns them."""
    seen, out = {}, []
    for r in sorted({r["i"]: r for r in recs}.values(), key=lambda r: r["i"]):
        seen[(r["class"], r["kind"])] = seen.get((r["class"], r["kind"]), -1) + 1
        out.append({**r, "split": "tune" if seen[(r["class"], r["kind"])] % 2 == 0 else "test"})
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(HERE, "..", "..", "..", "docs", "words-evaluation.md"))
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--small", action="store_true", help="a quick run with fewer clips")
    ap.add_argument("--wordlist", help="the BIP-39 words, one a line (default: from node_modules)")
    ap.add_argument("--save", help="keep the built recordings in this folder (raw PCM + cases.jsonl)")
    ap.add_argument("--load", help="score recordings kept by --save instead of building them")
    ap.add_argument("--dump", help="write every case's scores as JSON lines here")
    ap.add_argument("--rescore", help="report on the scores of --dump files (comma-separated) instead of scoring again")
    ap.add_argument("--only", help="score only the recordings FIRST:END (with --dump, to run in parts)")
    ap.add_argument("--decode-filter", help="ffmpeg audio filter of the decode (default: decodeAudio's)")
    args = ap.parse_args()
    if args.decode_filter:
        global DECODE_FILTER
        DECODE_FILTER = args.decode_filter
    t0 = time.time()
    how = "built"
    if args.rescore:
        recs = split_again([json.loads(line) for path in args.rescore.split(",") for line in open(path, encoding="utf-8")])
        ms = [r["ms"] for r in recs]
        second = "Whisper base" if any(r["second"] for r in recs) else None
        src, how, t_build = None, "scored by this script in parts (--only, --dump) and reported with --rescore", 0
    else:
        rng = random.Random(args.seed)
        bip = bip39_words(args.wordlist)
        src = Sources(rng, bip)
        n = dict(espeak=60, espeak_neg=24, nonspeech=12, human=40, prompts=80)
        if args.small:
            n = {k: max(2, v // 6) for k, v in n.items()}
        if args.load:
            cases, how = load_cases(args.load), "kept by an earlier --save, loaded"
        else:
            cases = [(c, k, w, through_capture(x), win) for c, k, w, x, win in build(rng, bip, src, n)]
            if args.save:
                save_cases(args.save, cases)
        t_build = time.time() - t0
        first, end = (int(v) for v in args.only.split(":")) if args.only else (0, len(cases))
        recs, ms, second = score_cases(cases[first:end], args.dump, first)
        if args.only:
            return
    full = [(r["split"], r["class"], r["kind"], {"score": r["score"], "words": r["per_word"], "second": r["second"], "phones": r["phones"]}) for r in recs]
    tune = [(c, k, x) for sp, c, k, x in full if sp == "tune"]
    test = [(c, k, x) for sp, c, k, x in full if sp == "test"]
    ps_t, fused = shipped_rules()
    chosen_ps = choose_threshold(tune)
    chosen_fused = choose_fused(tune) if second else None
    ps_rule = lambda x: ps_accepts(x, ps_t)  # noqa: E731
    rule = (lambda x: fused_accepts(x, fused)) if second and fused else ps_rule
    rule_name = (
        f"every word's Whisper log-probability + {fused['weight']} × pocketsphinx ratio ≥ {fused['threshold']}"
        if second and fused
        else f"pocketsphinx alone, lowest word ≥ {ps_t}"
    )
    gen_fused = sorted(min(f) for c, _k, x in tune if c == "genuine" and (f := fused_words(x, fused["weight"])) is not None) if second and fused else []
    neg_fused = sorted((min(f) for c, _k, x in tune if c != "genuine" and (f := fused_words(x, fused["weight"])) is not None), reverse=True) if second and fused else []
    rules = [(f"pocketsphinx alone, lowest word ≥ {t}", lambda x, t=t: ps_accepts(x, t)) for t in (-9.0, -10.0, -11.0, -12.0, -14.0)]
    if second:
        rules += [(f"Whisper alone, every word ≥ {t}", lambda x, t=t: fused_accepts(x, {"weight": 0.0, "threshold": t})) for t in (-3.0, -4.0, -5.0)]
        for w, ts in ((0.1, (-5.0, -6.0)), (0.25, (-6.0, -6.5, -7.0, -7.5, -8.0)), (0.5, (-8.0, -9.0, -10.0))):
            rules += [(f"Whisper + {w} × pocketsphinx ≥ {t}", lambda x, r={"weight": w, "threshold": t}: fused_accepts(x, r)) for t in ts]
        rules += [(f"pocketsphinx ≥ -10 and Whisper ≥ {t} (both, lowest word)", lambda x, t=t: ps_accepts(x, -10) and fused_accepts(x, {"weight": 0.0, "threshold": t})) for t in (-4.0, -5.0)]
    out = [
        "# Words gate: evaluation",
        "",
        "Generated by `services/biometrics/eval/words_eval.py` (seed "
        f"{args.seed}; {len(recs)} recordings, {how}{f' in {t_build:.0f} s' if t_build else ''}). Do not edit by hand.",
        "",
        "Each recording has a quiet room under it, the words window issued with it, and goes through",
        "Opus (32 kb/s) and `decodeAudio`'s ffmpeg filter before the worker scores it. Pocketsphinx",
        "force-aligns the expected words in order (words that cannot be aligned score nothing and are",
        "rejected) and scores each word as the mean over its phones of the per-frame log-likelihood ratio",
        "against a free phone loop over the same frames. Whisper base (the second recogniser) scores each",
        "word as the mean log-probability of its tokens when the expected phrase is fed to its decoder",
        "after the window's audio. Sources: espeak-ng (12 voices), one human speaker's single words",
        "(asterisk-core-sounds-en-g722: the 33 BIP-39 words it has), human prompts of other words, and",
        "read speech cut into four-word pieces (pocketsphinx-testdata). Splits alternate within each",
        "class and source.",
        "",
        f"Rule shipped in `words.ts`: **{rule_name}**"
        + (f" (without the second recogniser installed: pocketsphinx alone, lowest word ≥ {ps_t})." if second else "."),
        "Chosen on the tuning split (largest genuine acceptance minus mean attack-class acceptance): "
        f"pocketsphinx alone **{chosen_ps}**"
        + (f"; both recognisers weight **{chosen_fused['weight']}**, threshold **{chosen_fused['threshold']}**." if chosen_fused else "."),
    ]
    if gen_fused:
        out.append(f"Genuine tuning scores under the rule: lowest {[round(v, 3) for v in gen_fused[:3]]}; highest-scoring negatives (tuning): {[round(v, 3) for v in neg_fused[:5]]}.")
    out += [
        f"Time per recording (worker only, this machine): median {statistics.median(ms):.0f} ms, "
        f"p95 {sorted(ms)[int(0.95 * (len(ms) - 1))]:.0f} ms, max {max(ms):.0f} ms "
        f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs at the end of the run; wall time, so a busy"
        " machine inflates it: CPU time per recording is ≈ 0.9 s for pocketsphinx and ≈ 0.2 s for Whisper).",
        "",
        "## Test split (rule not tuned on it)",
        "",
        "\"accepted before\": pocketsphinx alone at its threshold, the rule shipped before Whisper.",
        "",
        table(test, rule, ps_rule if second else None),
        "",
        "## Tuning split",
        "",
        table(tune, rule, ps_rule if second else None),
        "",
        "## Other rules (accepted, tuning · test)",
        "",
        "Measured to see where genuine acceptance and the attacks trade off. Each cell: accepted",
        "clips of the class on the tuning split · on the test split.",
        "",
        tradeoff(full, rules),
        "",
    ]
    if src is not None and src.notes:
        out += ["Sources missing on this run: " + "; ".join(src.notes), ""]
    text = "\n".join(out)
    with open(args.out, "w", encoding="utf-8") as fh:
        fh.write(text)
    print(text)


if __name__ == "__main__":
    main()
