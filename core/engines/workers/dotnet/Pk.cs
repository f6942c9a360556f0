// Public-key cells of the .NET worker (../PROTOCOL.md, "Public-key cells").
//
// System.Security.Cryptography on .NET's native OpenSSL: RSA
// (ImportPkcs8PrivateKey, SignHash of the digest with Pkcs1 or Pss, whose
// salt is the hash's length), ECDsa (SignHash of the digest, DER output),
// ECDiffieHellman (DeriveRawSecretAgreement, .NET 8 and later: the x
// coordinate, unhashed), and keygen with RSA.Create(bits) and
// ECDsa.Create(curve), written out with ExportParameters. .NET has no
// Ed25519 or X25519: those are not offered. Keys are imported before the
// timed loop; each call allocates its output (there is no reuse call), and
// OpenSSL's own RNG serves the calls.
using System;
using System.Collections.Generic;
using System.Security.Cryptography;
using System.Text.Json.Nodes;

static partial class Worker
{
    static readonly Dictionary<string, (int Bits, ECCurve Curve, string CurveName)> PkAlgs = new()
    {
        ["rsa-2048-pkcs1"] = (2048, default, null),
        ["rsa-3072-pkcs1"] = (3072, default, null),
        ["rsa-4096-pkcs1"] = (4096, default, null),
        ["rsa-2048-pss"] = (2048, default, null),
        ["rsa-3072-pss"] = (3072, default, null),
        ["rsa-4096-pss"] = (4096, default, null),
        ["ecdsa-p256"] = (256, ECCurve.NamedCurves.nistP256, "nistP256"),
        ["ecdsa-p384"] = (384, ECCurve.NamedCurves.nistP384, "nistP384"),
        ["ecdsa-p521"] = (521, ECCurve.NamedCurves.nistP521, "nistP521"),
        ["ecdh-p256"] = (256, ECCurve.NamedCurves.nistP256, "nistP256"),
        ["ecdh-p384"] = (384, ECCurve.NamedCurves.nistP384, "nistP384"),
    };

    static bool IsPk(string alg) => PkAlgs.ContainsKey(alg);

    static string[] PkOps(string alg) =>
        alg.StartsWith("ecdh") ? new[] { "derive" }
        : alg.EndsWith("pss") ? new[] { "sign", "verify", "verify-forged" }
        : new[] { "sign", "verify", "verify-forged", "keygen" };

    static void AddPkAlgorithms(JsonObject a)
    {
        foreach (var alg in PkAlgs.Keys)
        {
            var ops = new JsonArray();
            foreach (var op in PkOps(alg)) ops.Add(op);
            a[alg] = ops;
        }
    }

    static string PkCall(string alg, string op)
    {
        var (bits, _, curve) = PkAlgs[alg];
        bool rsa = alg.StartsWith("rsa");
        if (op == "keygen")
            return rsa ? $"RSA.Create({bits}); ExportParameters(true); Dispose()"
                       : $"ECDsa.Create(ECCurve.NamedCurves.{curve}); ExportParameters(true); Dispose()";
        if (op == "derive")
            return "ECDiffieHellman.ImportPkcs8PrivateKey once; DeriveRawSecretAgreement(peer.PublicKey)";
        string pad = alg.EndsWith("pss") ? "Pss" : "Pkcs1";
        if (op == "sign")
            return rsa ? $"RSA.ImportPkcs8PrivateKey once; SignHash(digest, HashAlgorithmName.SHA256, RSASignaturePadding.{pad})"
                       : "ECDsa.ImportPkcs8PrivateKey once; SignHash(digest, DSASignatureFormat.Rfc3279DerSequence)";
        return rsa ? $"RSA.ImportSubjectPublicKeyInfo once; VerifyHash(digest, signature, HashAlgorithmName.SHA256, RSASignaturePadding.{pad})"
                   : "ECDsa.ImportSubjectPublicKeyInfo once; VerifyHash(digest, signature, DSASignatureFormat.Rfc3279DerSequence)";
    }

    static JsonObject PkApi(string alg, string op) => new JsonObject { ["reuse"] = null, ["fresh"] = PkCall(alg, op) };

    static byte[] PkField(JsonObject pk, string name)
    {
        string s = (string)pk?[name];
        if (s == null) throw new ArgumentException($"pk.{name} is missing");
        return Convert.FromHexString(s);
    }

    // V big-endian at the end of OUT[OFF..OFF+LEN]: ExportParameters gives
    // each number at its full length already; this is the layout's copy.
    static void Put(byte[] v, byte[] outb, int off, int len) => v.CopyTo(outb, off + len - v.Length);

    // One cell's calls (false: the signature was rejected); LAST the output.
    static Func<ReadOnlyMemory<byte>, bool> PkMake(string alg, string op, JsonObject pk, byte[][] last)
    {
        var (bits, curve, _) = PkAlgs[alg];
        last[0] = Array.Empty<byte>();
        if (op == "keygen")
        {
            int f = (bits + 7) / 8;
            if (alg.StartsWith("rsa"))
                return m =>
                {
                    using var k = RSA.Create(bits);
                    var p = k.ExportParameters(true);
                    var outb = new byte[bits / 8 + bits / 16];
                    Put(p.Modulus, outb, 0, bits / 8);
                    Put(p.P, outb, bits / 8, bits / 16);
                    last[0] = outb;
                    return true;
                };
            return m =>
            {
                using var k = ECDsa.Create(curve);
                var p = k.ExportParameters(true);
                var outb = new byte[3 * f + 1];
                Put(p.D, outb, 0, f);
                outb[f] = 4;
                Put(p.Q.X, outb, f + 1, f);
                Put(p.Q.Y, outb, 2 * f + 1, f);
                last[0] = outb;
                return true;
            };
        }
        if (op == "derive")
        {
            var key = ECDiffieHellman.Create();
            key.ImportPkcs8PrivateKey(PkField(pk, "private"), out _);
            var peerKey = ECDiffieHellman.Create();
            peerKey.ImportSubjectPublicKeyInfo(PkField(pk, "peer"), out _);
            var peer = peerKey.PublicKey;
            return m => { last[0] = key.DeriveRawSecretAgreement(peer); return true; };
        }
        byte[] digest = PkField(pk, "digest");
        var padding = alg.EndsWith("pss") ? RSASignaturePadding.Pss : RSASignaturePadding.Pkcs1;
        var sha256 = HashAlgorithmName.SHA256;
        const DSASignatureFormat der = DSASignatureFormat.Rfc3279DerSequence;
        if (op == "sign")
        {
            if (alg.StartsWith("rsa"))
            {
                var rsa = RSA.Create();
                rsa.ImportPkcs8PrivateKey(PkField(pk, "private"), out _);
                return m => { last[0] = rsa.SignHash(digest, sha256, padding); return true; };
            }
            var ec = ECDsa.Create();
            ec.ImportPkcs8PrivateKey(PkField(pk, "private"), out _);
            return m => { last[0] = ec.SignHash(digest, der); return true; };
        }
        byte[] sig = PkField(pk, "signature");
        if (alg.StartsWith("rsa"))
        {
            var rsa = RSA.Create();
            rsa.ImportSubjectPublicKeyInfo(PkField(pk, "public"), out _);
            return m => rsa.VerifyHash(digest, sig, sha256, padding);
        }
        var pub = ECDsa.Create();
        pub.ImportSubjectPublicKeyInfo(PkField(pk, "public"), out _);
        // A signature whose DER does not parse is one it rejects.
        return m =>
        {
            try { return pub.VerifyHash(digest, sig, der); }
            catch (CryptographicException) { return false; }
        };
    }

    // A public-key cell's trial on the placed message, as Run's for the rest.
    static JsonObject PkRun(JsonObject req, string alg, string op, ReadOnlyMemory<byte> input, string inputSha, long calls, int inOffset, int stack)
    {
        if (Array.IndexOf(PkOps(alg), op) < 0)
            return new JsonObject { ["status"] = "error", ["error"] = $"dotnet does not offer {op} for {alg}" };
        var placed = Placed(ref inStore, input.Length, inOffset);
        input.Span.CopyTo(placed.Span);
        var last = new byte[1][];
        var fn = PkMake(alg, op, req["pk"] as JsonObject, last);
        string api = PkCall(alg, op);
        assembledInLoop = 0;
        var (ns, cpuNs, rejected) = TimedLoop(fn, placed, calls, stack);
        if (rejected != 0 && rejected != calls)
            return new JsonObject { ["status"] = "error", ["error"] = $"{rejected} of {calls} calls rejected the signature" };
        return new JsonObject
        {
            ["status"] = rejected != 0 ? "rejected" : "ok",
            ["calls"] = calls,
            ["ns"] = ns,
            ["cpu_ns"] = cpuNs,
            ["timed"] = new JsonObject { ["calls"] = calls, ["api"] = api, ["output"] = "fresh", ["assembled_in_loop"] = assembledInLoop },
            ["placed"] = new JsonObject { ["input_offset"] = PageOffset(placed), ["out"] = null, ["stack"] = stack },
            ["input_sha256"] = inputSha,
            ["output"] = Convert.ToBase64String(rejected != 0 ? Array.Empty<byte>() : last[0]),
        };
    }
}
