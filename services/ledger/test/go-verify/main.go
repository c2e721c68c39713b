// Command go-verify checks the ledger's witnessed checkpoints with Go's reference implementations,
// independently of the TypeScript verifier: golang.org/x/mod/sumdb/note opens each signed note with
// the log's verifier key and the witness's cosignature/v1 key (c2sp.org/tlog-cosignature),
// torchwood parses the C2SP checkpoints, and golang.org/x/mod/sumdb/tlog checks the consistency proof
// between them and a certificate's inclusion proof. Input: one JSON object on stdin (see input);
// output: "ok" and exit 0, or the first failure and exit 1. Used by witness.int.test.ts.
package main

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"filippo.io/torchwood"
	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type input struct {
	LogKey      string   `json:"log_key"`
	WitnessKey  string   `json:"witness_key"`
	Older       string   `json:"older"`
	Newer       string   `json:"newer"`
	Consistency []string `json:"consistency"`
	LeafIndex   int64    `json:"leaf_index"`
	LeafHash    string   `json:"leaf_hash"`
	Inclusion   []string `json:"inclusion"`
}

// cosignatureVerifier is a note.Verifier for a cosignature/v1 key: name+hash+base64(0x04 || Ed25519 key).
type cosignatureVerifier struct {
	name string
	hash uint32
	key  ed25519.PublicKey
}

func (v *cosignatureVerifier) Name() string    { return v.name }
func (v *cosignatureVerifier) KeyHash() uint32 { return v.hash }
func (v *cosignatureVerifier) Verify(msg, sig []byte) bool {
	if len(sig) != 8+ed25519.SignatureSize {
		return false
	}
	t := binary.BigEndian.Uint64(sig)
	m := fmt.Sprintf("cosignature/v1\ntime %d\n%s", t, msg)
	return ed25519.Verify(v.key, []byte(m), sig[8:])
}

func newCosignatureVerifier(vkey string) (*cosignatureVerifier, error) {
	parts := strings.SplitN(vkey, "+", 3)
	if len(parts) != 3 {
		return nil, errors.New("malformed witness key")
	}
	hash, err := strconv.ParseUint(parts[1], 16, 32)
	if err != nil {
		return nil, err
	}
	raw, err := base64.StdEncoding.DecodeString(parts[2])
	if err != nil || len(raw) != 33 || raw[0] != 0x04 {
		return nil, errors.New("witness key is not a cosignature/v1 key")
	}
	h := sha256.Sum256(append([]byte(parts[0]+"\n"), raw...))
	if binary.BigEndian.Uint32(h[:4]) != uint32(hash) {
		return nil, errors.New("witness key hash does not match")
	}
	return &cosignatureVerifier{name: parts[0], hash: uint32(hash), key: ed25519.PublicKey(raw[1:])}, nil
}

func hashes(in []string) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(in))
	for i, s := range in {
		h, err := tlog.ParseHash(s)
		if err != nil {
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}

// open verifies both signatures of a cosigned checkpoint and parses it.
func open(text string, log note.Verifier, witness note.Verifier) (torchwood.Checkpoint, error) {
	n, err := note.Open([]byte(text), note.VerifierList(log, witness))
	if err != nil {
		return torchwood.Checkpoint{}, err
	}
	signed := map[string]bool{}
	for _, s := range n.Sigs {
		signed[s.Name] = true
	}
	if !signed[log.Name()] || !signed[witness.Name()] {
		return torchwood.Checkpoint{}, fmt.Errorf("checkpoint lacks a signature: verified %v", signed)
	}
	c, err := torchwood.ParseCheckpoint(n.Text)
	if err != nil {
		return c, err
	}
	if c.Origin != log.Name() {
		return c, fmt.Errorf("origin %q is not the log key's name %q", c.Origin, log.Name())
	}
	return c, nil
}

func run() error {
	var in input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		return err
	}
	logV, err := note.NewVerifier(in.LogKey)
	if err != nil {
		return fmt.Errorf("log key: %v", err)
	}
	wV, err := newCosignatureVerifier(in.WitnessKey)
	if err != nil {
		return fmt.Errorf("witness key: %v", err)
	}
	older, err := open(in.Older, logV, wV)
	if err != nil {
		return fmt.Errorf("older checkpoint: %v", err)
	}
	newer, err := open(in.Newer, logV, wV)
	if err != nil {
		return fmt.Errorf("newer checkpoint: %v", err)
	}
	proof, err := hashes(in.Consistency)
	if err != nil {
		return err
	}
	if err := tlog.CheckTree(proof, newer.N, newer.Hash, older.N, older.Hash); err != nil {
		return fmt.Errorf("consistency %d -> %d: %v", older.N, newer.N, err)
	}
	leaf, err := tlog.ParseHash(in.LeafHash)
	if err != nil {
		return err
	}
	incl, err := hashes(in.Inclusion)
	if err != nil {
		return err
	}
	if err := tlog.CheckRecord(incl, newer.N, newer.Hash, in.LeafIndex, leaf); err != nil {
		return fmt.Errorf("inclusion of leaf %d in %d: %v", in.LeafIndex, newer.N, err)
	}
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Println("ok")
}
