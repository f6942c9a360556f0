// cryptobench worker for Go (see ../PROTOCOL.md).
//
// Speaks JSON lines on stdin/stdout: a hello first, then one result per
// request. One call is one message through Go's standard library:
// crypto/sha256 and its siblings (New, Write, Sum), crypto/aes with
// crypto/cipher's CBC (no padding), CTR and GCM (Seal and Open with a
// 16-byte tag). Built with the tag xcrypto (make does when Debian's
// golang.org/x/crypto is installed), xcrypto.go adds ChaCha20-Poly1305,
// BLAKE2b-512 and SHA3-256 from golang.org/x/crypto. The timed loop holds
// those calls and nothing else: with output "reuse" each writes into a slice
// made before the loop (Sum(buf[:0]), CryptBlocks(buf, data),
// XORKeyStream(buf, data), Seal(buf[:0], ...)); with "fresh" each allocates
// its output (Sum(nil), Seal(nil, ...), make([]byte, n)); the last call's
// pieces are joined after the timing. pk.go adds the public-key cells.
package main

import (
	"bufio"
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

const (
	protocol = 2
	unitLen  = 1 << 20
	page     = 4096
	tagLen   = 16
)

// A hash: its constructor, and the name a Go program calls it by.
type hashDef struct {
	make func() hash.Hash
	name string
}

// An AEAD: its constructor from the key (the key schedule, made once per
// trial as a C engine's open does), and the name a Go program calls it by.
type aeadDef struct {
	make func(key []byte) (cipher.AEAD, error)
	name string
}

var hashes = map[string]hashDef{
	"md5":    {md5.New, "md5.New()"},
	"sha1":   {sha1.New, "sha1.New()"},
	"sha256": {sha256.New, "sha256.New()"},
	"sha512": {sha512.New, "sha512.New()"},
}

var aeads = map[string]aeadDef{
	"aes-128-gcm": {newGCM, "cipher.NewGCM(aes.NewCipher(key))"},
	"aes-256-gcm": {newGCM, "cipher.NewGCM(aes.NewCipher(key))"},
}

var ciphers = []string{"aes-128-cbc", "aes-256-cbc", "aes-128-ctr", "aes-256-ctr"}

// What the library is, and the modules it comes from (xcrypto.go adds to both).
var library = "Go standard library crypto"
var module = "crypto (standard library)"

func newGCM(key []byte) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(b)
}

func keyLen(alg string) int {
	if strings.HasPrefix(alg, "aes-128") {
		return 16
	}
	return 32
}

func ivLen(alg string) int {
	if _, ok := aeads[alg]; ok {
		return 12
	}
	return 16
}

func counting(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}

// material: "counting" (00 01 02 ... of N bytes) or hex; nil for null.
func material(v *string, n int) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	if *v == "counting" {
		return counting(n), nil
	}
	return hex.DecodeString(*v)
}

// The generated input (../PROTOCOL.md): the 1 MiB unit of the xorshift32
// generator, repeated to the largest size asked; its SHA-256 per size.
var inputs struct {
	have    bool
	seed    uint32
	unit    []byte
	data    []byte
	digests map[int]string
}

func generated(seed uint32, size int) ([]byte, string) {
	if !inputs.have || seed != inputs.seed {
		x := seed
		unit := make([]byte, unitLen)
		for i := range unit {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			unit[i] = byte(x)
		}
		inputs.have, inputs.seed, inputs.unit, inputs.data = true, seed, unit, unit
		inputs.digests = map[int]string{}
	}
	if len(inputs.data) < size {
		reps := (size + unitLen - 1) / unitLen
		inputs.data = bytes.Repeat(inputs.unit, reps)
	}
	view := inputs.data[:size]
	d, ok := inputs.digests[size]
	if !ok {
		d = sha256hex(view)
		inputs.digests[size] = d
	}
	return view, d
}

func sha256hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Page-placed memory: a slice of STORE (grown when needed, and written once
// when made so that no page fault lands in a timed loop) that starts OFFSET
// bytes past a page boundary, read from its address. Go's collector does
// not move heap objects, so the address holds.
type arena struct{ store []byte }

func (a *arena) view(n, offset int) ([]byte, int) {
	if len(a.store) < n+2*page+64 {
		a.store = make([]byte, n+2*page+64)
		for i := 0; i < len(a.store); i += page {
			a.store[i] = 1
		}
	}
	addr := int(uintptr(unsafe.Pointer(&a.store[0])) % page)
	shift := ((offset-addr)%page + page) % page
	return a.store[shift : shift+n : shift+n], (addr + shift) % page
}

// Whether a timed loop runs, and how many outputs were assembled while it
// did (../PROTOCOL.md: timed.assembled_in_loop, which must be 0).
var timing bool
var assembledInLoop int64

// assemble: the output from the last call's pieces.
func assemble(pieces ...[]byte) []byte {
	if timing {
		assembledInLoop++
	}
	if b := bytes.Join(pieces, nil); b != nil {
		return b
	}
	return []byte{} // an empty output, which is not none
}

// One cell's calls: fn is one message (false: the tag was rejected); pieces
// the last call's output, joined after the timing by assemble.
type calls struct {
	api, output string
	fn          func(m []byte) bool
	pieces      func() [][]byte
	out         int // where the reused output starts past a page boundary (-1: none)
}

func isAead(alg string) bool { _, ok := aeads[alg]; return ok }

func kind(alg string) string {
	if _, ok := hashes[alg]; ok {
		return "hash"
	}
	if isAead(alg) {
		return "aead"
	}
	return "cipher"
}

// api: what each output mode calls, per algorithm and op.
func api(alg, op string) map[string]string {
	switch kind(alg) {
	case "hash":
		h := hashes[alg].name
		return map[string]string{
			"reuse": h + " once; Reset(); Write(data); Sum(buf[:0])",
			"fresh": h + "; Write(data); Sum(nil)",
		}
	case "aead":
		call, text := "Seal", "data"
		if op != "encrypt" {
			call, text = "Open", "ciphertext"
		}
		made := aeads[alg].name + " once; " + call
		return map[string]string{
			"reuse": fmt.Sprintf("%s(buf[:0], nonce, %s, aad)", made, text),
			"fresh": fmt.Sprintf("%s(nil, nonce, %s, aad)", made, text),
		}
	}
	mode := "cipher.NewCBCEncrypter(block, iv).CryptBlocks"
	if strings.HasSuffix(alg, "ctr") {
		mode = "cipher.NewCTR(block, iv).XORKeyStream"
	} else if op != "encrypt" {
		mode = "cipher.NewCBCDecrypter(block, iv).CryptBlocks"
	}
	return map[string]string{
		"reuse": "aes.NewCipher(key) once; " + mode + "(buf, data)",
		"fresh": "aes.NewCipher(key) once; " + mode + "(make([]byte, n), data)",
	}
}

func makeCalls(alg, op, output string, n int, key, iv, aad []byte, outs *arena, outOffset int) (*calls, error) {
	c := &calls{api: api(alg, op)[output], output: output, out: -1}
	reuse := output == "reuse"
	var last []byte
	c.pieces = func() [][]byte { return [][]byte{last} }
	switch kind(alg) {
	case "hash":
		def := hashes[alg]
		if reuse {
			h := def.make()
			var buf []byte
			buf, c.out = outs.view(h.Size(), outOffset)
			c.fn = func(m []byte) bool {
				h.Reset()
				h.Write(m)
				last = h.Sum(buf[:0])
				return true
			}
		} else {
			c.fn = func(m []byte) bool {
				h := def.make()
				h.Write(m)
				last = h.Sum(nil)
				return true
			}
		}
		return c, nil
	case "aead":
		a, err := aeads[alg].make(key)
		if err != nil {
			return nil, err
		}
		var buf []byte
		if reuse {
			buf, c.out = outs.view(n+tagLen, outOffset) // room for the tag
		}
		if op == "encrypt" {
			c.fn = func(m []byte) bool {
				last = a.Seal(buf[:0], iv, m, aad)
				return true
			}
			return c, nil
		}
		c.fn = func(m []byte) bool {
			var err error
			last, err = a.Open(buf[:0], iv, m, aad)
			return err == nil
		}
		return c, nil
	}
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	var buf []byte
	if reuse {
		buf, c.out = outs.view(n, outOffset)
	}
	dst := func(m []byte) []byte {
		if reuse {
			return buf
		}
		return make([]byte, len(m))
	}
	switch {
	case strings.HasSuffix(alg, "ctr"):
		c.fn = func(m []byte) bool {
			last = dst(m)
			cipher.NewCTR(b, iv).XORKeyStream(last, m)
			return true
		}
	case op == "encrypt":
		c.fn = func(m []byte) bool {
			last = dst(m)
			cipher.NewCBCEncrypter(b, iv).CryptBlocks(last, m)
			return true
		}
	default:
		c.fn = func(m []byte) bool {
			last = dst(m)
			cipher.NewCBCDecrypter(b, iv).CryptBlocks(last, m)
			return true
		}
	}
	return c, nil
}

// processCPU: the worker's CPU time, all its threads
// (CLOCK_PROCESS_CPUTIME_ID): the collector's share of a call is in it. The
// timed goroutine is not locked to a thread (runtime.LockOSThread), so no
// thread's clock is the loop's: locked, every preemption of the loop (the
// runtime asks one every 10 ms) hands the P to another thread and back,
// and SHA-512 16 KiB read 1.3-2.2% slower (analysis/README.md).
func processCPU() int64 {
	var ts syscall.Timespec
	const clockProcessCPUTime = 2
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockProcessCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}

// timedLoop: CALLS calls of FN on IN and nothing else.
func timedLoop(fn func([]byte) bool, in []byte, n int64) (ns, cpuNs, rejected int64) {
	timing = true
	cpu0 := processCPU()
	t0 := time.Now()
	for i := int64(0); i < n; i++ {
		if !fn(in) {
			rejected++
		}
	}
	ns = time.Since(t0).Nanoseconds()
	cpuNs = processCPU() - cpu0
	timing = false
	return
}

type request struct {
	ID          json.RawMessage `json:"id"`
	Algorithm   string          `json:"algorithm"`
	Op          string          `json:"op"`
	Size        int             `json:"size"`
	Calls       int64           `json:"calls"`
	Output      *string         `json:"output"`
	Key         *string         `json:"key"`
	IV          *string         `json:"iv"`
	AAD         *string         `json:"aad"`
	Tag         *string         `json:"tag"`
	InputOffset int             `json:"input_offset"`
	Layout      *struct {
		Stack int `json:"stack"`
		Out   int `json:"out"`
	} `json:"layout"`
	Input struct {
		Seed   *int64  `json:"seed"`
		Base64 *string `json:"base64"`
	} `json:"input"`
	Pk *pkRequest `json:"pk"` // public-key cells (pk.go)
}

var inArena, outArena arena

func run(req *request) (map[string]any, []byte, error) {
	alg, op, size := req.Algorithm, req.Op, req.Size
	output := "reuse"
	if req.Output != nil {
		output = *req.Output
	}
	if output != "reuse" && output != "fresh" {
		return nil, nil, fmt.Errorf("output must be reuse or fresh, not %s", output)
	}
	if _, ok := algorithms()[alg]; !ok {
		return nil, nil, fmt.Errorf("algorithm %s is not offered", alg)
	}
	inOffset, outOffset := req.InputOffset%page, 0
	if req.Layout != nil {
		outOffset = req.Layout.Out % page
	}
	var data []byte
	var inputSha string
	explicit := req.Input.Base64 != nil
	if explicit {
		var err error
		if data, err = base64.StdEncoding.DecodeString(*req.Input.Base64); err != nil {
			return nil, nil, err
		}
		inputSha = sha256hex(data)
	} else {
		if req.Input.Seed == nil {
			return nil, nil, errors.New("the input has neither a seed nor base64")
		}
		data, inputSha = generated(uint32(*req.Input.Seed), size)
	}
	if isPk(alg) {
		placed, placedAt := inArena.view(len(data), inOffset)
		copy(placed, data)
		return runPk(req, placed, placedAt, inputSha)
	}
	var key, iv, aad []byte
	if op != "hash" {
		counted := "counting"
		k, v := req.Key, req.IV
		if k == nil {
			k = &counted
		}
		if v == nil {
			v = &counted
		}
		var err error
		if key, err = material(k, keyLen(alg)); err == nil {
			if iv, err = material(v, ivLen(alg)); err == nil {
				aad, err = material(req.AAD, 0)
			}
		}
		if err != nil {
			return nil, nil, err
		}
	}
	if strings.HasPrefix(op, "decrypt") {
		var sealed []byte
		if explicit {
			var tag []byte
			if isAead(alg) && req.Tag != nil {
				var err error
				if tag, err = hex.DecodeString(*req.Tag); err != nil {
					return nil, nil, err
				}
			}
			sealed = assemble(data, tag)
			inputSha = "" // the plaintext is what comes out
		} else {
			var scratch arena
			seal, err := makeCalls(alg, "encrypt", "fresh", size, key, iv, aad, &scratch, 0)
			if err != nil {
				return nil, nil, err
			}
			seal.fn(data)
			sealed = assemble(seal.pieces()...)
			if op == "decrypt-forged" {
				sealed[size] ^= 1
			}
		}
		data = sealed
	}
	placed, placedAt := inArena.view(len(data), inOffset) // where the run put its own input
	copy(placed, data)
	todo, err := makeCalls(alg, op, output, len(data), key, iv, aad, &outArena, outOffset)
	if err != nil {
		return nil, nil, err
	}
	assembledInLoop = 0
	ns, cpuNs, rejected := timedLoop(todo.fn, placed, req.Calls)
	if rejected != 0 && rejected != req.Calls {
		return nil, nil, fmt.Errorf("%d of %d calls rejected the tag", rejected, req.Calls)
	}
	out := []byte{} // empty for a rejected tag
	status := "rejected"
	if rejected == 0 {
		out, status = assemble(todo.pieces()...), "ok"
	}
	if inputSha == "" {
		inputSha = sha256hex(out)
	}
	var outPlaced any // a call that allocates its output places none
	if todo.out >= 0 {
		outPlaced = todo.out
	}
	return map[string]any{
		"status": status,
		"calls":  req.Calls,
		"ns":     ns,
		"cpu_ns": cpuNs,
		"timed": map[string]any{"calls": req.Calls, "api": todo.api, "output": todo.output,
			"assembled_in_loop": assembledInLoop},
		// Goroutine stacks are the runtime's, moved when they grow: not placed.
		"placed":       map[string]any{"input_offset": placedAt, "out": outPlaced, "stack": nil},
		"input_sha256": inputSha,
	}, out, nil
}

// send: ANSWER as one line, the output's base64 written after the rest
// (it needs no escaping, and can be hundreds of megabytes).
func send(w *bufio.Writer, answer map[string]any, out []byte) {
	rest, _ := json.Marshal(answer)
	if out == nil { // an error: no output
		w.Write(rest)
	} else {
		w.Write(rest[:len(rest)-1])
		w.WriteString(`,"output":"`)
		enc := base64.NewEncoder(base64.StdEncoding, w)
		enc.Write(out)
		enc.Close()
		w.WriteString(`"}`)
	}
	w.WriteByte('\n')
	w.Flush()
}

// algorithms: the canonical names offered, each with its ops.
func algorithms() map[string][]string {
	a := map[string][]string{}
	for h := range hashes {
		a[h] = []string{"hash"}
	}
	for _, c := range ciphers {
		a[c] = []string{"encrypt", "decrypt"}
	}
	for c := range aeads {
		a[c] = []string{"encrypt", "decrypt", "decrypt-forged"}
	}
	for p, def := range pkAlgs {
		a[p] = def.ops
	}
	return a
}

func hello() map[string]any {
	exe, _ := os.Executable()
	algs := algorithms()
	names := make([]string, 0, len(algs))
	for alg := range algs {
		names = append(names, alg)
	}
	sort.Strings(names)
	apis := map[string]any{}
	for _, alg := range names {
		byOp := map[string]any{}
		for _, op := range algs[alg] {
			if isPk(alg) {
				byOp[op] = pkAPI(alg, op)
			} else {
				byOp[op] = api(alg, op)
			}
		}
		apis[alg] = byOp
	}
	return map[string]any{
		"type":       "hello",
		"protocol":   protocol,
		"engine":     "go-crypto",
		"runtime":    "Go " + strings.TrimPrefix(runtime.Version(), "go"),
		"executable": exe,
		"library":    library,
		"module":     module,
		"clock":      "time.Now, time.Since (the runtime's nanotime, CLOCK_MONOTONIC)",
		"cpu_clock":  "clock_gettime(CLOCK_PROCESS_CPUTIME_ID) (the worker's threads, its collector's too)",
		"algorithms": algs,
		"calls":      apis,
	}
}

func main() {
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	send(w, hello(), nil)
	r := bufio.NewReaderSize(os.Stdin, 1<<16)
	for {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			serve(w, line)
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "go-crypto worker:", err)
			os.Exit(1)
		}
	}
}

// serve: one request and its answer; a failure (a panic of the library
// included, such as CBC on a length that is not whole blocks) is an error
// answer of one line.
func serve(w *bufio.Writer, line []byte) {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		fmt.Fprintln(os.Stderr, "go-crypto worker: a request that is not JSON:", err)
		os.Exit(1)
	}
	answer, out, err := func() (a map[string]any, out []byte, err error) {
		defer func() {
			if p := recover(); p != nil {
				timing = false
				a, out, err = nil, nil, fmt.Errorf("panic: %v", p)
			}
		}()
		return run(&req)
	}()
	if err != nil {
		answer = map[string]any{"status": "error", "error": strings.SplitN(err.Error(), "\n", 2)[0]}
	}
	answer["type"] = "result"
	id := req.ID
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	answer["id"] = id
	send(w, answer, out)
}
