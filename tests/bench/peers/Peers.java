// A hand-written System.nanoTime loop on the calls the Java worker times
// (tests/bench/peers.sh; JMH, Java's own harness, is not packaged in Debian
// here, so this is the loop a Java programmer writes without it). Reuse
// writes into arrays made once (doFinal(in, 0, n, out, 0), digest(out, 0,
// len)), Fresh allocates its output per call (doFinal(in), digest()), as
// core/engines/workers/java/Worker.java does; each AES-GCM message is a new
// Cipher there too (the JCA refuses a second encryption under one key and
// nonce). The input is the file the script wrote (cryptobench's generated
// bytes).
//
// usage: java Peers INPUT [WARMUP_MS [ITERATIONS]] >> TSV (engine alg size
// ns: the median over ITERATIONS batches of 100 ms of each batch's mean
// time per call, after WARMUP_MS of calls, JMH's defaults in spirit; the
// loop ends on a flag, not on a clock read per call, as JMH's does).
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

public final class Peers {
	interface Call {
		void run() throws Exception;
	}

	static byte[] counting(int n)
	{
		byte[] b = new byte[n];
		for (int i = 0; i < n; i++)
			b[i] = (byte)i;
		return b;
	}

	// A fresh call's output, kept until the next call's replaces it, as the
	// worker keeps its last output (core/engines/workers/java/Worker.java):
	// dropped, the array never escapes, and once the call site is
	// monomorphic C2 may leave out its allocation, which the worker's call
	// cannot.
	static byte[] last; // a plain field, as the worker's array slot: no fence per call

	static Call call(String alg, boolean reuse, byte[] in) throws Exception
	{
		int n = in.length;
		if (alg.startsWith("sha")) {
			MessageDigest md = MessageDigest.getInstance(alg.equals("sha256") ? "SHA-256" : "SHA-512");
			byte[] out = new byte[md.getDigestLength()];
			if (reuse)
				return () -> {
					md.update(in, 0, n);
					md.digest(out, 0, out.length);
				};
			return () -> {
				md.update(in, 0, n);
				last = md.digest();
			};
		}
		if (alg.equals("aes-256-gcm")) {
			SecretKeySpec key = new SecretKeySpec(counting(32), "AES");
			byte[] nonce = counting(12), out = new byte[n + 16];
			java.security.Provider p = Cipher.getInstance("AES/GCM/NoPadding").getProvider();
			return () -> {
				Cipher c = Cipher.getInstance("AES/GCM/NoPadding", p);
				c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce));
				if (reuse)
					c.doFinal(in, 0, n, out, 0);
				else
					last = c.doFinal(in);
			};
		}
		Cipher c = Cipher.getInstance("AES/CBC/NoPadding");
		c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(counting(16), "AES"), new IvParameterSpec(counting(16)));
		byte[] out = new byte[n];
		if (reuse)
			return () -> c.doFinal(in, 0, n, out, 0);
		return () -> { last = c.doFinal(in); };
	}

	// Set by the timer's thread when a batch's time is up.
	static volatile boolean done;
	static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
		Thread t = new Thread(r, "batch timer");
		t.setDaemon(true);
		return t;
	});

	// Calls of FN for NS nanoseconds: the mean time per call. The clock is
	// read at the batch's two ends only, and the loop tests a volatile flag
	// that a timer's thread sets, as JMH's generated loop does: a
	// System.nanoTime per call cost some 20-30 ns here, a fifth to a third
	// of a 64-byte SHA-256 or AES-CBC call, which the worker's loop does
	// not pay.
	static double batch(Call fn, long ns) throws Exception
	{
		done = false;
		TIMER.schedule(() -> { done = true; }, ns, TimeUnit.NANOSECONDS);
		long calls = 0, t0 = System.nanoTime();
		do {
			fn.run();
			calls++;
		} while (!done);
		return (double)(System.nanoTime() - t0) / calls;
	}

	// WARMUP_NS of calls before timing, as the worker warms up: HotSpot uses
	// the AES and GHASH intrinsics only from C2's code, and the first long
	// message sends code compiled for short ones back to the interpreter, so
	// shorter prefixes (256 B, 16 KiB) come first, then the cell's own
	// calls, the prefixes again, and the cell's own calls for the rest of
	// the time. Two seconds of 1 MiB AES-GCM calls alone left the loop on
	// C1's code at some 30 ms per call.
	static void warmUp(byte[] all, String alg, boolean reuse, int size, Call fn, long warmupNs) throws Exception
	{
		long slice = warmupNs / 8;
		for (int pass = 0; pass < 2; pass++) {
			for (int prefix : new int[] {256, 16384})
				if (prefix < size)
					batch(call(alg, reuse, Arrays.copyOf(all, prefix)), slice);
			batch(fn, slice);
		}
		batch(fn, warmupNs - 6 * slice);
	}

	public static void main(String[] args) throws Exception
	{
		byte[] all = Files.readAllBytes(Paths.get(args[0]));
		long warmupMs = args.length > 1 ? Long.parseLong(args[1]) : 2000;
		int iterations = args.length > 2 ? Integer.parseInt(args[2]) : 10;
		for (String alg : new String[] {"sha256", "sha512", "aes-256-gcm", "aes-128-cbc"}) {
			for (int size : new int[] {64, 16384, 1048576}) {
				for (boolean reuse : new boolean[] {true, false}) {
					Call fn = call(alg, reuse, Arrays.copyOf(all, size));
					warmUp(all, alg, reuse, size, fn, warmupMs * 1_000_000);
					double[] means = new double[iterations];
					for (int i = 0; i < iterations; i++)
						means[i] = batch(fn, 100_000_000);
					Arrays.sort(means);
					double median = iterations % 2 == 1 ? means[iterations / 2]
					                                    : (means[iterations / 2 - 1] + means[iterations / 2]) / 2;
					System.out.printf("%s\t%s\t%d\t%.3f%n", reuse ? "java-jca" : "java-jca-output=fresh", alg, size,
					                  median);
				}
			}
		}
	}
}
