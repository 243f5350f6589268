#!/usr/bin/env python3
"""Ed448 and X448 vectors for ParleyPGP's RFC 9580 algorithms 28 and 26, none of them written by the team.

    scripts/vectors/rfc9580_448.py Tests/ParleyPGPTests/Vectors/rfc9580/curve448

writes
  rfc8032-ed448.json  RFC 8032 §7.4's Ed448 vectors (pure Ed448; the one with context "foo" is marked, since
                      OpenPGP signs with the empty context and must not reproduce it),
  rfc7748-x448.json   RFC 7748 §5.2's X448 vectors (two scalar multiplications, 1 and 1,000 iterations) and §6.2's
                      Diffie-Hellman between Alice and Bob,
  sequoia/            an RFC 9580 Cv448 key (Ed448 primary and signing subkey, X448 encryption subkey) made by
                      Sequoia-PGP through pysequoia, a message encrypted to it and signed, inline, cleartext and
                      detached signatures, and manifest.json with what each must give.

The RFC vectors are copied from the RFCs' text; every one is checked here with Python `cryptography` (pip) before it
is written, so a copying mistake stops the script. Needs: pip install cryptography pysequoia.
"""
import json
import os
import sys

from cryptography.hazmat.primitives.asymmetric.ed448 import Ed448PrivateKey
from cryptography.hazmat.primitives.asymmetric.x448 import X448PrivateKey, X448PublicKey
from cryptography.hazmat.primitives import serialization

RAW = serialization.Encoding.Raw

# RFC 8032 §7.4: (name, secret key, public key, message, context, signature).
SEED1 = "c4eab05d357007c632f3dbb48489924d552b08fe0c353a0d4a1f00acda2c463afbea67c5e8d2877c5e3bc397a659949ef8021e954e0a12274e"
PUB1 = "43ba28f430cdff456ae531545f7ecd0ac834a55d9358c0372bfa0c6c6798c0866aea01eb00742802b8438ea4cb82169c235160627b4c3a9480"
ED448 = [
    ("-----Blank", "6c82a562cb808d10d632be89c8513ebf6c929f34ddfa8c9f63c9960ef6e348a3528c8a3fcc2f044e39a3fc5b94492f8f032e7549a20098f95b",
     "5fd7449b59b461fd2ce787ec616ad46a1da1342485a70e1f8a0ea75d80e96778edf124769b46c7061bd6783df1e50f6cd1fa1abeafe8256180", "", "",
     "533a37f6bbe457251f023c0d88f976ae2dfb504a843e34d2074fd823d41a591f2b233f034f628281f2fd7a22ddd47d7828c59bd0a21bfd3980"
     "ff0d2028d4b18a9df63e006c5d1c2d345b925d8dc00b4104852db99ac5c7cdda8530a113a0f4dbb61149f05a7363268c71d95808ff2e652600"),
    ("-----1 octet", SEED1, PUB1, "03", "",
     "26b8f91727bd62897af15e41eb43c377efb9c610d48f2335cb0bd0087810f4352541b143c4b981b7e18f62de8ccdf633fc1bf037ab7cd77980"
     "5e0dbcc0aae1cbcee1afb2e027df36bc04dcecbf154336c19f0af7e0a6472905e799f1953d2a0ff3348ab21aa4adafd1d234441cf807c03a00"),
    ("-----1 octet (with context)", SEED1, PUB1, "03", "666f6f",
     "d4f8f6131770dd46f40867d6fd5d5055de43541f8c5e35abbcd001b32a89f7d2151f7647f11d8ca2ae279fb842d607217fce6e042f6815ea00"
     "0c85741de5c8da1144a6a1aba7f96de42505d7a7298524fda538fccbbb754f578c1cad10d54d0d5428407e85dcbc98a49155c13764e66c3c00"),
    ("-----11 octets", "cd23d24f714274e744343237b93290f511f6425f98e64459ff203e8985083ffdf60500553abc0e05cd02184bdb89c4ccd67e187951267eb328",
     "dcea9e78f35a1bf3499a831b10b86c90aac01cd84b67a0109b55a36e9328b1e365fce161d71ce7131a543ea4cb5f7e9f1d8b00696447001400",
     "0c3e544074ec63b0265e0c", "",
     "1f0a8888ce25e8d458a21130879b840a9089d999aaba039eaf3e3afa090a09d389dba82c4ff2ae8ac5cdfb7c55e94d5d961a29fe0109941e00"
     "b8dbdeea6d3b051068df7254c0cdc129cbe62db2dc957dbb47b51fd3f213fb8698f064774250a5028961c9bf8ffd973fe5d5c206492b140e00"),
    ("-----12 octets", "258cdd4ada32ed9c9ff54e63756ae582fb8fab2ac721f2c8e676a72768513d939f63dddb55609133f29adf86ec9929dccb52c1c5fd2ff7e21b",
     "3ba16da0c6f2cc1f30187740756f5e798d6bc5fc015d7c63cc9510ee3fd44adc24d8e968b6e46e6f94d19b945361726bd75e149ef09817f580",
     "64a65f3cdedcdd66811e2915", "",
     "7eeeab7c4e50fb799b418ee5e3197ff6bf15d43a14c34389b59dd1a7b1b85b4ae90438aca634bea45e3a2695f1270f07fdcdf7c62b8efeaf00"
     "b45c2c96ba457eb1a8bf075a3db28e5c24f6b923ed4ad747c3c9e03c7079efb87cb110d3a99861e72003cbae6d6b8b827e4e6c143064ff3c00"),
    ("-----13 octets", "7ef4e84544236752fbb56b8f31a23a10e42814f5f55ca037cdcc11c64c9a3b2949c1bb60700314611732a6c2fea98eebc0266a11a93970100e",
     "b3da079b0aa493a5772029f0467baebee5a8112d9d3a22532361da294f7bb3815c5dc59e176b4d9f381ca0938e13c6c07b174be65dfa578e80",
     "64a65f3cdedcdd66811e2915e7", "",
     "6a12066f55331b6c22acd5d5bfc5d71228fbda80ae8dec26bdd306743c5027cb4890810c162c027468675ecf645a83176c0d7323a2ccde2d80"
     "efe5a1268e8aca1d6fbc194d3f77c44986eb4ab4177919ad8bec33eb47bbb5fc6e28196fd1caf56b4e7e0ba5519234d047155ac727a1053100"),
    ("-----64 octets", "d65df341ad13e008567688baedda8e9dcdc17dc024974ea5b4227b6530e339bff21f99e68ca6968f3cca6dfe0fb9f4fab4fa135d5542ea3f01",
     "df9705f58edbab802c7f8363cfe5560ab1c6132c20a9f1dd163483a26f8ac53a39d6808bf4a1dfbd261b099bb03b3fb50906cb28bd8a081f00",
     "bd0f6a3747cd561bdddf4640a332461a4a30a12a434cd0bf40d766d9c6d458e5512204a30c17d1f50b5079631f64eb3112182da3005835461113718d1a5ef944", "",
     "554bc2480860b49eab8532d2a533b7d578ef473eeb58c98bb2d0e1ce488a98b18dfde9b9b90775e67f47d4a1c3482058efc9f40d2ca033a080"
     "1b63d45b3b722ef552bad3b4ccb667da350192b61c508cf7b6b5adadc2c8d9a446ef003fb05cba5f30e88e36ec2703b349ca229c2670833900"),
    ("-----256 octets", "2ec5fe3c17045abdb136a5e6a913e32ab75ae68b53d2fc149b77e504132d37569b7e766ba74a19bd6162343a21c8590aa9cebca9014c636df5",
     "79756f014dcfe2079f5dd9e718be4171e2ef2486a08f25186f6bff43a9936b9bfe12402b08ae65798a3d81e22e9ec80e7690862ef3d4ed3a00",
     "15777532b0bdd0d1389f636c5f6b9ba734c90af572877e2d272dd078aa1e567cfa80e12928bb542330e8409f3174504107ecd5efac61ae7504dabe2a602ede89"
     "e5cca6257a7c77e27a702b3ae39fc769fc54f2395ae6a1178cab4738e543072fc1c177fe71e92e25bf03e4ecb72f47b64d0465aaea4c7fad372536c8ba516a60"
     "39c3c2a39f0e4d832be432dfa9a706a6e5c7e19f397964ca4258002f7c0541b590316dbc5622b6b2a6fe7a4abffd96105eca76ea7b98816af0748c10df048ce0"
     "12d901015a51f189f3888145c03650aa23ce894c3bd889e030d565071c59f409a9981b51878fd6fc110624dcbcde0bf7a69ccce38fabdf86f3bef6044819de11", "",
     "c650ddbb0601c19ca11439e1640dd931f43c518ea5bea70d3dcde5f4191fe53f00cf966546b72bcc7d58be2b9badef28743954e3a44a23f880"
     "e8d4f1cfce2d7a61452d26da05896f0a50da66a239a8a188b6d825b3305ad77b73fbac0836ecc60987fd08527c1a8e80d5823e65cafe2a3d00"),
]

# RFC 7748 §5.2 (scalar, u, result) and the iterated function from k = u = 5; §6.2 Alice and Bob.
X448_MULT = [
    ("3d262fddf9ec8e88495266fea19a34d28882acef045104d0d1aae121700a779c984c24f8cdd78fbff44943eba368f54b29259a4f1c600ad3",
     "06fce640fa3487bfda5f6cf2d5263f8aad88334cbd07437f020f08f9814dc031ddbdc38c19c6da2583fa5429db94ada18aa7a7fb4ef8a086",
     "ce3e4ff95a60dc6697da1db1d85e6afbdf79b50a2412d7546d5f239fe14fbaadeb445fc66a01b0779d98223961111e21766282f73dd96b6f"),
    ("203d494428b8399352665ddca42f9de8fef600908e0d461cb021f8c538345dd77c3e4806e25f46d3315c44e0a5b4371282dd2c8d5be3095f",
     "0fbcc2f993cd56d3305b0b7d9e55d4c1a8fb5dbb52f8e9a1e9b6201b165d015894e56c4d3570bee52fe205e28a78b91cdfbde71ce8d157db",
     "884a02576239ff7a2f2f63b2db6a9ff37047ac13568e1e30fe63c4a7ad1b3ee3a5700df34321d62077e63633c575c1c954514e99da7c179d"),
]
X448_ITERATED = {
    1: "3f482c8a9f19b01e6c46ee9711d9dc14fd4bf67af30765c2ae2b846a4d23a8cd0db897086239492caf350b51f833868b9bc2b3bca9cf4113",
    1000: "aa3b4749d55b9daf1e5b00288826c467274ce3ebbdd5c17b975e09d4af6c67cf10d087202db88286e2b79fceea3ec353ef54faa26e219f38",
}
X448_DH = {
    "alice_private": "9a8f4925d1519f5775cf46b04b5800d4ee9ee8bae8bc5565d498c28dd9c9baf574a9419744897391006382a6f127ab1d9ac2d8c0a598726b",
    "alice_public": "9b08f7cc31b7e3e67d22d5aea121074a273bd2b83de09c63faa73d2c22c5d9bbc836647241d953d40c5b12da88120d53177f80e532c41fa0",
    "bob_private": "1c306a7ac2a0e2e0990b294470cba339e6453772b075811d8fad0d1d6927c120bb5ee8972b0d3e21374c9c921b09d1b0366f10b65173992d",
    "bob_public": "3eb7a829b0cd20f5bcfc0b599b6feccf6da4627107bdb0d4f345b43027d8b972fc3e34fb4232a13ca706dcb57aec3dae07bdc1c67bf33609",
    "shared": "07fff4181ac6cc95ec1c16a94a0f74d12da232ce40a77552281d282bb60c0b56fd2464c335543936521c24403085d59a449a5037514a879d",
}


def x448(k, u):
    return X448PrivateKey.from_private_bytes(k).exchange(X448PublicKey.from_public_bytes(u))


def ed448_vectors():
    out = []
    for name, secret, public, message, context, signature in ED448:
        key = Ed448PrivateKey.from_private_bytes(bytes.fromhex(secret))
        assert key.public_key().public_bytes(RAW, serialization.PublicFormat.Raw).hex() == public, name
        if context:
            # `cryptography` signs with the empty context only: it must not give the context vector's signature.
            assert key.sign(bytes.fromhex(message)).hex() != signature, name
        else:
            assert key.sign(bytes.fromhex(message)).hex() == signature, name
        out.append({"name": "RFC 8032 7.4 " + name.strip("-"), "secret": secret, "public": public, "message": message,
                    "context": context, "signature": signature})
    return {"source": "RFC 8032 section 7.4 (Ed448), checked with Python cryptography by scripts/vectors/rfc9580_448.py",
            "vectors": out}


def x448_vectors():
    for k, u, result in X448_MULT:
        assert x448(bytes.fromhex(k), bytes.fromhex(u)).hex() == result
    k = u = bytes([5]) + bytes(55)
    for i in range(1, 1001):
        k, u = x448(k, u), k
        if i in X448_ITERATED:
            assert k.hex() == X448_ITERATED[i], i
    for who in ("alice", "bob"):
        key = X448PrivateKey.from_private_bytes(bytes.fromhex(X448_DH[who + "_private"]))
        assert key.public_key().public_bytes(RAW, serialization.PublicFormat.Raw).hex() == X448_DH[who + "_public"]
    alice = bytes.fromhex(X448_DH["alice_private"])
    assert x448(alice, bytes.fromhex(X448_DH["bob_public"])).hex() == X448_DH["shared"]
    return {"source": "RFC 7748 sections 5.2 and 6.2 (X448), checked with Python cryptography by scripts/vectors/rfc9580_448.py",
            "multiplications": [{"scalar": k, "u": u, "result": r} for k, u, r in X448_MULT],
            "iterated": [{"iterations": n, "result": r} for n, r in sorted(X448_ITERATED.items())],
            "diffieHellman": X448_DH}


PLAIN = b"Written by Sequoia for Parley to read, over Curve448.\n"


def sequoia(out):
    import pysequoia as ps

    os.makedirs(out, exist_ok=True)
    tsk = ps.Tsk.generate("Sequoia Cv448 <cv448@example.org>", profile=ps.Profile.RFC9580, cipher_suite=ps.CipherSuite.Cv448)
    cert = tsk.extract_certificate()
    files = {
        "cv448-secret-key.asc": str(tsk),
        "cv448-cert.asc": str(cert),
        "cv448-encrypted-signed.asc": ps.encrypt(PLAIN, recipients=[cert], signer=tsk.signer()).decode(),
        "cv448-inline-signed.asc": ps.sign(tsk.signer(), PLAIN).decode(),
        "cv448-cleartext-signed.asc": ps.sign(tsk.signer(), PLAIN, mode=ps.SignatureMode.CLEAR).decode(),
        "cv448-detached.sig": ps.sign(tsk.signer(), PLAIN, mode=ps.SignatureMode.DETACHED).decode(),
    }
    for name, text in files.items():
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            f.write(text)
    with open(os.path.join(out, "data.txt"), "wb") as f:
        f.write(PLAIN)
    # Sequoia must read its own output back, so a broken file is caught here and not in Swift.
    assert ps.decrypt(files["cv448-encrypted-signed.asc"].encode(), decryptor=tsk.decryptor(),
                      store=lambda ids: [cert]).bytes == PLAIN
    manifest = {
        "source": "Sequoia-PGP via pysequoia, RFC 9580 profile, cipher suite Cv448; made by scripts/vectors/rfc9580_448.py",
        "fingerprint": cert.fingerprint,
        "plaintext": PLAIN.decode(),
        "files": sorted(files) + ["data.txt"],
    }
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")


def main(out):
    os.makedirs(out, exist_ok=True)
    for name, data in (("rfc8032-ed448.json", ed448_vectors()), ("rfc7748-x448.json", x448_vectors())):
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2)
            f.write("\n")
    sequoia(os.path.join(out, "sequoia"))
    print("wrote the RFC 8032, RFC 7748 and Sequoia Cv448 vectors to %s" % out)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    main(sys.argv[1])
