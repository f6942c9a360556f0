//go:build xcrypto

// What golang.org/x/crypto adds to the standard library's algorithms:
// ChaCha20-Poly1305, BLAKE2b-512, SHA3-256 and X25519 (pk.go). Compiled
// with the tag xcrypto, in GOPATH mode on Debian's golang-golang-x-crypto-dev (make does,
// offline), since no module can be fetched.
package main

import (
	"crypto/rand"
	"hash"

	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/chacha20poly1305"
	"golang.org/x/crypto/curve25519"
	"golang.org/x/crypto/sha3"
)

// xcryptoVersion is set at link time (-X main.xcryptoVersion=...) to the
// Debian package's version; GOPATH mode records none.
var xcryptoVersion = "version unknown"

func init() {
	aeads["chacha20-poly1305"] = aeadDef{chacha20poly1305.New, "chacha20poly1305.New(key)"}
	hashes["blake2b-512"] = hashDef{func() hash.Hash { h, _ := blake2b.New512(nil); return h }, "blake2b.New512(nil)"}
	hashes["sha3-256"] = hashDef{sha3.New256, "sha3.New256()"}
	pkAlgs["x25519"] = pkDef{[]string{"derive", "keygen"}, map[string]string{
		"derive": "curve25519.X25519(priv, peer)",
		"keygen": "rand.Read(priv); curve25519.X25519(priv, curve25519.Basepoint)",
	}}
	x25519Derive = curve25519.X25519
	// A new private key is 32 random bytes (X25519 clamps it itself).
	x25519Keygen = func(out []byte) error {
		if _, err := rand.Read(out[:32]); err != nil {
			return err
		}
		pub, err := curve25519.X25519(out[:32], curve25519.Basepoint)
		copy(out[32:], pub)
		return err
	}
	library += "; golang.org/x/crypto " + xcryptoVersion + " (chacha20-poly1305, blake2b-512, sha3-256, x25519)"
	module += ", golang.org/x/crypto"
}
