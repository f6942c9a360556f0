//go:build xcrypto

// What golang.org/x/crypto adds to the standard library's algorithms:
// ChaCha20-Poly1305, BLAKE2b-512 and SHA3-256. Compiled with the tag
// xcrypto, in GOPATH mode on Debian's golang-golang-x-crypto-dev (make does,
// offline), since no module can be fetched.
package main

import (
	"hash"

	"golang.org/x/crypto/blake2b"
	"golang.org/x/crypto/chacha20poly1305"
	"golang.org/x/crypto/sha3"
)

// xcryptoVersion is set at link time (-X main.xcryptoVersion=...) to the
// Debian package's version; GOPATH mode records none.
var xcryptoVersion = "version unknown"

func init() {
	aeads["chacha20-poly1305"] = aeadDef{chacha20poly1305.New, "chacha20poly1305.New(key)"}
	hashes["blake2b-512"] = hashDef{func() hash.Hash { h, _ := blake2b.New512(nil); return h }, "blake2b.New512(nil)"}
	hashes["sha3-256"] = hashDef{sha3.New256, "sha3.New256()"}
	library += "; golang.org/x/crypto " + xcryptoVersion + " (chacha20-poly1305, blake2b-512, sha3-256)"
	module += ", golang.org/x/crypto"
}
