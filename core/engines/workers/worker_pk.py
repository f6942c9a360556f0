"""Public-key cells of the python-cryptography worker (PROTOCOL.md, "Public-key
cells"), imported by worker.py.

Offered: RSA PKCS #1 v1.5 and PSS sign/verify of the digest (utils.Prehashed)
at 2048, 3072 and 4096 bits, ECDSA of the digest on P-256, P-384 and P-521,
Ed25519 of the message, ECDH on P-256 and P-384 and X25519, and keygen of
each key type: everything the cells name, in cryptography 38 (Debian 12) and
48 alike. Keys are imported from the request's DER (load_der_private_key,
load_der_public_key) before the timed loop; a call is the library's sign,
verify, exchange or generate and, for keygen, the minimum to write the new
key in the cells' layout (its numbers or raw bytes)."""

RSA_BITS = {"rsa-2048": 2048, "rsa-3072": 3072, "rsa-4096": 4096}
CURVES = {"p256": ("SECP256R1", "SHA256", 32), "p384": ("SECP384R1", "SHA384", 48),
          "p521": ("SECP521R1", "SHA512", 66)}
SIGN_OPS = ["sign", "verify", "verify-forged"]


def pk_algorithms():
    """Each public-key algorithm offered, with its ops (core/algorithms/algorithm.c's
    cb_op_applies: keygen once per key type, on the pkcs1, ecdsa, ed25519 and
    x25519 names)."""
    a = {}
    for bits in (2048, 3072, 4096):
        a["rsa-%d-pkcs1" % bits] = SIGN_OPS + ["keygen"]
        a["rsa-%d-pss" % bits] = list(SIGN_OPS)
    for c in ("p256", "p384", "p521"):
        a["ecdsa-" + c] = SIGN_OPS + ["keygen"]
    a["ed25519"] = SIGN_OPS + ["keygen"]
    a["ecdh-p256"] = ["derive"]
    a["ecdh-p384"] = ["derive"]
    a["x25519"] = ["derive", "keygen"]
    return a


def scheme(alg):
    if alg.startswith("rsa-"):
        return "pss" if alg.endswith("pss") else "pkcs1"
    return alg.split("-")[0]  # ecdsa, ecdh, ed25519, x25519


class CryptographyPk:
    def __init__(self):
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa, utils, x25519

        self.InvalidSignature, self.hashes, self.ser = InvalidSignature, hashes, serialization
        self.ec, self.ed25519, self.padding, self.rsa = ec, ed25519, padding, rsa
        self.utils, self.x25519 = utils, x25519

    def curve(self, alg):
        name, h, field = CURVES[alg.split("-")[1]]
        return getattr(self.ec, name)(), getattr(self.hashes, h), field

    def api(self, alg, op):
        s = scheme(alg)
        if op == "keygen":
            if s == "pkcs1":
                fresh = "rsa.generate_private_key(65537, %d); private_numbers(): n, p to_bytes" % RSA_BITS[alg[:8]]
            elif s == "ecdsa":
                fresh = ("ec.generate_private_key(%s()); private_value to_bytes, "
                         "public_bytes(X962, UncompressedPoint)" % CURVES[alg[6:]][0])
            else:
                fresh = "%sPrivateKey.generate(); private_bytes(Raw), public_bytes(Raw)" % s.capitalize()
        elif op == "derive":
            fresh = "key.exchange(peer)" if s == "x25519" else "key.exchange(ec.ECDH(), peer)"
        else:
            verb = "key.sign(" if op == "sign" else "public_key.verify(signature, "
            if s == "ed25519":
                fresh = verb + "message)"
            elif s == "ecdsa":
                fresh = verb + "digest, ec.ECDSA(Prehashed(%s())))" % CURVES[alg[6:]][1]
            elif s == "pss":
                fresh = verb + "digest, PSS(MGF1(SHA256()), 32), Prehashed(SHA256()))"
            else:
                fresh = verb + "digest, PKCS1v15(), Prehashed(SHA256()))"
        return {"reuse": None, "fresh": fresh}  # every call allocates its output

    def keygen(self, alg):
        """One new key pair per call, in core/algorithms/pk.h's layout, as pieces."""
        s, ser = scheme(alg), self.ser
        if s == "pkcs1":
            bits, generate = RSA_BITS[alg[:8]], self.rsa.generate_private_key

            def fn(_):
                numbers = generate(65537, bits).private_numbers()
                last[:] = [numbers.public_numbers.n.to_bytes(bits // 8, "big"),
                           numbers.p.to_bytes(bits // 16, "big")]
                return True
        elif s == "ecdsa":
            curve, _, field = self.curve(alg)
            generate, X962, point = self.ec.generate_private_key, ser.Encoding.X962, ser.PublicFormat.UncompressedPoint

            def fn(_):
                key = generate(curve)
                last[:] = [key.private_numbers().private_value.to_bytes(field, "big"),
                           key.public_key().public_bytes(X962, point)]
                return True
        else:
            cls = self.ed25519.Ed25519PrivateKey if s == "ed25519" else self.x25519.X25519PrivateKey
            raw, none = ser.Encoding.Raw, ser.NoEncryption()
            priv, pub = ser.PrivateFormat.Raw, ser.PublicFormat.Raw

            def fn(_):
                key = cls.generate()
                last[:] = [key.private_bytes(raw, priv, none), key.public_key().public_bytes(raw, pub)]
                return True
        last = [b"", b""]
        return fn, lambda: list(last)

    def calls(self, alg, op, pk):
        """(fn, pieces) of one cell: FN(message) is one call, False when the
        signature was rejected; PIECES() the last call's output."""
        if op == "keygen":
            return self.keygen(alg)
        s, ser, last = scheme(alg), self.ser, [b""]
        h = lambda name: bytes.fromhex(pk[name])
        if op == "derive":
            key, peer = ser.load_der_private_key(h("private"), None), ser.load_der_public_key(h("peer"))
            args = (peer,) if s == "x25519" else (self.ec.ECDH(), peer)
            exchange = key.exchange

            def fn(_):
                last[0] = exchange(*args)
                return True

            return fn, lambda: [last[0]]
        if s == "ed25519":
            args = ()
        elif s == "ecdsa":
            args = (self.ec.ECDSA(self.utils.Prehashed(self.curve(alg)[1]())),)
        else:
            sha = self.hashes.SHA256()
            pad = (self.padding.PSS(mgf=self.padding.MGF1(sha), salt_length=32) if s == "pss"
                   else self.padding.PKCS1v15())
            args = (pad, self.utils.Prehashed(sha))
        digest = h("digest") if s != "ed25519" else None
        if op == "sign":
            sign = ser.load_der_private_key(h("private"), None).sign

            def fn(msg):
                last[0] = sign(msg if digest is None else digest, *args)
                return True

            return fn, lambda: [last[0]]
        verify, sig, invalid = ser.load_der_public_key(h("public")).verify, h("signature"), self.InvalidSignature

        def fn(msg):
            try:
                verify(sig, msg if digest is None else digest, *args)
            except invalid:
                return False
            return True

        return fn, lambda: []
