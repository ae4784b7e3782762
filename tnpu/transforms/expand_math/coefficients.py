"""expand-math's width-dependent constants: polynomial coefficients, split constants, ranges.

Each is a table by width (32, 64) that `by_width` picks from; where a
polynomial was fitted for tnpu rather than taken from fdlibm, its docstring
says so and gives its relative error.  Tables that belong to one
expansion alone stay on its class.
"""

from __future__ import annotations

LN2 = {
    32: (float.fromhex("0x1.62e4p-1"), float.fromhex("0x1.7f7d1cp-20")),
    64: (float.fromhex("0x1.62e42fee00000p-1"), float.fromhex("0x1.a39ef35793c76p-33")),
}
"""ln 2 as hi + lo, hi with trailing zeros so that k * hi is exact (|k| < 2^9 in f32, 2^21 in f64)."""

LOG2_E = {32: float.fromhex("0x1.715476p+0"), 64: float.fromhex("0x1.71547652b82fep+0")}

SQRT2_SPLIT = {32: 0x4AFB20, 64: 0x95F619980C433}
"""Added to the fraction bits, carries into the exponent exactly when m >= sqrt(2) (fdlibm's trick)."""

LOG_POLYNOMIAL = {
    32: (
        float.fromhex("0x1.555554p-1"),
        float.fromhex("0x1.999c26p-2"),
        float.fromhex("0x1.23d3dcp-2"),
        float.fromhex("0x1.f13c4cp-3"),
    ),
    64: (
        float.fromhex("0x1.5555555555555p-1"),
        float.fromhex("0x1.9999999999998p-2"),
        float.fromhex("0x1.2492492492959p-2"),
        float.fromhex("0x1.c71c71c64c8ccp-3"),
        float.fromhex("0x1.745d17d35328cp-3"),
        float.fromhex("0x1.3b137b347f3c2p-3"),
        float.fromhex("0x1.111d273ca8a70p-3"),
        float.fromhex("0x1.debedbffa1d9ep-4"),
        float.fromhex("0x1.e6afc55fa9490p-4"),
    ),
}
"""(log(1+s) - log(1-s))/s ~ 2 + s^2 (c0 + c1 s^2 + ...): f32 fdlibm's Lg1..Lg4 (|error| <
2^-34.24); f64 fitted on s^2 <= (3 - 2 sqrt 2)^2 (relative error 2^-54)."""

EXP_COEFFICIENTS = {
    32: (
        float.fromhex("0x1p-1"),
        float.fromhex("0x1.5554dep-3"),
        float.fromhex("0x1.5555bap-5"),
        float.fromhex("0x1.120b4p-7"),
        float.fromhex("0x1.6c69e2p-10"),
    ),
    64: (
        float.fromhex("0x1.0000000000000p-1"),
        float.fromhex("0x1.5555555555555p-3"),
        float.fromhex("0x1.5555555555557p-5"),
        float.fromhex("0x1.1111111111111p-7"),
        float.fromhex("0x1.6c16c16c15a6cp-10"),
        float.fromhex("0x1.a01a01a0196aep-13"),
        float.fromhex("0x1.a01a01a9e80fep-16"),
        float.fromhex("0x1.71de3a5aa6edbp-19"),
        float.fromhex("0x1.27e4d41d6f553p-22"),
        float.fromhex("0x1.ae642c8730352p-26"),
        float.fromhex("0x1.1f7f2000f4cf3p-29"),
        float.fromhex("0x1.61bfa22dd3437p-33"),
    ),
}
"""q(r) ~ (e^r - 1 - r) / r^2 on |r| <= ln(2)/2 (f64: fitted, relative error 2^-56.9)."""

EXP_RANGE = {32: (-104.0, 90.0), 64: (-746.0, 711.0)}
"""Beyond these, e^x (and e^x/2) is 0 or infinity in the format anyway."""

EXP2_COEFFICIENTS = {
    32: (
        float.fromhex("0x1.62e43p-1"),
        float.fromhex("0x1.ebfbdep-3"),
        float.fromhex("0x1.c6af6ep-5"),
        float.fromhex("0x1.3b2bap-7"),
        float.fromhex("0x1.5f07b4p-10"),
        float.fromhex("0x1.4308e2p-13"),
    ),
    64: (
        float.fromhex("0x1.62e42fefa39efp-1"),
        float.fromhex("0x1.ebfbdff82c58fp-3"),
        float.fromhex("0x1.c6b08d704a0c0p-5"),
        float.fromhex("0x1.3b2ab6fba4e7bp-7"),
        float.fromhex("0x1.5d87fe78a6732p-10"),
        float.fromhex("0x1.430912f86ac5bp-13"),
        float.fromhex("0x1.ffcbfc5889cb0p-17"),
        float.fromhex("0x1.62c022460176ep-20"),
        float.fromhex("0x1.b5253d41fa177p-24"),
        float.fromhex("0x1.e4cf03bac04a7p-28"),
        float.fromhex("0x1.e8ca8dd466161p-32"),
        float.fromhex("0x1.c4b5b04b1e8f9p-36"),
        float.fromhex("0x1.82192178ce75dp-40"),
    ),
}
"""p(r) ~ (2^r - 1) / r on |r| <= 1/2 (f64: fitted, relative error 2^-54.2)."""

EXP2_RANGE = {32: (-160.0, 130.0), 64: (-1080.0, 1030.0)}

TWO_OVER_PI_WORDS = (
    0x00000000,
    0xA2F9836E,
    0x4E441529,
    0xFC2757D1,
    0xF534DDC0,
    0xDB629599,
    0x3C439041,
    0xFE5163AB,
)
"""2/pi in binary, 32 bits a word, after one word of zeros (2/pi = 0.A2F9836E...)."""

HALF_PI_OVER_2_62 = {
    32: (float.fromhex("0x1.921fb6p-62"), float.fromhex("-0x1.777a5cp-87")),
    64: (float.fromhex("0x1.921fb54442d18p-62"), float.fromhex("0x1.1a62633145c07p-116")),
}
"""(pi/2) 2^-62 as hi + lo: the value of one unit of the fixed-point reduced argument."""

TWO_OVER_PI_WORDS_F64 = (
    0x00000000, 0x00000000,
    0xA2F9836E, 0x4E441529, 0xFC2757D1, 0xF534DDC0, 0xDB629599, 0x3C439041,
    0xFE5163AB, 0xDEBBC561, 0xB7246E3A, 0x424DD2E0, 0x06492EEA, 0x09D1921C,
    0xFE1DEB1C, 0xB129A73E, 0xE88235F5, 0x2EBB4484, 0xE99C7026, 0xB45F7E41,
    0x3991D639, 0x835339F4, 0x9C845F8B, 0xBDF9283B, 0x1FF897FF, 0xDE05980F,
    0xEF2F118B, 0x5A0A6D1F, 0x6D367ECF, 0x27CB09B7, 0x4F463F66, 0x9E5FEA2D,
    0x7527BAC7, 0xEBE5F17B, 0x3D0739F7, 0x8A5292EA, 0x6BFB5FB1, 0x1F8D5D08,
    0x56033046, 0xFC7B6BAB,
)  # fmt: skip
"""2/pi to 1216 bits, 32 bits a word, after two words of zeros: every window an f64 needs."""

SINE_COEFFICIENTS = {
    32: (
        float.fromhex("-0x1.555556p-3"),
        float.fromhex("0x1.11110ep-7"),
        float.fromhex("-0x1.a01398p-13"),
        float.fromhex("0x1.6db994p-19"),
    ),
    64: (
        float.fromhex("-0x1.5555555555555p-3"),
        float.fromhex("0x1.1111111111110p-7"),
        float.fromhex("-0x1.a01a01a019938p-13"),
        float.fromhex("0x1.71de3a546095bp-19"),
        float.fromhex("-0x1.ae645412c560cp-26"),
        float.fromhex("0x1.61217f0b800d5p-33"),
        float.fromhex("-0x1.ab17d404de5b3p-41"),
    ),
}
"""S(z) ~ (sin r - r)/r^3, z = r^2, |r| <= pi/4 (f64: fitted, relative error 2^-54)."""

COSINE_COEFFICIENTS = {
    32: (
        float.fromhex("0x1.555556p-5"),
        float.fromhex("-0x1.6c16cp-10"),
        float.fromhex("0x1.a015bcp-16"),
        float.fromhex("-0x1.2521c2p-22"),
    ),
    64: (
        float.fromhex("0x1.5555555555555p-5"),
        float.fromhex("-0x1.6c16c16c16c16p-10"),
        float.fromhex("0x1.a01a01a019d0ap-16"),
        float.fromhex("-0x1.27e4fb7712d65p-22"),
        float.fromhex("0x1.1eed8deb97a97p-29"),
        float.fromhex("-0x1.9394ba0cd6ed5p-37"),
        float.fromhex("0x1.ab785b00b4646p-45"),
    ),
}
"""C(z) ~ (cos r - 1 + r^2/2)/r^4, z = r^2, |r| <= pi/4 (f64: fitted, relative error 2^-54)."""

HALF_PI = {
    32: (float.fromhex("0x1.921fb6p+0"), float.fromhex("-0x1.777a5cp-25")),
    64: (float.fromhex("0x1.921fb54442d18p+0"), float.fromhex("0x1.1a62633145c07p-54")),
}

PI = {
    32: (float.fromhex("0x1.921fb6p+1"), float.fromhex("-0x1.777a5cp-24")),
    64: (float.fromhex("0x1.921fb54442d18p+1"), float.fromhex("0x1.1a62633145c07p-53")),
}

QUARTER_PI_HI = {32: float.fromhex("0x1.921fb6p-1"), 64: float.fromhex("0x1.921fb54442d18p-1")}

ARCSINE_COEFFICIENTS = {
    32: (
        float.fromhex("0x1.555554p-3"),
        float.fromhex("0x1.33343cp-4"),
        float.fromhex("0x1.6d58d6p-5"),
        float.fromhex("0x1.fdcf9p-6"),
        float.fromhex("0x1.17c6aap-6"),
        float.fromhex("0x1.14f7ap-5"),
    ),
    64: (
        float.fromhex("0x1.5555555555555p-3"),
        float.fromhex("0x1.333333333332dp-4"),
        float.fromhex("0x1.6db6db6db7c7fp-5"),
        float.fromhex("0x1.f1c71c70ee54ap-6"),
        float.fromhex("0x1.6e8ba31c9dc09p-6"),
        float.fromhex("0x1.1c4ebd7735bf2p-6"),
        float.fromhex("0x1.c99afe79266f3p-7"),
        float.fromhex("0x1.7a70c2a695fe0p-7"),
        float.fromhex("0x1.40e38d543d8d2p-7"),
        float.fromhex("0x1.0a9849ba5937fp-7"),
        float.fromhex("0x1.2031dbbbbad45p-7"),
        float.fromhex("0x1.8f5a75293b096p-12"),
        float.fromhex("0x1.7184808eff5eep-6"),
        float.fromhex("-0x1.898d77b6dddb2p-6"),
        float.fromhex("0x1.f74bdb0d4b5bep-6"),
    ),
}
"""P(z) ~ (asin u - u)/u^3, z = u^2 <= 1/4: asin u = u + u z P(z) (f64: fitted, relative
error 2^-54)."""

ERF_ONE = {32: float.fromhex("0x1.af767ap-1"), 64: float.fromhex("0x1.af767a741088bp-1")}
"""erf(1) rounded to the format (fdlibm's erx); erf(1) - ERF_ONE is in the polynomial."""

ERF_NEAR_ZERO = {
    32: (
        float.fromhex("0x1.06eba8p-3"),
        float.fromhex("-0x1.812746p-2"),
        float.fromhex("0x1.ce2eb8p-4"),
        float.fromhex("-0x1.b81ed2p-6"),
        float.fromhex("0x1.55758p-8"),
        float.fromhex("-0x1.b0e42ap-11"),
        float.fromhex("0x1.752d46p-14"),
    ),
    64: (
            float.fromhex("0x1.06eba8214db69p-3"),
            float.fromhex("-0x1.812746b0379e7p-2"),
            float.fromhex("0x1.ce2f21a042be2p-4"),
            float.fromhex("-0x1.b82ce31288b51p-6"),
            float.fromhex("0x1.565bcd0e6a53fp-8"),
            float.fromhex("-0x1.c02db40040b85p-11"),
            float.fromhex("0x1.f9a326f9b8980p-14"),
            float.fromhex("-0x1.f4d25c3e0b554p-17"),
            float.fromhex("0x1.b9e6c9dc3ed1ep-20"),
            float.fromhex("-0x1.5f742ebf48d2cp-23"),
            float.fromhex("0x1.fcc571110227ep-27"),
            float.fromhex("-0x1.51d70665fb541p-30"),
            float.fromhex("0x1.9e68ed5820290p-34"),
            float.fromhex("-0x1.d81e858b859d2p-38"),
            float.fromhex("0x1.f451741a1cfb6p-42"),
            float.fromhex("-0x1.dfb273d123e14p-46"),
            float.fromhex("0x1.5156acd512d52p-50"),
        ),
}
"""y(z) ~ erf(x)/x - 1, z = x^2, |x| < 0.84375 (absolute error 1.3e-10; f64 fitted, relative
to 1 + y 2^-56.3)."""

ERF_NEAR_ONE = {
    32: (
        float.fromhex("0x1.cedd9cp-27"),
        float.fromhex("0x1.a911fp-2"),
        float.fromhex("-0x1.a911eep-2"),
        float.fromhex("0x1.1b60ap-3"),
        float.fromhex("0x1.1b5f22p-4"),
        float.fromhex("-0x1.1b0012p-4"),
        float.fromhex("0x1.293e18p-8"),
        float.fromhex("0x1.ad17acp-7"),
    ),
    64: (
            float.fromhex("-0x1.c97f77889e138p-56"),
            float.fromhex("0x1.a911f096fbc26p-2"),
            float.fromhex("-0x1.a911f096fbc26p-2"),
            float.fromhex("0x1.1b614b0f52819p-3"),
            float.fromhex("0x1.1b614b0f52819p-4"),
            float.fromhex("-0x1.1b614b0f52819p-4"),
            float.fromhex("0x1.2e45a565ad58bp-8"),
            float.fromhex("0x1.f096fd702f085p-7"),
            float.fromhex("-0x1.391146bb98f87p-8"),
            float.fromhex("-0x1.ee30d995dcf1bp-10"),
            float.fromhex("0x1.4176c43836e3bp-10"),
            float.fromhex("0x1.66b6af258dd05p-14"),
            float.fromhex("-0x1.a38bcadddcf81p-13"),
            float.fromhex("0x1.3a03c6298b6ebp-16"),
            float.fromhex("0x1.8dbd0e125976ep-16"),
            float.fromhex("-0x1.6fc9d632fa413p-18"),
            float.fromhex("-0x1.1695c6386b89dp-19"),
            float.fromhex("0x1.d0d4028cac7f2p-21"),
            float.fromhex("0x1.48014915aaa72p-25"),
        ),
}
"""P(s) ~ erf(1 + s) - ERF_ONE, s in [-0.15625, 0.25] (absolute error 1.2e-10; f64 fitted,
2^-58 relative to erf)."""

ERFC_SCALED = {
    32: (
        (
            1 / 0.35,
            float.fromhex("0x1.866666p-2"),
            (
                float.fromhex("0x1.f6995cp-2"),
                float.fromhex("-0x1.1c81f8p-3"),
                float.fromhex("0x1.6d2f2ep-4"),
                float.fromhex("-0x1.3d31a8p-4"),
                float.fromhex("0x1.4691aap-4"),
                float.fromhex("-0x1.68d36ep-4"),
                float.fromhex("0x1.b1dfdcp-4"),
                float.fromhex("-0x1.ad527ep-3"),
                float.fromhex("0x1.47509p-2"),
            ),
        ),
        (
            10.1,
            float.fromhex("0x1.0ef4dap-4"),
            (
                float.fromhex("0x1.182154p-1"),
                float.fromhex("-0x1.e50afcp-3"),
                float.fromhex("0x1.1d8856p-2"),
                float.fromhex("-0x1.00bd62p-1"),
                float.fromhex("0x1.2adbc4p+0"),
                float.fromhex("-0x1.beeb3ep+1"),
                float.fromhex("0x1.72a1b6p+3"),
            ),
        ),
    ),
    64: (
        (2.5, float.fromhex("0x1.3333333333333p-1"), (
                    float.fromhex("0x1.f9a9f95f6f1bdp-2"),
                    float.fromhex("-0x1.5efce00ff7b38p-3"),
                    float.fromhex("-0x1.caecf71ee67c4p-8"),
                    float.fromhex("0x1.4893856aee932p-4"),
                    float.fromhex("-0x1.595e44b954196p-4"),
                    float.fromhex("0x1.9fc00bab10726p-5"),
                    float.fromhex("-0x1.44f82d83f71bap-8"),
                    float.fromhex("-0x1.1afcff3c5586cp-5"),
                    float.fromhex("0x1.cf13a4c20d06bp-5"),
                    float.fromhex("-0x1.d1268c7768529p-5"),
                    float.fromhex("0x1.3110cdb78ab42p-5"),
                    float.fromhex("-0x1.2bc2da570a724p-8"),
                    float.fromhex("-0x1.039d7e9548e92p-5"),
                    float.fromhex("0x1.f91866cee6cd2p-5"),
                    float.fromhex("-0x1.38d6d3e23b908p-4"),
                    float.fromhex("0x1.07aac00053c7ep-4"),
                    float.fromhex("-0x1.96286a163da45p-6"),
                )),
        (5.0, float.fromhex("0x1.3333333333333p-2"), (
                    float.fromhex("0x1.1550f27b7b467p-1"),
                    float.fromhex("-0x1.13a9b24f30b60p-3"),
                    float.fromhex("-0x1.15acfd8c586a6p-3"),
                    float.fromhex("0x1.aa21e2f1933edp-3"),
                    float.fromhex("-0x1.4e0191f75ee9fp-4"),
                    float.fromhex("-0x1.44847c18919e8p-3"),
                    float.fromhex("0x1.5d74acf78721fp-2"),
                    float.fromhex("-0x1.103db0deed814p-2"),
                    float.fromhex("-0x1.6f3fc97c4d028p-3"),
                    float.fromhex("0x1.b59b1e37ba6c9p-1"),
                    float.fromhex("-0x1.402725ce0940cp+0"),
                    float.fromhex("0x1.2267e7eed20c1p-1"),
                    float.fromhex("0x1.d251802fe850bp+0"),
                    float.fromhex("-0x1.5de3030984b7ep+2"),
                    float.fromhex("0x1.e5c2114f0c27bp+2"),
                    float.fromhex("-0x1.b3603b01a6b4bp-1"),
                    float.fromhex("-0x1.18aafec89aa53p+4"),
                )),
        (28.0, float.fromhex("0x1.e2be2be2be2bep-4"), (
                    float.fromhex("0x1.1ee6368e0ebc1p-1"),
                    float.fromhex("-0x1.05908dd2dbbd1p-4"),
                    float.fromhex("-0x1.ff424de287222p-3"),
                    float.fromhex("0x1.5a1fc8539e403p-3"),
                    float.fromhex("0x1.f554c1aee2ae6p-3"),
                    float.fromhex("-0x1.f1176a5f1f4a8p-2"),
                    float.fromhex("-0x1.e392c41f11699p-4"),
                    float.fromhex("0x1.64195d806cdb0p+0"),
                    float.fromhex("-0x1.3c11299e59172p+0"),
                    float.fromhex("-0x1.916c6ca946c22p+1"),
                    float.fromhex("0x1.1f949724d5930p+3"),
                    float.fromhex("-0x1.6ccf9cad641f7p-1"),
                    float.fromhex("-0x1.36155af0ea708p+5"),
                    float.fromhex("0x1.18378f2531334p+6"),
                    float.fromhex("0x1.16f24a23e3943p+6"),
                    float.fromhex("-0x1.cf5979ed71434p+8"),
                    float.fromhex("0x1.c9deb9130e4f3p+8"),
                )),
    ),
}
"""g ~ a e^(a^2) erfc(a) for a >= 1.25 by pieces (upper end, center, polynomial), each a
polynomial in v - center: f32 v = 1/a^2 on [1.25, 1/0.35] and [1/0.35, 10.1] (relative errors
2e-8 and 2.2e-9); f64 v = 1/a on [1.25, 2.5], [2.5, 5], [5, 28] (2^-55.9, 2^-58.3, 2^-53.3)."""

ERFC_ZERO_FROM = {32: 10.1, 64: 28.0}
"""erfc a underflows to 0 beyond."""

TWO_OVER_LN2 = {
    32: (float.fromhex("0x1.714p+1"), float.fromhex("0x1.47652cp-11")),
    64: (float.fromhex("0x1.7154760000000p+1"), float.fromhex("0x1.4ae0bf85ddf44p-25")),
}
"""2/ln 2 as a short head (12 or 26 bits) and a tail."""

TWO_OVER_3_LN2 = {
    32: (float.fromhex("0x1.ec6p-1"), float.fromhex("0x1.09dc3ap-13")),
    64: (float.fromhex("0x1.ec709d8000000p-1"), float.fromhex("0x1.0e80ff5d27f05p-27")),
}
"""2/(3 ln 2) as a short head (12 or 26 bits) and a tail."""

LOG2_ODD_COEFFICIENTS = {
    32: (
        float.fromhex("0x1.2776c6p-1"),
        float.fromhex("0x1.a617c8p-2"),
        float.fromhex("0x1.4808dap-2"),
        float.fromhex("0x1.1a7d5ap-2"),
    ),
    64: (
        float.fromhex("0x1.2776c50ef9bfep-1"),
        float.fromhex("0x1.a61762a7aded7p-2"),
        float.fromhex("0x1.484b13d7c08f5p-2"),
        float.fromhex("0x1.0c9a8498b7166p-2"),
        float.fromhex("0x1.c68f5747c21bfp-3"),
        float.fromhex("0x1.89f36a2f5c62bp-3"),
        float.fromhex("0x1.5baab8cdfc056p-3"),
        float.fromhex("0x1.34f27bed947d4p-3"),
        float.fromhex("0x1.3dfca5f507a31p-3"),
    ),
}
"""Q(z) ~ (log2((1+s)/(1-s)) - 2s/ln 2 - 2s^3/(3 ln 2))/s^5, z = s^2, |s| <= 0.1716
(f64: fitted, relative error 2^-53)."""

POWER_RANGE = {32: (2.0**32, -160.0, 130.0), 64: (2.0**64, -1080.0, 1030.0)}
"""|y| limit, then the range of y log2 x beyond which x^y is 0 or infinity anyway."""
