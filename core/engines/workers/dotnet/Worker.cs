// cryptobench worker for .NET (see ../PROTOCOL.md).
//
// Speaks JSON lines on stdin/stdout: a hello first, then one result per
// request. One call is one message through System.Security.Cryptography:
// SHA256.HashData and its siblings, Aes.EncryptCbc/DecryptCbc (no padding),
// AesGcm and ChaCha20Poly1305 (Encrypt/Decrypt with a 16-byte tag). AES-CTR
// is not offered by .NET.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Runtime.InteropServices;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;

static class Worker
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

    static readonly Dictionary<string, Func<ReadOnlyMemory<byte>, byte[]>> Hashes = new()
    {
        ["md5"] = m => MD5.HashData(m.Span),
        ["sha1"] = m => SHA1.HashData(m.Span),
        ["sha256"] = m => SHA256.HashData(m.Span),
        ["sha512"] = m => SHA512.HashData(m.Span),
        ["sha3-256"] = m => SHA3_256.HashData(m.Span),
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
        return a;
    }

    // One message: the output, or null when the tag is rejected.
    static Func<ReadOnlyMemory<byte>, byte[]> Cipher(string alg, byte[] key, byte[] iv, byte[] aad, bool decrypt)
    {
        if (IsAead(alg))
        {
            // The key schedule once, as a C engine's open does; a message per call.
            ChaCha20Poly1305 chacha = alg == "chacha20-poly1305" ? new ChaCha20Poly1305(key) : null;
            AesGcm gcm = chacha == null ? new AesGcm(key, 16) : null;
            if (!decrypt)
                return m =>
                {
                    var outb = new byte[m.Length + 16];
                    var ct = new Span<byte>(outb, 0, m.Length);
                    var tag = new Span<byte>(outb, m.Length, 16);
                    if (chacha != null) chacha.Encrypt(iv, m.Span, ct, tag, aad);
                    else gcm.Encrypt(iv, m.Span, ct, tag, aad);
                    return outb;
                };
            return m =>
            {
                int n = m.Length - 16;
                var pt = new byte[n];
                try
                {
                    if (chacha != null) chacha.Decrypt(iv, m.Span.Slice(0, n), m.Span.Slice(n), pt, aad);
                    else gcm.Decrypt(iv, m.Span.Slice(0, n), m.Span.Slice(n), pt, aad);
                }
                catch (AuthenticationTagMismatchException) { return null; }
                return pt;
            };
        }
        var aes = Aes.Create();
        aes.Key = key;
        if (decrypt) return m => aes.DecryptCbc(m.Span, iv, PaddingMode.None);
        return m => aes.EncryptCbc(m.Span, iv, PaddingMode.None);
    }

    static JsonObject Run(JsonObject req)
    {
        string alg = (string)req["algorithm"], op = (string)req["op"];
        long size = (long)req["size"], calls = (long)req["calls"];
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
        Func<ReadOnlyMemory<byte>, byte[]> call;
        if (op == "hash")
        {
            call = Hashes[alg];
        }
        else
        {
            var key = Material(req["key"] ?? JsonValue.Create("counting"), KeyLen(alg));
            var iv = Material(req["iv"] ?? JsonValue.Create("counting"), IvLen(alg));
            var aad = Material(req["aad"], 0);
            if (op == "encrypt")
            {
                call = Cipher(alg, key, iv, aad, false);
            }
            else
            {
                byte[] sealedMsg;
                if (explicitInput)
                {
                    var tag = IsAead(alg) ? Convert.FromHexString((string)req["tag"]) : Array.Empty<byte>();
                    sealedMsg = new byte[input.Length + tag.Length];
                    input.Span.CopyTo(sealedMsg);
                    tag.CopyTo(sealedMsg, input.Length);
                    inputSha = null;
                }
                else
                {
                    sealedMsg = Cipher(alg, key, iv, aad, false)(input);
                    if (op == "decrypt-forged") sealedMsg[size] ^= 1;
                }
                input = sealedMsg;
                call = Cipher(alg, key, iv, aad, true);
            }
        }
        byte[] output = null;
        long rejected = 0;
        var proc = Process.GetCurrentProcess();
        var cpu0 = proc.TotalProcessorTime;
        long t0 = Stopwatch.GetTimestamp();
        for (long i = 0; i < calls; i++)
        {
            output = call(input);
            if (output == null) rejected++;
        }
        long t1 = Stopwatch.GetTimestamp();
        proc.Refresh();
        var cpu1 = proc.TotalProcessorTime;
        if (rejected != 0 && rejected != calls)
            return new JsonObject { ["status"] = "error", ["error"] = $"{rejected} of {calls} calls rejected the tag" };
        inputSha ??= Convert.ToHexString(SHA256.HashData(output ?? Array.Empty<byte>())).ToLowerInvariant();
        return new JsonObject
        {
            ["status"] = rejected != 0 ? "rejected" : "ok",
            ["calls"] = calls,
            ["ns"] = (long)((t1 - t0) * (1e9 / Stopwatch.Frequency)),
            ["cpu_ns"] = (long)((cpu1 - cpu0).Ticks * 100),
            ["input_sha256"] = inputSha,
            ["output"] = Convert.ToBase64String(output ?? Array.Empty<byte>()),
        };
    }

    // The answer as one line. System.Text.Json refuses a string value longer
    // than 166,666,666 characters (the base64 of a 128 MiB ciphertext is
    // 178,956,996): the output, which is base64 and needs no escaping, is
    // written around the serializer.
    static void Send(StreamWriter stdout, JsonObject answer)
    {
        string output = answer["output"]?.GetValue<string>();
        if (output == null)
        {
            stdout.WriteLine(answer.ToJsonString());
            return;
        }
        answer.Remove("output");
        string rest = answer.ToJsonString();
        stdout.Write(rest.Substring(0, rest.Length - 1));
        stdout.Write(rest.Length > 2 ? ",\"output\":\"" : "\"output\":\"");
        stdout.Flush();
        // In one piece: through the writer's small buffer, 179 MB took 18 s.
        stdout.BaseStream.Write(Encoding.ASCII.GetBytes(output));
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
            ["protocol"] = 1,
            ["engine"] = "dotnet",
            ["runtime"] = RuntimeInformation.FrameworkDescription,
            ["executable"] = Environment.ProcessPath,
            ["library"] = OpenSslVersion(),
            ["module"] = "System.Security.Cryptography",
            ["clock"] = $"Stopwatch.GetTimestamp ({(Stopwatch.IsHighResolution ? "high resolution" : "low resolution")}, {Stopwatch.Frequency} Hz)",
            ["cpu_clock"] = "Process.TotalProcessorTime (whole process)",
            ["algorithms"] = Algorithms(),
        };
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
