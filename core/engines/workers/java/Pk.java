// Public-key cells of the JCA worker (../PROTOCOL.md, "Public-key cells").
//
// java.security.Signature, javax.crypto.KeyAgreement and KeyPairGenerator,
// from the providers the JDK picks (SunRsaSign for RSA, SunEC for the
// curves). RSA signs with "SHA256withRSA" and "RSASSA-PSS", which hash the
// message themselves (the JDK's RSA has no sign-a-digest call but
// NONEwithRSA, which would need the DigestInfo built by hand): those calls
// read the message, and their calls entry says so; a signature of the same
// digest either way. ECDSA signs the digest ("NONEwithECDSA", DER output),
// Ed25519 the message. Keys come from the request's DER (KeyFactory "RSA",
// "EC", "Ed25519", "XDH"); the Signature, KeyAgreement or KeyPairGenerator
// is made and initialised once per trial, with one SecureRandom, before the
// timed loop, and warmed up as every cell is (Worker.warmUp). Each call
// allocates its output: there is no reuse call.
import java.math.BigInteger;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.SignatureException;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.EdECPrivateKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.XECPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.PSSParameterSpec;
import java.security.spec.RSAKeyGenParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.KeyAgreement;

final class Pk {
	// A scheme: the JCA's names for it. SIG: the Signature (null: a key
	// agreement, AGREE); KEY: the KeyFactory; GEN: the KeyPairGenerator
	// (null: no keygen cell); CURVE: the generator's parameter.
	static final class Scheme {
		String sig, agree, key, gen, curve;
		int bits;
		boolean digest; // signs and verifies the digest, not the message
		List<String> ops;
	}

	static final Map<String, Scheme> SCHEMES = new LinkedHashMap<>();
	static final Map<String, Provider> PROVIDERS = new LinkedHashMap<>();
	static final List<String> SIG_OPS = List.of("sign", "verify", "verify-forged");

	static void add(String alg, String sig, String agree, String key, String gen, String curve, int bits,
	                boolean digest, List<String> ops)
	{
		Scheme s = new Scheme();
		s.sig = sig;
		s.agree = agree;
		s.key = key;
		s.gen = gen;
		s.curve = curve;
		s.bits = bits;
		s.digest = digest;
		s.ops = ops;
		SCHEMES.put(alg, s);
	}

	static {
		List<String> withKeygen = List.of("sign", "verify", "verify-forged", "keygen");
		for (int bits : new int[] {2048, 3072, 4096}) {
			add("rsa-" + bits + "-pkcs1", "SHA256withRSA", null, "RSA", "RSA", null, bits, false, withKeygen);
			add("rsa-" + bits + "-pss", "RSASSA-PSS", null, "RSA", null, null, bits, false, SIG_OPS);
		}
		add("ecdsa-p256", "NONEwithECDSA", null, "EC", "EC", "secp256r1", 256, true, withKeygen);
		add("ecdsa-p384", "NONEwithECDSA", null, "EC", "EC", "secp384r1", 384, true, withKeygen);
		add("ecdsa-p521", "NONEwithECDSA", null, "EC", "EC", "secp521r1", 521, true, withKeygen);
		add("ed25519", "Ed25519", null, "Ed25519", "Ed25519", null, 255, false, withKeygen);
		add("ecdh-p256", null, "ECDH", "EC", null, null, 256, false, List.of("derive"));
		add("ecdh-p384", null, "ECDH", "EC", null, null, 384, false, List.of("derive"));
		add("x25519", null, "X25519", "XDH", "X25519", null, 255, false, List.of("derive", "keygen"));
	}

	// PSS as the cells use it: MGF1 with SHA-256, a salt of the hash's length.
	static final PSSParameterSpec PSS = new PSSParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, 32, 1);

	// The provider the JDK picks for ALG's calls (null: none offers them).
	static Provider provider(String alg)
	{
		Scheme s = SCHEMES.get(alg);
		try {
			KeyFactory.getInstance(s.key);
			if (s.gen != null)
				KeyPairGenerator.getInstance(s.gen);
			return s.sig != null ? Signature.getInstance(s.sig).getProvider()
			                     : KeyAgreement.getInstance(s.agree).getProvider();
		} catch (Exception e) {
			return null;
		}
	}

	static Map<String, Object> api(String alg, String op)
	{
		Scheme s = SCHEMES.get(alg);
		String call;
		if (op.equals("keygen")) {
			String spec = s.curve != null ? "ECGenParameterSpec(\"" + s.curve + "\")"
			                              : s.bits > 255 ? "RSAKeyGenParameterSpec(" + s.bits + ", F4)" : null;
			call = "KeyPairGenerator \"" + s.gen + "\" (initialize(" + (spec != null ? spec + ", " : "") +
			       "random) once): generateKeyPair(); " +
			       (s.key.equals("RSA") ? "getModulus(), getPrimeP()"
			        : s.curve != null   ? "getS(), getW()"
			        : s.key.equals("XDH") ? "getScalar(), getEncoded()"
			                              : "getBytes(), getEncoded()");
		} else if (op.equals("derive")) {
			call = "KeyAgreement \"" + s.agree + "\" (init(key) once): doPhase(peer, true); generateSecret()";
		} else {
			boolean sign = op.equals("sign");
			String params = s.sig.equals("RSASSA-PSS") ? "setParameter(PSSParameterSpec(SHA-256, MGF1 SHA-256, 32)), " : "";
			call = "Signature \"" + s.sig + "\" (" + params + (sign ? "initSign(key, random)" : "initVerify(pub)") +
			       " once): update(" + (s.digest ? "digest" : "message") + "); " +
			       (sign ? "sign()" : "verify(sig)");
		}
		Map<String, Object> a = new LinkedHashMap<>();
		a.put("reuse", null);
		a.put("fresh", call);
		return a;
	}

	static byte[] field(Map<String, Object> pk, String name)
	{
		Object v = pk.get(name);
		if (v == null)
			throw new IllegalArgumentException("pk." + name + " is missing");
		return Worker.hex(Json.string(v, "pk." + name));
	}

	// V big-endian into OUT at OFF, LEN bytes, zero-padded on the left: the
	// minimum that writes the library's number in the protocol's layout.
	static void put(BigInteger v, byte[] out, int off, int len)
	{
		byte[] b = v.toByteArray();
		int skip = b.length > len ? b.length - len : 0; // BigInteger's sign byte
		System.arraycopy(b, skip, out, off + len - (b.length - skip), b.length - skip);
	}

	// One cell's calls on the message MSG (Worker.Calls: fn, last).
	static Worker.Calls make(String alg, String op, Map<String, Object> pk, byte[] msg) throws Exception
	{
		Scheme s = SCHEMES.get(alg);
		Provider p = PROVIDERS.get(alg);
		Worker.Calls c = new Worker.Calls();
		c.output = "fresh";
		c.api = (String)api(alg, op).get("fresh");
		byte[][] last = {new byte[0]};
		c.last = () -> last[0];
		SecureRandom random = new SecureRandom();
		if (op.equals("keygen")) {
			KeyPairGenerator g = KeyPairGenerator.getInstance(s.gen, p);
			if (s.curve != null)
				g.initialize(new ECGenParameterSpec(s.curve), random);
			else if (s.key.equals("RSA"))
				g.initialize(new RSAKeyGenParameterSpec(s.bits, RSAKeyGenParameterSpec.F4), random);
			else
				g.initialize(255, random);
			int f = (s.bits + 7) / 8;
			c.fn = () -> {
				KeyPair kp = g.generateKeyPair();
				byte[] out;
				if (s.key.equals("RSA")) {
					RSAPrivateCrtKey k = (RSAPrivateCrtKey)kp.getPrivate();
					out = new byte[s.bits / 8 + s.bits / 16];
					put(k.getModulus(), out, 0, s.bits / 8);
					put(k.getPrimeP(), out, s.bits / 8, s.bits / 16);
				} else if (s.curve != null) {
					ECPublicKey pub = (ECPublicKey)kp.getPublic();
					out = new byte[3 * f + 1];
					put(((ECPrivateKey)kp.getPrivate()).getS(), out, 0, f);
					out[f] = 4;
					put(pub.getW().getAffineX(), out, f + 1, f);
					put(pub.getW().getAffineY(), out, 2 * f + 1, f);
				} else {
					// The raw private key, then the public key: the last 32
					// bytes of its X.509 encoding (12 bytes of header).
					byte[] priv = s.key.equals("XDH") ? ((XECPrivateKey)kp.getPrivate()).getScalar().get()
					                                  : ((EdECPrivateKey)kp.getPrivate()).getBytes().get();
					byte[] pub = kp.getPublic().getEncoded();
					out = Arrays.copyOf(priv, 64);
					System.arraycopy(pub, pub.length - 32, out, 32, 32);
				}
				last[0] = out;
				return true;
			};
			return c;
		}
		KeyFactory kf = KeyFactory.getInstance(s.key);
		if (op.equals("derive")) {
			PrivateKey key = kf.generatePrivate(new PKCS8EncodedKeySpec(field(pk, "private")));
			PublicKey peer = kf.generatePublic(new X509EncodedKeySpec(field(pk, "peer")));
			KeyAgreement ka = KeyAgreement.getInstance(s.agree, p);
			ka.init(key, random);
			// generateSecret leaves the KeyAgreement as init did.
			c.fn = () -> {
				ka.doPhase(peer, true);
				last[0] = ka.generateSecret();
				return true;
			};
			return c;
		}
		byte[] data = s.digest ? field(pk, "digest") : msg;
		Signature sig = Signature.getInstance(s.sig, p);
		if (s.sig.equals("RSASSA-PSS"))
			sig.setParameter(PSS);
		if (op.equals("sign")) {
			sig.initSign(kf.generatePrivate(new PKCS8EncodedKeySpec(field(pk, "private"))), random);
			c.fn = () -> {
				sig.update(data);
				last[0] = sig.sign();
				return true;
			};
			return c;
		}
		sig.initVerify(kf.generatePublic(new X509EncodedKeySpec(field(pk, "public"))));
		byte[] given = field(pk, "signature");
		// A signature the provider cannot even parse (a flipped bit in an
		// ECDSA signature's DER) is one it rejects.
		c.fn = () -> {
			sig.update(data);
			try {
				return sig.verify(given);
			} catch (SignatureException e) {
				return false;
			}
		};
		return c;
	}

	// A public-key cell's trial: as Worker.run's for the other cells.
	static Map<String, Object> run(Map<String, Object> req, String alg, String op, String output, long size,
	                               long calls) throws Exception
	{
		if (!SCHEMES.get(alg).ops.contains(op))
			return Worker.error("java-jca does not offer " + op + " for " + alg);
		if (size < 0 || calls < 0)
			return Worker.error("size and calls must not be negative");
		Object o = req.get("pk");
		Map<String, Object> pk = o == null ? new LinkedHashMap<>() : Json.object(o, "pk");
		Map<String, Object> src = Json.object(req.get("input"), "input");
		byte[] in;
		String inputSha;
		boolean explicit = src.containsKey("base64");
		if (explicit) {
			in = java.util.Base64.getDecoder().decode(Json.string(src.get("base64"), "input.base64"));
			inputSha = Worker.sha256(in, in.length);
		} else {
			inputSha = Worker.generated(Json.integer(src.get("seed"), "input.seed"), size);
			in = Arrays.copyOf(Worker.data, (int)size);
		}
		Worker.Calls todo = make(alg, op, pk, in);
		Map<String, Object> warmup = null;
		if (!explicit && Worker.warmUpAsked(req)) {
			List<Worker.Call> first = new java.util.ArrayList<>();
			for (int n : Worker.SHORTS)
				if (n < size)
					first.add(make(alg, op, pk, Arrays.copyOf(Worker.data, n)).fn);
			warmup = Worker.warmUp(alg + " " + op + " " + size, first, todo.fn, size);
		}
		long[] t = Worker.timedLoop(todo.fn, calls);
		long rejected = t[2];
		if (rejected != 0 && rejected != calls)
			return Worker.error(rejected + " of " + calls + " calls rejected the signature");
		Map<String, Object> a = new LinkedHashMap<>();
		a.put("status", rejected != 0 ? "rejected" : "ok");
		a.put("calls", calls);
		a.put("ns", t[0]);
		a.put("cpu_ns", t[1]);
		Map<String, Object> timed = new LinkedHashMap<>();
		timed.put("calls", calls);
		timed.put("api", todo.api);
		timed.put("output", "fresh"); // the JCA's public-key calls only allocate
		timed.put("assembled_in_loop", 0L);
		a.put("timed", timed);
		Map<String, Object> placed = new LinkedHashMap<>();
		placed.put("input_offset", null);
		placed.put("out", null);
		placed.put("stack", null);
		a.put("placed", placed);
		if (warmup != null)
			a.put("warmup", warmup);
		a.put("input_sha256", inputSha);
		a.put("output", rejected != 0 ? new byte[0] : todo.last.get());
		return a;
	}
}
