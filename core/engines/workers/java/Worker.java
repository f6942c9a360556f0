// cryptobench worker for the JDK's JCA providers (see ../PROTOCOL.md).
//
// Speaks JSON lines on stdin/stdout: a hello first, then one result per
// request. One call is one message through java.security.MessageDigest and
// javax.crypto.Cipher, the providers the JDK picks (SUN for the digests,
// SunJCE for the ciphers): AES/CBC/NoPadding, AES/CTR/NoPadding,
// AES/GCM/NoPadding and ChaCha20-Poly1305 with a 16-byte tag. The timed
// loop holds those calls and nothing else: with output "reuse" each writes
// into an array made before the loop (the doFinal(in, inOff, len, out,
// outOff) and digest(buf, off, len) overloads), with "fresh" each allocates
// its output (doFinal(byte[]), digest()). The JCA appends an AEAD's tag to
// its ciphertext itself: there are no pieces to join.
//
// HotSpot compiles hot methods as they run, and the SHA and AES intrinsics
// only come with C2: before a cell's first timed loop the worker warms that
// cell's calls up, outside the timing, until the time per call is steady
// (warmUp, below; ../PROTOCOL.md says how).
//
// Pk.java adds the public-key cells (Signature, KeyAgreement,
// KeyPairGenerator).
//
// The JDK has no JSON library: Json (Json.java) is a minimal strict
// reader and writer for the protocol's flat messages (objects, arrays,
// strings, numbers, true, false, null). A request it refuses is answered
// with an error, as any failed request is.
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.spec.AlgorithmParameterSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

public final class Worker {
	static final int UNIT = 1 << 20;

	// The canonical names (core/algorithms/algorithm.c) and the JCA's.
	static final Map<String, String> HASHES = new LinkedHashMap<>();
	static final Map<String, String> CIPHERS = new LinkedHashMap<>();
	static {
		HASHES.put("md5", "MD5");
		HASHES.put("sha1", "SHA-1");
		HASHES.put("sha256", "SHA-256");
		HASHES.put("sha512", "SHA-512");
		HASHES.put("sha3-256", "SHA3-256");
		CIPHERS.put("aes-128-cbc", "AES/CBC/NoPadding");
		CIPHERS.put("aes-256-cbc", "AES/CBC/NoPadding");
		CIPHERS.put("aes-128-ctr", "AES/CTR/NoPadding");
		CIPHERS.put("aes-256-ctr", "AES/CTR/NoPadding");
		CIPHERS.put("aes-128-gcm", "AES/GCM/NoPadding");
		CIPHERS.put("aes-256-gcm", "AES/GCM/NoPadding");
		CIPHERS.put("chacha20-poly1305", "ChaCha20-Poly1305");
	}

	static boolean isAead(String alg)
	{
		return alg.endsWith("gcm") || alg.equals("chacha20-poly1305");
	}

	static int keyLen(String alg)
	{
		return alg.startsWith("aes-128") ? 16 : 32;
	}

	static int ivLen(String alg)
	{
		return isAead(alg) ? 12 : 16;
	}

	// The provider the JDK picks for ALG (null: none offers it).
	static Provider provider(String alg)
	{
		try {
			if (HASHES.containsKey(alg))
				return MessageDigest.getInstance(HASHES.get(alg)).getProvider();
			return Cipher.getInstance(CIPHERS.get(alg)).getProvider();
		} catch (Exception e) {
			return null;
		}
	}

	static final Map<String, Provider> PROVIDERS = new LinkedHashMap<>();

	// What each output mode calls, per algorithm and op: a MessageDigest, or
	// a CBC or CTR Cipher, made (and initialised) once before the loop; a new
	// AEAD Cipher per call (make, below, says why).
	static Map<String, Object> api(String alg, String op)
	{
		Map<String, Object> a = new LinkedHashMap<>();
		if (HASHES.containsKey(alg)) {
			String md = "MessageDigest \"" + HASHES.get(alg) + "\": update(data, 0, n); digest(";
			a.put("reuse", md + "out, 0, len)");
			a.put("fresh", md + ")");
			return a;
		}
		String t = CIPHERS.get(alg), prefix, in = op.equals("encrypt") ? "data" : "sealed";
		if (!isAead(alg))
			prefix = "Cipher \"" + t + "\" (init once): ";
		else
			prefix = "Cipher.getInstance(\"" + t + "\", p); init(" + (op.equals("encrypt") ? "ENCRYPT" : "DECRYPT") +
			         "_MODE, key, " + spec(alg) + "); [updateAAD(aad);] ";
		a.put("reuse", prefix + "doFinal(" + in + ", 0, n, out, 0)");
		a.put("fresh", prefix + "doFinal(" + in + ")");
		return a;
	}

	static String spec(String alg)
	{
		return alg.equals("chacha20-poly1305") ? "IvParameterSpec(nonce)" : "GCMParameterSpec(128, nonce)";
	}

	static AlgorithmParameterSpec paramSpec(String alg, byte[] iv)
	{
		return alg.endsWith("gcm") ? new GCMParameterSpec(128, iv) : new IvParameterSpec(iv);
	}

	static byte[] counting(int n)
	{
		byte[] b = new byte[n];
		for (int i = 0; i < n; i++)
			b[i] = (byte)i;
		return b;
	}

	static byte[] material(Object v, int n)
	{
		if (v == null)
			return null;
		String s = Json.string(v, "key, iv or aad");
		return s.equals("counting") ? counting(n) : hex(s);
	}

	static byte[] hex(String s)
	{
		if (s.length() % 2 != 0)
			throw new IllegalArgumentException("odd hex string");
		byte[] b = new byte[s.length() / 2];
		for (int i = 0; i < b.length; i++) {
			int hi = Character.digit(s.charAt(2 * i), 16), lo = Character.digit(s.charAt(2 * i + 1), 16);
			if (hi < 0 || lo < 0)
				throw new IllegalArgumentException("not a hex string: " + s);
			b[i] = (byte)(hi << 4 | lo);
		}
		return b;
	}

	static String hexOf(byte[] b)
	{
		StringBuilder s = new StringBuilder(2 * b.length);
		for (byte x : b)
			s.append(Character.forDigit((x >> 4) & 15, 16)).append(Character.forDigit(x & 15, 16));
		return s.toString();
	}

	static String sha256(byte[] b, int n) throws Exception
	{
		MessageDigest md = MessageDigest.getInstance("SHA-256");
		md.update(b, 0, n);
		return hexOf(md.digest());
	}

	// The generator (../PROTOCOL.md): the 1 MiB unit repeated to the largest size.
	static long seed = -1;
	static byte[] unit, data = new byte[0];
	static final Map<Long, String> digests = new HashMap<>();

	static String generated(long s, long size) throws Exception
	{
		if (size > Integer.MAX_VALUE - 64)
			throw new IllegalArgumentException("size " + size + " is beyond a Java array");
		if (s != seed) {
			int x = (int)s;
			unit = new byte[UNIT];
			for (int i = 0; i < UNIT; i++) {
				x ^= x << 13;
				x ^= x >>> 17;
				x ^= x << 5;
				unit[i] = (byte)x;
			}
			seed = s;
			data = unit;
			digests.clear();
		}
		if (data.length < size) {
			int reps = (int)((size + UNIT - 1) / UNIT);
			data = new byte[reps * UNIT];
			for (int r = 0; r < reps; r++)
				System.arraycopy(unit, 0, data, r * UNIT, UNIT);
		}
		String d = digests.get(size);
		if (d == null)
			digests.put(size, d = sha256(data, (int)size));
		return d;
	}

	// One message: false when the tag was rejected.
	interface Call {
		boolean run() throws Exception;
	}

	// One cell's calls: fn one message; last() the last call's output.
	static final class Calls {
		String api, output;
		Call fn;
		java.util.function.Supplier<byte[]> last;
	}

	// What a cell's calls read: PLAIN itself, or for a decryption PLAIN
	// encrypted (ciphertext then tag), the tag's bit 0 flipped when forged.
	static byte[] sealed(String alg, String op, byte[] plain, byte[] key, byte[] iv, byte[] aad) throws Exception
	{
		if (!op.startsWith("decrypt"))
			return plain;
		Calls seal = make(alg, "encrypt", "fresh", plain, key, iv, aad);
		seal.fn.run();
		byte[] sealed = seal.last.get();
		if (op.equals("decrypt-forged"))
			sealed[plain.length] ^= 1;
		return sealed;
	}

	static Calls make(String alg, String op, String output, byte[] in, byte[] key, byte[] iv, byte[] aad)
	    throws Exception
	{
		Calls c = new Calls();
		c.output = output;
		c.api = (String)api(alg, op).get(output);
		boolean reuse = output.equals("reuse");
		byte[][] last = {new byte[0]};
		if (HASHES.containsKey(alg)) {
			MessageDigest md = MessageDigest.getInstance(HASHES.get(alg), PROVIDERS.get(alg));
			int n = in.length, len = md.getDigestLength();
			byte[] out = new byte[len];
			if (reuse) {
				c.fn = () -> {
					md.update(in, 0, n);
					md.digest(out, 0, len);
					return true;
				};
				c.last = () -> out.clone();
			} else {
				c.fn = () -> {
					md.update(in, 0, n);
					last[0] = md.digest();
					return true;
				};
				c.last = () -> last[0];
			}
			return c;
		}
		String t = CIPHERS.get(alg);
		Provider p = PROVIDERS.get(alg);
		SecretKeySpec k = new SecretKeySpec(key, alg.startsWith("aes") ? "AES" : "ChaCha20");
		boolean decrypt = !op.equals("encrypt");
		int mode = decrypt ? Cipher.DECRYPT_MODE : Cipher.ENCRYPT_MODE;
		Cipher held = Cipher.getInstance(t, p);
		held.init(mode, k, paramSpec(alg, iv));
		byte[] out = new byte[held.getOutputSize(in.length)];
		if (!isAead(alg)) {
			// The key schedule once, as a C engine's open does; doFinal
			// leaves the Cipher as init did, at the cell's IV.
			if (reuse) {
				c.fn = () -> {
					held.doFinal(in, 0, in.length, out, 0);
					return true;
				};
				c.last = () -> out.clone();
			} else {
				c.fn = () -> {
					last[0] = held.doFinal(in);
					return true;
				};
				c.last = () -> last[0];
			}
			return c;
		}
		// The JCA refuses to initialise a Cipher again with the key and
		// nonce it last had (GCM for encryption, ChaCha20-Poly1305 both
		// ways): each message is a new Cipher of the provider found once.
		c.fn = () -> {
			Cipher e = Cipher.getInstance(t, p);
			e.init(mode, k, paramSpec(alg, iv));
			if (aad != null)
				e.updateAAD(aad);
			try {
				if (reuse)
					e.doFinal(in, 0, in.length, out, 0);
				else
					last[0] = e.doFinal(in);
			} catch (AEADBadTagException x) {
				return false;
			}
			return true;
		};
		c.last = () -> reuse ? out.clone() : last[0];
		return c;
	}

	static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	// CALLS calls of FN and nothing else: {ns, cpu ns, rejected}.
	static long[] timedLoop(Call fn, long calls) throws Exception
	{
		long rejected = 0;
		long cpu0 = THREADS.getCurrentThreadCpuTime();
		long t0 = System.nanoTime();
		for (long i = 0; i < calls; i++)
			if (!fn.run())
				rejected++;
		long t1 = System.nanoTime();
		long cpu1 = THREADS.getCurrentThreadCpuTime();
		return new long[] {t1 - t0, cpu1 - cpu0, rejected};
	}

	// The warm-up of a cell's calls (../PROTOCOL.md), once per cell and
	// worker process, outside the timing. HotSpot compiles a method with C2
	// (and only then calls the SHA and AES intrinsics from it) after some
	// 15,000 invocations, and a long message takes branches a short one
	// does not (SunJCE's GCM splits from 1 MiB), which sends C2's code back
	// to the interpreter the first time they are taken. So a cell first runs
	// its calls on each prefix of SHORTS shorter than itself, MIN_CALLS
	// times each (at most FIRST_NS each), then AGAIN calls of its own, then
	// the prefixes once more (C2 compiles again, having seen the long
	// branches). Then its own calls, in batches doubled until one takes
	// BATCH_NS, in windows of WINDOW batches, until (at least MIN_CALLS of
	// them or as many as MIN_BYTES take, and MIN_NS in all) the fastest time
	// per call of a window is within TOLERANCE of the window's before and no
	// JIT compilation finished during it. A cell longer than every prefix
	// whose steady time per byte is still over SLOWER times the longest
	// prefix's is on slow code yet: all of it again. Everything stops when
	// MAX_NS have passed in all (then "steady" is false).
	static final int[] SHORTS = {256, 16384};
	static final int WINDOW = 5, AGAIN = 3;
	static final long MIN_CALLS = 20_000, MIN_BYTES = 256L << 20, BATCH_NS = 10_000_000;
	static final long MIN_NS = 200_000_000, FIRST_NS = 2_000_000_000L, MAX_NS = 15_000_000_000L;
	static final double TOLERANCE = 0.02, SLOWER = 1.5;
	static final Set<String> warm = new HashSet<>();
	static final java.lang.management.CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();

	static long jitMs()
	{
		return JIT != null && JIT.isCompilationTimeMonitoringSupported() ? JIT.getTotalCompilationTime() : 0;
	}

	// FIRST: the cell's calls on each of SHORTS shorter than the cell, each
	// MIN_CALLS times (at most FIRST_NS); how many ran, added to SHORTS_RUN.
	// The fastest time per call of the longest one's batches.
	static double shorter(List<Call> first, long[] shortsRun) throws Exception
	{
		double best = Double.MAX_VALUE;
		for (int i = 0; i < first.size(); i++) {
			long n = 0, t0 = System.nanoTime();
			for (long batch = 1000; n < MIN_CALLS && System.nanoTime() - t0 < FIRST_NS; n += batch) {
				double perCall = (double)timedLoop(first.get(i), batch)[0] / batch;
				if (i == first.size() - 1)
					best = Math.min(best, perCall);
			}
			shortsRun[i] += n;
		}
		return best;
	}

	// A request with "warmup": false (worker-check's, whose output is checked
	// and never timed) is not warmed up.
	static boolean warmUpAsked(Map<String, Object> req)
	{
		return !Boolean.FALSE.equals(req.get("warmup"));
	}

	static Map<String, Object> warmUp(String cell, List<Call> first, Call fn, long size) throws Exception
	{
		Map<String, Object> w = new LinkedHashMap<>();
		if (!warm.add(cell)) {
			w.put("calls", 0L);
			return w;
		}
		long start = System.nanoTime(), calls = 0, elapsed = 0;
		long[] shortsRun = new long[first.size()];
		boolean steady = false, all = first.size() == SHORTS.length;
		double last = 0, shortBest = 0;
		int rounds = 0;
		do {
			rounds++;
			if (!first.isEmpty()) {
				shorter(first, shortsRun);
				timedLoop(fn, AGAIN);
				calls += AGAIN;
				shortBest = shorter(first, shortsRun);
			}
			long minCalls = Math.max(1, Math.min(MIN_CALLS, MIN_BYTES / Math.max(size, 1)));
			long batch = 1, own = 0, jit = jitMs();
			double best = Double.MAX_VALUE, before = Double.MAX_VALUE;
			int inWindow = 0;
			steady = false;
			elapsed = System.nanoTime() - start;
			while (elapsed < MAX_NS) {
				long ns = timedLoop(fn, batch)[0];
				own += batch;
				elapsed = System.nanoTime() - start;
				if (ns < BATCH_NS) {
					batch *= 2;
					continue;
				}
				best = Math.min(best, (double)ns / batch);
				if (++inWindow < WINDOW)
					continue;
				long now = jitMs();
				last = best;
				if (own >= minCalls && elapsed >= MIN_NS && now == jit && best >= before * (1 - TOLERANCE)) {
					steady = true;
					break;
				}
				before = best;
				best = Double.MAX_VALUE;
				inWindow = 0;
				jit = now;
			}
			calls += own;
			// Steady, but dearer per byte than the longest prefix: still the
			// interpreter's or C1's code (the long message's branches not yet
			// compiled by C2). Once more, while time is left.
		} while (steady && all && last / size > SLOWER * shortBest / SHORTS[SHORTS.length - 1] &&
		         elapsed < MAX_NS);
		if (steady && all && last / size > SLOWER * shortBest / SHORTS[SHORTS.length - 1])
			steady = false;
		if (!first.isEmpty()) {
			List<Object> shorts = new ArrayList<>();
			for (int i = 0; i < first.size(); i++) {
				Map<String, Object> one = new LinkedHashMap<>();
				one.put("size", (long)SHORTS[i]);
				one.put("calls", shortsRun[i]);
				shorts.add(one);
			}
			w.put("shorter", shorts);
		}
		w.put("rounds", (long)rounds);
		w.put("calls", calls);
		w.put("ns", elapsed);
		w.put("steady", steady);
		if (last > 0)
			w.put("ns_per_call", Math.round(last));
		if (shortBest > 0)
			w.put("short_ns_per_call", Math.round(shortBest));
		return w;
	}

	static Map<String, Object> error(String why)
	{
		Map<String, Object> a = new LinkedHashMap<>();
		a.put("status", "error");
		a.put("error", why);
		return a;
	}

	static Map<String, Object> run(Map<String, Object> req) throws Exception
	{
		String alg = Json.string(req.get("algorithm"), "algorithm"), op = Json.string(req.get("op"), "op");
		long size = Json.integer(req.get("size"), "size"), calls = Json.integer(req.get("calls"), "calls");
		Object o = req.get("output");
		String output = o == null ? "reuse" : Json.string(o, "output");
		if (!output.equals("reuse") && !output.equals("fresh"))
			return error("output must be reuse or fresh, not " + output);
		if (Pk.PROVIDERS.containsKey(alg))
			return Pk.run(req, alg, op, output, size, calls);
		if (!PROVIDERS.containsKey(alg))
			return error("java-jca does not offer " + alg);
		boolean hash = HASHES.containsKey(alg);
		if (hash != op.equals("hash") ||
		    !(op.equals("hash") || op.equals("encrypt") || op.equals("decrypt") ||
		      (op.equals("decrypt-forged") && isAead(alg))))
			return error("java-jca does not offer " + op + " for " + alg);
		if (size < 0 || calls < 0)
			return error("size and calls must not be negative");
		Map<String, Object> src = Json.object(req.get("input"), "input");
		boolean explicit = src.containsKey("base64");
		byte[] in;
		String inputSha;
		if (explicit) {
			in = Base64.getDecoder().decode(Json.string(src.get("base64"), "input.base64"));
			inputSha = sha256(in, in.length);
		} else {
			inputSha = generated(Json.integer(src.get("seed"), "input.seed"), size);
			in = Arrays.copyOf(data, (int)size);
		}
		byte[] key = null, iv = null, aad = null;
		if (!hash) {
			key = material(req.containsKey("key") ? req.get("key") : "counting", keyLen(alg));
			iv = material(req.containsKey("iv") ? req.get("iv") : "counting", ivLen(alg));
			aad = material(req.get("aad"), 0);
		}
		if (op.startsWith("decrypt") && explicit) {
			byte[] tag = isAead(alg) ? hex(Json.string(req.get("tag"), "tag")) : new byte[0];
			byte[] sealed = Arrays.copyOf(in, in.length + tag.length);
			System.arraycopy(tag, 0, sealed, in.length, tag.length);
			in = sealed;
			inputSha = null; // the plaintext is what comes out
		} else {
			in = sealed(alg, op, in, key, iv, aad);
		}
		Calls todo = make(alg, op, output, in, key, iv, aad);
		// Known-answer checks (explicit bytes, one call) and worker-check's
		// requests ("warmup": false) are not warmed up;
		// a long message's warm-up starts on a SHORT prefix of it.
		Map<String, Object> warmup = null;
		if (!explicit && warmUpAsked(req)) {
			String cell = alg + " " + op + " " + output + " " + size + " " + (aad == null ? "" : hexOf(aad));
			List<Call> first = new ArrayList<>();
			for (int n : SHORTS)
				if (n < size)
					first.add(make(alg, op, output, sealed(alg, op, Arrays.copyOf(data, n), key, iv, aad), key,
					               iv, aad)
					              .fn);
			warmup = warmUp(cell, first, todo.fn, size);
		}
		long[] t = timedLoop(todo.fn, calls);
		long rejected = t[2];
		if (rejected != 0 && rejected != calls)
			return error(rejected + " of " + calls + " calls rejected the tag");
		byte[] out = rejected != 0 ? new byte[0] : todo.last.get();
		if (inputSha == null)
			inputSha = sha256(out, out.length);
		Map<String, Object> a = new LinkedHashMap<>();
		a.put("status", rejected != 0 ? "rejected" : "ok");
		a.put("calls", calls);
		a.put("ns", t[0]);
		a.put("cpu_ns", t[1]);
		Map<String, Object> timed = new LinkedHashMap<>();
		timed.put("calls", calls);
		timed.put("api", todo.api);
		timed.put("output", todo.output);
		timed.put("assembled_in_loop", 0L); // the JCA joins an AEAD's tag itself
		a.put("timed", timed);
		// A Java array has no address a program can see, and the collector
		// moves it: nothing is placed.
		Map<String, Object> placed = new LinkedHashMap<>();
		placed.put("input_offset", null);
		placed.put("out", null);
		placed.put("stack", null);
		a.put("placed", placed);
		if (warmup != null)
			a.put("warmup", warmup);
		a.put("input_sha256", inputSha);
		a.put("output", out);
		return a;
	}

	// The HotSpot flags behind the providers' fast paths.
	static Map<String, Object> intrinsics()
	{
		Map<String, Object> m = new LinkedHashMap<>();
		try {
			com.sun.management.HotSpotDiagnosticMXBean hs =
			    ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
			for (String f : new String[] {"UseAES", "UseAESIntrinsics", "UseAESCTRIntrinsics",
			                              "UseGHASHIntrinsics", "UseSHA", "UseMD5Intrinsics",
			                              "UseSHA1Intrinsics", "UseSHA256Intrinsics",
			                              "UseSHA512Intrinsics", "UseSHA3Intrinsics",
			                              "UseChaCha20Intrinsics", "UsePoly1305Intrinsics"}) {
				try {
					m.put(f, hs.getVMOption(f).getValue());
				} catch (IllegalArgumentException e) {
					// not a flag of this VM
				}
			}
		} catch (Throwable e) {
			m.put("error", e.toString());
		}
		return m;
	}

	public static void main(String[] args) throws IOException
	{
		OutputStream stdout = new FileOutputStream(FileDescriptor.out);
		BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		Map<String, Object> algorithms = new LinkedHashMap<>(), calls = new LinkedHashMap<>(),
		                    providers = new LinkedHashMap<>();
		Set<String> names = new java.util.TreeSet<>();
		for (String alg : HASHES.keySet()) {
			Provider p = provider(alg);
			if (p == null)
				continue;
			PROVIDERS.put(alg, p);
			algorithms.put(alg, List.of("hash"));
		}
		for (String alg : CIPHERS.keySet()) {
			Provider p = provider(alg);
			if (p == null)
				continue;
			PROVIDERS.put(alg, p);
			algorithms.put(alg, isAead(alg) ? List.of("encrypt", "decrypt", "decrypt-forged")
			                                : List.of("encrypt", "decrypt"));
		}
		for (Map.Entry<String, Provider> e : PROVIDERS.entrySet()) {
			String name = e.getValue().getName() + " " + e.getValue().getVersionStr();
			providers.put(e.getKey(), name);
			names.add(name);
			Map<String, Object> byOp = new LinkedHashMap<>();
			for (Object op : (List<?>)algorithms.get(e.getKey()))
				byOp.put((String)op, api(e.getKey(), (String)op));
			calls.put(e.getKey(), byOp);
		}
		for (String alg : Pk.SCHEMES.keySet()) {
			Provider p = Pk.provider(alg);
			if (p == null)
				continue;
			Pk.PROVIDERS.put(alg, p);
			List<String> ops = Pk.SCHEMES.get(alg).ops;
			algorithms.put(alg, ops);
			String name = p.getName() + " " + p.getVersionStr();
			providers.put(alg, name);
			names.add(name);
			Map<String, Object> byOp = new LinkedHashMap<>();
			for (String op : ops)
				byOp.put(op, Pk.api(alg, op));
			calls.put(alg, byOp);
		}
		Map<String, Object> hello = new LinkedHashMap<>();
		hello.put("type", "hello");
		hello.put("protocol", 2L);
		hello.put("engine", "java-jca");
		hello.put("runtime", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version") +
		                         " (Java " + System.getProperty("java.version") + ")");
		hello.put("executable",
		          ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java"));
		hello.put("library", "JCA providers " + String.join(", ", names) + " (the JDK's own code)");
		hello.put("module", "java.security.MessageDigest, javax.crypto.Cipher, java.security.Signature, "
		                     + "javax.crypto.KeyAgreement, java.security.KeyPairGenerator");
		hello.put("clock", "System.nanoTime (CLOCK_MONOTONIC)");
		hello.put("cpu_clock", "ThreadMXBean.getCurrentThreadCpuTime (this thread)");
		hello.put("algorithms", algorithms);
		hello.put("calls", calls);
		hello.put("providers", providers);
		hello.put("intrinsics", intrinsics());
		Json.send(stdout, hello);
		String line;
		while ((line = stdin.readLine()) != null) {
			Map<String, Object> answer;
			Object id = null;
			try {
				Map<String, Object> req = Json.object(Json.parse(line), "the request");
				id = req.get("id");
				if (!"run".equals(req.get("type")))
					throw new IllegalArgumentException("not a run request: type " + Json.write(req.get("type")));
				answer = run(req);
			} catch (Throwable e) {
				answer = error((e.getClass().getSimpleName() + ": " + e.getMessage()).split("\n")[0]);
			}
			Map<String, Object> out = new LinkedHashMap<>();
			out.put("type", "result");
			out.put("id", id);
			out.putAll(answer);
			Json.send(stdout, out);
		}
	}
}
