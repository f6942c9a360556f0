// Public-key cells of the Go worker (../PROTOCOL.md, "Public-key cells").
//
// The standard library of Go 1.19 gives RSA (PKCS #1 v1.5 and PSS signing a
// digest), ECDSA on P-256, P-384 and P-521 (SignASN1 on a digest, DER
// output), Ed25519 and, through crypto/elliptic's ScalarMult, ECDH on P-256
// and P-384 (Go 1.19 has no crypto/ecdh). X25519 is golang.org/x/crypto's
// curve25519 (xcrypto.go adds it). Keys are parsed from the request's DER
// (x509.ParsePKCS8PrivateKey, ParsePKIXPublicKey) before the timed loop;
// Go 1.19's x509 has no X25519 keys, so those come from their raw forms.
// The RNG is crypto/rand.Reader, the library's own (getrandom). Every call
// allocates its output: there is no reuse call.
package main

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// What the request's "pk" object carries (hex strings; absent: empty).
type pkRequest struct {
	Private    string `json:"private"`
	Public     string `json:"public"`
	PrivateRaw string `json:"private_raw"`
	PublicRaw  string `json:"public_raw"`
	Peer       string `json:"peer"`
	PeerRaw    string `json:"peer_raw"`
	Digest     string `json:"digest"`
	Signature  string `json:"signature"`
}

// A public-key algorithm: its ops and, per op, the call a Go program makes.
type pkDef struct {
	ops   []string
	calls map[string]string
}

var pkAlgs = map[string]pkDef{}

// x25519Calls: xcrypto.go's X25519 (derive of the fixed keys, keygen); nil
// without golang.org/x/crypto.
var x25519Derive func(priv, peer []byte) ([]byte, error)
var x25519Keygen func(out []byte) error

var curves = map[string]elliptic.Curve{"p256": elliptic.P256(), "p384": elliptic.P384(),
	"p521": elliptic.P521()}

func init() {
	sig := []string{"sign", "verify", "verify-forged"}
	for _, bits := range []int{2048, 3072, 4096} {
		b := strconv.Itoa(bits)
		pkAlgs["rsa-"+b+"-pkcs1"] = pkDef{append(sig, "keygen"), map[string]string{
			"sign":   "rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, digest)",
			"verify": "rsa.VerifyPKCS1v15(pub, crypto.SHA256, digest, sig)",
			"keygen": "rsa.GenerateKey(rand.Reader, " + b + "); N.FillBytes, Primes[0].FillBytes",
		}}
		pkAlgs["rsa-"+b+"-pss"] = pkDef{sig, map[string]string{
			"sign": "rsa.SignPSS(rand.Reader, key, crypto.SHA256, digest, " +
				"&rsa.PSSOptions{SaltLength: 32, Hash: crypto.SHA256})",
			"verify": "rsa.VerifyPSS(pub, crypto.SHA256, digest, sig, " +
				"&rsa.PSSOptions{SaltLength: 32, Hash: crypto.SHA256})",
		}}
	}
	for name, c := range curves {
		n := c.Params().Name
		pkAlgs["ecdsa-"+name] = pkDef{append(sig, "keygen"), map[string]string{
			"sign":   "ecdsa.SignASN1(rand.Reader, key, digest)",
			"verify": "ecdsa.VerifyASN1(pub, digest, sig)",
			"keygen": "ecdsa.GenerateKey(elliptic." + strings.ReplaceAll(n, "-", "") +
				"(), rand.Reader); D.FillBytes, elliptic.Marshal",
		}}
		if name != "p521" { // the cells have no ecdh-p521
			pkAlgs["ecdh-"+name] = pkDef{[]string{"derive"}, map[string]string{
				"derive": "elliptic." + strings.ReplaceAll(n, "-", "") +
					"().ScalarMult(peer.X, peer.Y, d); x.FillBytes(secret)",
			}}
		}
	}
	pkAlgs["ed25519"] = pkDef{append(sig, "keygen"), map[string]string{
		"sign":   "ed25519.Sign(key, message)",
		"verify": "ed25519.Verify(pub, message, sig)",
		"keygen": "ed25519.GenerateKey(rand.Reader); priv.Seed()",
	}}
}

func isPk(alg string) bool { _, ok := pkAlgs[alg]; return ok }

// pkAPI: the hello's calls entry of one op (verify-forged is verify's call).
func pkAPI(alg, op string) map[string]any {
	if op == "verify-forged" {
		op = "verify"
	}
	return map[string]any{"reuse": nil, "fresh": pkAlgs[alg].calls[op]}
}

func unhex(name, s string) ([]byte, error) {
	if s == "" {
		return nil, fmt.Errorf("pk.%s is missing", name)
	}
	return hex.DecodeString(s)
}

func privateKey(pk *pkRequest) (any, error) {
	der, err := unhex("private", pk.Private)
	if err != nil {
		return nil, err
	}
	return x509.ParsePKCS8PrivateKey(der)
}

func publicKey(hexDer, name string) (any, error) {
	der, err := unhex(name, hexDer)
	if err != nil {
		return nil, err
	}
	return x509.ParsePKIXPublicKey(der)
}

// pkCall: one message's call of a public-key cell (false: the signature
// was rejected), its output in *LAST. A library error is kept in *FAILED.
func pkCall(alg, op string, pk *pkRequest, last *[]byte, failed *error) (func([]byte) bool, error) {
	scheme, _, _ := strings.Cut(alg, "-")
	if op == "keygen" {
		return pkKeygen(alg, scheme, last, failed)
	}
	if op == "derive" {
		return pkDerive(alg, scheme, pk, last, failed)
	}
	var digest, sig []byte
	var err error
	if scheme != "ed25519" {
		if digest, err = unhex("digest", pk.Digest); err != nil {
			return nil, err
		}
	}
	if op != "sign" {
		if sig, err = unhex("signature", pk.Signature); err != nil {
			return nil, err
		}
	}
	var priv, pub any
	if op == "sign" {
		priv, err = privateKey(pk)
	} else {
		pub, err = publicKey(pk.Public, "public")
	}
	if err != nil {
		return nil, err
	}
	keep := func(out []byte, e error) bool {
		*last = out
		if e != nil {
			*failed = e
		}
		return true
	}
	switch {
	case scheme == "rsa" && op == "sign":
		k, ok := priv.(*rsa.PrivateKey)
		if !ok {
			return nil, errors.New("pk.private is not an RSA key")
		}
		if strings.HasSuffix(alg, "pss") {
			opts := &rsa.PSSOptions{SaltLength: 32, Hash: crypto.SHA256}
			return func([]byte) bool {
				return keep(rsa.SignPSS(rand.Reader, k, crypto.SHA256, digest, opts))
			}, nil
		}
		return func([]byte) bool {
			return keep(rsa.SignPKCS1v15(rand.Reader, k, crypto.SHA256, digest))
		}, nil
	case scheme == "rsa":
		k, ok := pub.(*rsa.PublicKey)
		if !ok {
			return nil, errors.New("pk.public is not an RSA key")
		}
		*last = []byte{}
		if strings.HasSuffix(alg, "pss") {
			opts := &rsa.PSSOptions{SaltLength: 32, Hash: crypto.SHA256}
			return func([]byte) bool {
				return rsa.VerifyPSS(k, crypto.SHA256, digest, sig, opts) == nil
			}, nil
		}
		return func([]byte) bool { return rsa.VerifyPKCS1v15(k, crypto.SHA256, digest, sig) == nil }, nil
	case scheme == "ecdsa" && op == "sign":
		k, ok := priv.(*ecdsa.PrivateKey)
		if !ok {
			return nil, errors.New("pk.private is not an EC key")
		}
		return func([]byte) bool { return keep(ecdsa.SignASN1(rand.Reader, k, digest)) }, nil
	case scheme == "ecdsa":
		k, ok := pub.(*ecdsa.PublicKey)
		if !ok {
			return nil, errors.New("pk.public is not an EC key")
		}
		*last = []byte{}
		return func([]byte) bool { return ecdsa.VerifyASN1(k, digest, sig) }, nil
	case op == "sign":
		k, ok := priv.(ed25519.PrivateKey)
		if !ok {
			return nil, errors.New("pk.private is not an Ed25519 key")
		}
		return func(m []byte) bool { *last = ed25519.Sign(k, m); return true }, nil
	default:
		k, ok := pub.(ed25519.PublicKey)
		if !ok {
			return nil, errors.New("pk.public is not an Ed25519 key")
		}
		*last = []byte{}
		return func(m []byte) bool { return ed25519.Verify(k, m, sig) }, nil
	}
}

func pkDerive(alg, scheme string, pk *pkRequest, last *[]byte, failed *error) (func([]byte) bool, error) {
	if scheme == "x25519" {
		priv, err := unhex("private_raw", pk.PrivateRaw)
		if err != nil {
			return nil, err
		}
		peer, err := unhex("peer_raw", pk.PeerRaw)
		if err != nil {
			return nil, err
		}
		return func([]byte) bool {
			var e error
			if *last, e = x25519Derive(priv, peer); e != nil {
				*failed = e
			}
			return true
		}, nil
	}
	priv, err := privateKey(pk)
	if err != nil {
		return nil, err
	}
	peer, err := publicKey(pk.Peer, "peer")
	if err != nil {
		return nil, err
	}
	k, ok := priv.(*ecdsa.PrivateKey)
	p, ok2 := peer.(*ecdsa.PublicKey)
	if !ok || !ok2 || k.Curve != p.Curve {
		return nil, errors.New("pk.private and pk.peer are not keys of one curve")
	}
	size := (k.Curve.Params().BitSize + 7) / 8
	d := k.D.FillBytes(make([]byte, size))
	// The secret is the x coordinate at the field's length: FillBytes into
	// a new slice is the minimum that gives the contract's format.
	return func([]byte) bool {
		x, _ := k.Curve.ScalarMult(p.X, p.Y, d)
		*last = x.FillBytes(make([]byte, size))
		return true
	}, nil
}

// pkKeygen: a new key pair per call, written out in the layout of the
// protocol (RSA n then p; EC d then 04 || x || y; Ed25519 and X25519 the
// private then the public key) into a new slice: the minimum that writes
// the library's numbers out.
func pkKeygen(alg, scheme string, last *[]byte, failed *error) (func([]byte) bool, error) {
	fail := func(e error) bool { *failed = e; return true }
	switch scheme {
	case "rsa":
		bits, _ := strconv.Atoi(strings.Split(alg, "-")[1])
		return func([]byte) bool {
			k, e := rsa.GenerateKey(rand.Reader, bits)
			if e != nil {
				return fail(e)
			}
			out := make([]byte, bits/8+bits/16)
			k.N.FillBytes(out[:bits/8])
			k.Primes[0].FillBytes(out[bits/8:])
			*last = out
			return true
		}, nil
	case "ecdsa":
		c := curves[strings.TrimPrefix(alg, "ecdsa-")]
		size := (c.Params().BitSize + 7) / 8
		return func([]byte) bool {
			k, e := ecdsa.GenerateKey(c, rand.Reader)
			if e != nil {
				return fail(e)
			}
			out := make([]byte, size, 3*size+1)
			k.D.FillBytes(out)
			*last = append(out, elliptic.Marshal(c, k.X, k.Y)...)
			return true
		}, nil
	case "ed25519":
		return func([]byte) bool {
			pub, priv, e := ed25519.GenerateKey(rand.Reader)
			if e != nil {
				return fail(e)
			}
			out := make([]byte, 64)
			copy(out, priv.Seed())
			copy(out[32:], pub)
			*last = out
			return true
		}, nil
	}
	return func([]byte) bool {
		out := make([]byte, 64)
		if e := x25519Keygen(out); e != nil {
			return fail(e)
		}
		*last = out
		return true
	}, nil
}

// runPk: a public-key cell's trial on the message PLACED (../PROTOCOL.md).
func runPk(req *request, placed []byte, placedAt int, inputSha string) (map[string]any, []byte, error) {
	alg, op := req.Algorithm, req.Op
	def := pkAlgs[alg]
	offered := false
	for _, o := range def.ops {
		offered = offered || o == op
	}
	if !offered {
		return nil, nil, fmt.Errorf("op %s is not offered for %s", op, alg)
	}
	pk := req.Pk
	if pk == nil {
		if op != "keygen" {
			return nil, nil, errors.New("a public-key request without pk")
		}
		pk = &pkRequest{}
	}
	var last []byte
	var failed error
	fn, err := pkCall(alg, op, pk, &last, &failed)
	if err != nil {
		return nil, nil, err
	}
	assembledInLoop = 0
	ns, cpuNs, rejected := timedLoop(fn, placed, req.Calls)
	if failed != nil {
		return nil, nil, failed
	}
	if rejected != 0 && rejected != req.Calls {
		return nil, nil, fmt.Errorf("%d of %d calls rejected the signature", rejected, req.Calls)
	}
	status := "ok"
	if rejected != 0 {
		status = "rejected"
	}
	api := pkAPI(alg, op)["fresh"]
	return map[string]any{
		"status": status,
		"calls":  req.Calls,
		"ns":     ns,
		"cpu_ns": cpuNs,
		"timed": map[string]any{"calls": req.Calls, "api": api, "output": "fresh",
			"assembled_in_loop": assembledInLoop},
		"placed":       map[string]any{"input_offset": placedAt, "out": nil, "stack": nil},
		"input_sha256": inputSha,
	}, last, nil
}
