// cryptobench worker for .NET (see ../PROTOCOL.md).
//
// Speaks JSON lines on stdin/stdout: a hello first, then one result per
// request. One call is one message through System.Security.Cryptography:
// SHA256.HashData and its siblings, Aes.EncryptCbc/DecryptCbc (no padding),
// AesGcm and ChaCha20Poly1305 (Encrypt/Decrypt with a 16-byte tag). AES-CTR
// is not offered by .NET. The timed loop holds those calls and nothing else:
// with output "reuse" each writes into spans made before the loop (the span
// overloads), with "fresh" each allocates its output as the array overloads
// do; the last call's pieces are joined after the timing. Pk.cs adds the
// public-key cells.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;

static partial class Worker
{
    const int Unit = 1 << 20;
    static uint seed = 0;
    static bool haveSeed = false;
    static byte[] unit = Array.Empty<byte>();
    static byte[] data = Array.Empty<byte>();
    static readonly Dictionary<long, string> digests = new();

    static bool IsAead(string alg) => alg.EndsWith("gcm") || alg == "chacha20-poly1305";
    static int KeyLen(string alg) => alg.StartsWith("aes-128") ? 16 : 32;
    static int IvLen(string alg) => IsAead(alg) ? 12 : 16;

    static byte[] Counting(int n)
    {
        var b = new byte[n];
        for (int i = 0; i < n; i++) b[i] = (byte)i;
        return b;
    }

    static byte[] Material(JsonNode v, int n)
    {
        if (v == null) return null;
        string s = v.GetValue<string>();
        return s == "counting" ? Counting(n) : Convert.FromHexString(s);
    }

    // The generator (../PROTOCOL.md): the 1 MiB unit repeated to the largest size.
    static (ReadOnlyMemory<byte>, string) Generated(uint s, long size)
    {
        if (!haveSeed || s != seed)
        {
            uint x = s;
            unit = new byte[Unit];
            for (int i = 0; i < Unit; i++)
            {
                x ^= x << 13; x ^= x >> 17; x ^= x << 5;
                unit[i] = (byte)x;
            }
            seed = s; haveSeed = true; data = unit; digests.Clear();
        }
        if (data.LongLength < size)
        {
            long reps = (size + Unit - 1) / Unit;
            data = new byte[reps * Unit];
            for (long r = 0; r < reps; r++) Buffer.BlockCopy(unit, 0, data, (int)(r * Unit), Unit);
        }
        var view = new ReadOnlyMemory<byte>(data, 0, (int)size);
        if (!digests.TryGetValue(size, out var d))
            digests[size] = d = Convert.ToHexString(SHA256.HashData(view.Span)).ToLowerInvariant();
        return (view, d);
    }

    // Each hash's two calls: into a caller's span (reuse) and allocating (fresh).
    static readonly Dictionary<string, (string Name, Func<ReadOnlyMemory<byte>, Memory<byte>, int> Into, Func<ReadOnlyMemory<byte>, byte[]> Fresh)> Hashes = new()
    {
        ["md5"] = ("MD5", (m, d) => MD5.HashData(m.Span, d.Span), m => MD5.HashData(m.Span)),
        ["sha1"] = ("SHA1", (m, d) => SHA1.HashData(m.Span, d.Span), m => SHA1.HashData(m.Span)),
        ["sha256"] = ("SHA256", (m, d) => SHA256.HashData(m.Span, d.Span), m => SHA256.HashData(m.Span)),
        ["sha512"] = ("SHA512", (m, d) => SHA512.HashData(m.Span, d.Span), m => SHA512.HashData(m.Span)),
        ["sha3-256"] = ("SHA3_256", (m, d) => SHA3_256.HashData(m.Span, d.Span), m => SHA3_256.HashData(m.Span)),
    };

    static JsonObject Algorithms()
    {
        var a = new JsonObject();
        foreach (var h in Hashes.Keys)
            if (h != "sha3-256" || SHA3_256.IsSupported) a[h] = new JsonArray("hash");
        foreach (var c in new[] { "aes-128-cbc", "aes-256-cbc" }) a[c] = new JsonArray("encrypt", "decrypt");
        foreach (var c in new[] { "aes-128-gcm", "aes-256-gcm" })
            if (AesGcm.IsSupported) a[c] = new JsonArray("encrypt", "decrypt", "decrypt-forged");
        if (ChaCha20Poly1305.IsSupported) a["chacha20-poly1305"] = new JsonArray("encrypt", "decrypt", "decrypt-forged");
        AddPkAlgorithms(a);
        return a;
    }

    // What each output mode calls, per algorithm and op.
    static JsonObject Api(string alg, string op)
    {
        if (IsPk(alg)) return PkApi(alg, op);
        if (Hashes.TryGetValue(alg, out var h))
            return new JsonObject { ["reuse"] = $"{h.Name}.HashData(source, destination)", ["fresh"] = $"{h.Name}.HashData(source)" };
        string verb = op == "encrypt" ? "Encrypt" : "Decrypt";
        if (IsAead(alg))
        {
            string type = alg == "chacha20-poly1305" ? "ChaCha20Poly1305" : "AesGcm";
            string args = op == "encrypt" ? "(nonce, plaintext, ciphertext, tag, aad)" : "(nonce, ciphertext, tag, plaintext, aad)";
            string made = op == "encrypt" ? "new byte[n] and new byte[16]" : "new byte[n]";
            return new JsonObject { ["reuse"] = $"{type}.{verb}{args}", ["fresh"] = $"{type}.{verb}{args} into {made} per call" };
        }
        return new JsonObject { ["reuse"] = $"Aes.{verb}Cbc(input, iv, destination, PaddingMode.None)", ["fresh"] = $"Aes.{verb}Cbc(input, iv, PaddingMode.None)" };
    }

    // Whether a timed loop runs, and how many outputs were assembled while it
    // did (../PROTOCOL.md: timed.assembled_in_loop, which must be 0).
    static bool timing;
    static long assembledInLoop;

    // The output from the last call's pieces (AEAD: ciphertext, then tag),
    // joined in STORE, grown when too short and kept: an answer leaves no
    // garbage behind for the next trial's calls (Send).
    static Memory<byte> Assemble(ref byte[] store, ReadOnlyMemory<byte>[] pieces)
    {
        if (timing) assembledInLoop++;
        long n = 0;
        foreach (var p in pieces) n += p.Length;
        if (store.Length < n) store = new byte[n];
        long at = 0;
        foreach (var p in pieces) { p.Span.CopyTo(store.AsSpan((int)at)); at += p.Length; }
        return store.AsMemory(0, (int)n);
    }

    static byte[] sealStore = Array.Empty<byte>(), answerStore = Array.Empty<byte>();

    // One cell's calls: Fn is one message (false: the tag was rejected);
    // Pieces the last call's output, joined after the timing by Assemble.
    sealed class Calls
    {
        public string Api, Output;
        public Func<ReadOnlyMemory<byte>, bool> Fn;
        public Func<ReadOnlyMemory<byte>[]> Pieces;
    }

    // Page-placed memory: a pinned array (it never moves) and a slice of it
    // that starts OFFSET bytes past a page boundary, read from its address.
    const int Page = 4096;
    static Memory<byte> Placed(ref byte[] store, int n, int offset)
    {
        if (store.Length < n + 2 * Page + 64) store = GC.AllocateArray<byte>(n + 2 * Page + 64, pinned: true);
        long addr = (long)Marshal.UnsafeAddrOfPinnedArrayElement(store, 0);
        int shift = (int)(((offset - addr % Page) % Page + Page) % Page);
        return new Memory<byte>(store, shift, n);
    }

    static int PageOffset(Memory<byte> m)
    {
        if (!MemoryMarshal.TryGetArray<byte>(m, out var seg)) return -1;
        return (int)(((long)Marshal.UnsafeAddrOfPinnedArrayElement(seg.Array, seg.Offset)) % Page);
    }

    static byte[] inStore = Array.Empty<byte>(), outStore = Array.Empty<byte>();

    static Calls Make(string alg, string op, string output, long n, byte[] key, byte[] iv, byte[] aad, int outOffset)
    {
        var api = Api(alg, op);
        var c = new Calls { Output = output, Api = (string)api[output] };
        bool reuse = output == "reuse";
        ReadOnlyMemory<byte>[] last = { ReadOnlyMemory<byte>.Empty, ReadOnlyMemory<byte>.Empty };
        if (Hashes.TryGetValue(alg, out var h))
        {
            if (reuse)
            {
                var d = Placed(ref outStore, 64, outOffset);
                int len = h.Into(ReadOnlyMemory<byte>.Empty, d);
                c.Fn = m => { h.Into(m, d); return true; };
                c.Pieces = () => new ReadOnlyMemory<byte>[] { d.Slice(0, len) };
            }
            else
            {
                c.Fn = m => { last[0] = h.Fresh(m); return true; };
                c.Pieces = () => new[] { last[0] };
            }
            return c;
        }
        bool decrypt = op != "encrypt";
        if (IsAead(alg))
        {
            // The key schedule once, as a C engine's open does; a message per call.
            ChaCha20Poly1305 chacha = alg == "chacha20-poly1305" ? new ChaCha20Poly1305(key) : null;
            AesGcm gcm = chacha == null ? new AesGcm(key, 16) : null;
            int size = (int)(decrypt ? n - 16 : n);
            Memory<byte> text = reuse ? Placed(ref outStore, size + 16, outOffset) : Memory<byte>.Empty;
            Memory<byte> tag = reuse ? text.Slice(size, 16) : Memory<byte>.Empty;
            text = reuse ? text.Slice(0, size) : text;
            if (!decrypt)
            {
                c.Fn = m =>
                {
                    Memory<byte> ct = reuse ? text : new byte[m.Length], t = reuse ? tag : new byte[16];
                    if (chacha != null) chacha.Encrypt(iv, m.Span, ct.Span, t.Span, aad);
                    else gcm.Encrypt(iv, m.Span, ct.Span, t.Span, aad);
                    last[0] = ct; last[1] = t;
                    return true;
                };
                c.Pieces = () => new[] { last[0], last[1] };
                return c;
            }
            c.Fn = m =>
            {
                int k = m.Length - 16;
                Memory<byte> pt = reuse ? text : new byte[k];
                try
                {
                    if (chacha != null) chacha.Decrypt(iv, m.Span.Slice(0, k), m.Span.Slice(k), pt.Span, aad);
                    else gcm.Decrypt(iv, m.Span.Slice(0, k), m.Span.Slice(k), pt.Span, aad);
                }
                catch (AuthenticationTagMismatchException) { return false; }
                last[0] = pt;
                return true;
            };
            c.Pieces = () => new[] { last[0] };
            return c;
        }
        var aes = Aes.Create();
        aes.Key = key;
        if (reuse)
        {
            var d = Placed(ref outStore, (int)n, outOffset);
            if (decrypt) c.Fn = m => { aes.DecryptCbc(m.Span, iv, d.Span, PaddingMode.None); return true; };
            else c.Fn = m => { aes.EncryptCbc(m.Span, iv, d.Span, PaddingMode.None); return true; };
            c.Pieces = () => new ReadOnlyMemory<byte>[] { d };
            return c;
        }
        if (decrypt) c.Fn = m => { last[0] = aes.DecryptCbc(m.Span, iv, PaddingMode.None); return true; };
        else c.Fn = m => { last[0] = aes.EncryptCbc(m.Span, iv, PaddingMode.None); return true; };
        c.Pieces = () => new[] { last[0] };
        return c;
    }

    // CALLS calls of FN and nothing else, on a stack moved down by STACK
    // bytes (the run's placement of this trial).
    static (long ns, long cpuNs, long rejected) TimedLoop(Func<ReadOnlyMemory<byte>, bool> fn, ReadOnlyMemory<byte> input, long calls, int stack)
    {
        Span<byte> pad = stackalloc byte[stack + 1];
        pad[stack] = 1; // a frame of STACK bytes more below this one
        return Loop(fn, input, calls);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    static (long, long, long) Loop(Func<ReadOnlyMemory<byte>, bool> fn, ReadOnlyMemory<byte> input, long calls)
    {
        long rejected = 0;
        var proc = Process.GetCurrentProcess();
        timing = true;
        var cpu0 = proc.TotalProcessorTime;
        long t0 = Stopwatch.GetTimestamp();
        for (long i = 0; i < calls; i++)
            if (!fn(input)) rejected++;
        long t1 = Stopwatch.GetTimestamp();
        proc.Refresh();
        var cpu1 = proc.TotalProcessorTime;
        timing = false;
        return ((long)((t1 - t0) * (1e9 / Stopwatch.Frequency)), (cpu1 - cpu0).Ticks * 100, rejected);
    }

    static JsonObject Run(JsonObject req)
    {
        string alg = (string)req["algorithm"], op = (string)req["op"];
        long size = (long)req["size"], calls = (long)req["calls"];
        string output = (string)req["output"] ?? "reuse";
        if (output != "reuse" && output != "fresh")
            return new JsonObject { ["status"] = "error", ["error"] = $"output must be reuse or fresh, not {output}" };
        int inOffset = (int)(((long?)req["input_offset"] ?? 0) % Page);
        var layout = req["layout"] as JsonObject;
        int outOffset = (int)(((long?)layout?["out"] ?? 0) % Page), stack = (int)(((long?)layout?["stack"] ?? 0) % Page);
        var src = req["input"].AsObject();
        ReadOnlyMemory<byte> input;
        string inputSha;
        bool explicitInput = src.ContainsKey("base64");
        if (explicitInput)
        {
            var bytes = Convert.FromBase64String((string)src["base64"]);
            input = bytes;
            inputSha = Convert.ToHexString(SHA256.HashData(bytes)).ToLowerInvariant();
        }
        else
        {
            (input, inputSha) = Generated((uint)(long)src["seed"], size);
        }
        if (IsPk(alg)) return PkRun(req, alg, op, input, inputSha, calls, inOffset, stack);
        byte[] key = null, iv = null, aad = null;
        if (op != "hash")
        {
            key = Material(req["key"] ?? JsonValue.Create("counting"), KeyLen(alg));
            iv = Material(req["iv"] ?? JsonValue.Create("counting"), IvLen(alg));
            aad = Material(req["aad"], 0);
        }
        if (op.StartsWith("decrypt"))
        {
            Memory<byte> sealedMsg;
            if (explicitInput)
            {
                var tag = IsAead(alg) ? Convert.FromHexString((string)req["tag"]) : Array.Empty<byte>();
                sealedMsg = Assemble(ref sealStore, new ReadOnlyMemory<byte>[] { input, tag });
                inputSha = null;
            }
            else
            {
                var seal = Make(alg, "encrypt", "fresh", size, key, iv, aad, 0);
                seal.Fn(input);
                sealedMsg = Assemble(ref sealStore, seal.Pieces());
                if (op == "decrypt-forged") sealedMsg.Span[(int)size] ^= 1;
            }
            input = sealedMsg;
        }
        var placed = Placed(ref inStore, input.Length, inOffset); // where the run put its own input
        input.Span.CopyTo(placed.Span);
        var todo = Make(alg, op, output, placed.Length, key, iv, aad, outOffset);
        assembledInLoop = 0;
        var (ns, cpuNs, rejected) = TimedLoop(todo.Fn, placed, calls, stack);
        if (rejected != 0 && rejected != calls)
            return new JsonObject { ["status"] = "error", ["error"] = $"{rejected} of {calls} calls rejected the tag" };
        ReadOnlyMemory<byte> outb = rejected != 0 ? ReadOnlyMemory<byte>.Empty : Assemble(ref answerStore, todo.Pieces());
        inputSha ??= Convert.ToHexString(SHA256.HashData(outb.Span)).ToLowerInvariant();
        answerOutput = outb;
        return new JsonObject
        {
            ["status"] = rejected != 0 ? "rejected" : "ok",
            ["calls"] = calls,
            ["ns"] = ns,
            ["cpu_ns"] = cpuNs,
            ["timed"] = new JsonObject { ["calls"] = calls, ["api"] = todo.Api, ["output"] = todo.Output, ["assembled_in_loop"] = assembledInLoop },
            ["placed"] = new JsonObject { ["input_offset"] = PageOffset(placed), ["out"] = output == "reuse" ? outOffset : null, ["stack"] = stack },
            ["input_sha256"] = inputSha,
        };
    }

    // The answer as one line. System.Text.Json refuses a string value longer
    // than 166,666,666 characters (the base64 of a 128 MiB ciphertext is
    // 178,956,996): the output, which is base64 and needs no escaping, is
    // written around the serializer. A result's output (answerOutput, set by
    // Run) is encoded piece by piece into one buffer kept across answers: a
    // string of it, and its ASCII bytes, were 2.8 MB and 1.4 MB of garbage on
    // the large-object heap after each trial of a 1 MiB cell, which the
    // collector took back during the next trial's calls.
    static ReadOnlyMemory<byte>? answerOutput;
    static readonly byte[] base64Piece = new byte[65536];

    static void Send(StreamWriter stdout, JsonObject answer)
    {
        ReadOnlyMemory<byte>? bytes = answerOutput;
        answerOutput = null;
        string text = answer["output"]?.GetValue<string>(); // public-key answers carry it as text
        if (bytes == null && text == null)
        {
            stdout.WriteLine(answer.ToJsonString());
            return;
        }
        answer.Remove("output");
        string rest = answer.ToJsonString();
        stdout.Write(rest.Substring(0, rest.Length - 1));
        stdout.Write(rest.Length > 2 ? ",\"output\":\"" : "\"output\":\"");
        stdout.Flush();
        // In one piece or in 64 KiB ones: through the writer's small buffer, 179 MB took 18 s.
        if (bytes == null)
            stdout.BaseStream.Write(Encoding.ASCII.GetBytes(text));
        else
            for (int at = 0, step = base64Piece.Length / 4 * 3; at < bytes.Value.Length; at += step)
            {
                var piece = bytes.Value.Span.Slice(at, Math.Min(step, bytes.Value.Length - at));
                System.Buffers.Text.Base64.EncodeToUtf8(piece, base64Piece, out _, out int written);
                stdout.BaseStream.Write(base64Piece, 0, written);
            }
        stdout.WriteLine("\"}");
    }

    static string OpenSslVersion()
    {
        try
        {
#pragma warning disable CA1416 // Linux only: the worker runs where OpenSSL is .NET's library
            long v = SafeEvpPKeyHandle.OpenSslVersion;
            return $"OpenSSL {(v >> 28) & 0xf}.{(v >> 20) & 0xff}.{(v >> 4) & 0xffff} (0x{v:x}, .NET's native OpenSSL)";
#pragma warning restore CA1416
        }
        catch (Exception e) { return $"unknown ({e.GetType().Name})"; }
    }

    static int Main()
    {
        var stdout = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false)) { AutoFlush = true, NewLine = "\n" };
        var stdin = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false));
        var hello = new JsonObject
        {
            ["type"] = "hello",
            ["protocol"] = 2,
            ["engine"] = "dotnet",
            ["runtime"] = RuntimeInformation.FrameworkDescription,
            ["executable"] = Environment.ProcessPath,
            ["library"] = OpenSslVersion(),
            ["module"] = "System.Security.Cryptography",
            ["clock"] = $"Stopwatch.GetTimestamp ({(Stopwatch.IsHighResolution ? "high resolution" : "low resolution")}, {Stopwatch.Frequency} Hz)",
            ["cpu_clock"] = "Process.TotalProcessorTime (whole process)",
            ["algorithms"] = Algorithms(),
        };
        var apis = new JsonObject();
        foreach (var (alg, ops) in hello["algorithms"].AsObject())
        {
            var byOp = new JsonObject();
            foreach (var o in ops.AsArray()) byOp[(string)o] = Api(alg, (string)o);
            apis[alg] = byOp;
        }
        hello["calls"] = apis;
        stdout.WriteLine(hello.ToJsonString());
        string line;
        while ((line = stdin.ReadLine()) != null)
        {
            var req = JsonNode.Parse(line).AsObject();
            JsonObject answer;
            try { answer = Run(req); }
            catch (Exception e) { answer = new JsonObject { ["status"] = "error", ["error"] = $"{e.GetType().Name}: {e.Message}".Split('\n')[0] }; }
            answer["type"] = "result";
            answer["id"] = req["id"]?.DeepClone();
            Send(stdout, answer);
        }
        return 0;
    }
}
