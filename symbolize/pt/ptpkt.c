#include "config.h"

#include <string.h>

#include "symbolize/pt/ptpkt.h"

const uint8_t ptpkt_psb_bytes[16] = {
	0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
	0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
};

static const char *const kind_names[] = {
#define X(id, name) name,
	PTPKT_KINDS(X)
#undef X
};

const char *
ptpkt_name(enum ptpkt_kind k)
{
	return (unsigned)k < PTPKT_KIND_COUNT ? kind_names[k] : "?";
}

/* n little-endian bytes at p. */
static uint64_t
le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n-- > 0)
		v = v << 8 | p[n];
	return v;
}

static int
bad(struct ptpkt *out)
{
	out->kind = PTPKT_BAD;
	out->count = 0;
	out->payload = 0;
	return -1;
}

/* A packet of fixed length n: 0 if it does not fit yet. */
#define NEED(n) \
	do { \
		if (len < (size_t)(n)) \
			return 0; \
	} while (0)

/* Branch bits below the stop bit (the highest set bit of v, at bit nbits). */
static void
tnt_bits(struct ptpkt *out, uint64_t v, int width)
{
	int hb = width - 1;

	while (hb > 0 && !(v >> hb & 1))
		hb--;
	out->kind = PTPKT_TNT;
	out->count = hb;
	out->payload = hb > 0 ? (v & ((UINT64_C(1) << hb) - 1)) << (64 - hb) : 0;
}

static int
get_ext(const uint8_t *buf, size_t len, struct ptpkt *out, enum ptpkt_ctx *ctx)
{
	uint8_t b;

	NEED(2);
	b = buf[1];
	switch (b) {
	case 0x82:	/* PSB */
		NEED(16);
		if (memcmp(buf, ptpkt_psb_bytes, 16) != 0)
			return bad(out);
		out->kind = PTPKT_PSB;
		return 16;
	case 0x23:
		out->kind = PTPKT_PSBEND;
		return 2;
	case 0x03:
		NEED(4);
		out->kind = PTPKT_CBR;
		out->payload = buf[2];
		out->count = buf[2] | buf[3] << 8;
		return 4;
	case 0x43:
		NEED(8);
		out->kind = PTPKT_PIP;
		out->payload = le(buf + 2, 6);
		return 8;
	case 0xa3:
		NEED(8);
		tnt_bits(out, le(buf + 2, 6), 48);
		return 8;
	case 0x73:
		NEED(7);
		out->kind = PTPKT_TMA;
		out->payload = le(buf + 2, 2);
		out->count = buf[5] | (buf[6] & 1) << 8;
		return 7;
	case 0xf3:
		out->kind = PTPKT_OVF;
		return 2;
	case 0x83:
		out->kind = PTPKT_TRACESTOP;
		return 2;
	case 0xc8:
		NEED(7);
		out->kind = PTPKT_VMCS;
		out->payload = le(buf + 2, 5) << 12;
		return 7;
	case 0xc3:
		NEED(11);
		if (buf[2] != 0x88)
			return bad(out);
		out->kind = PTPKT_MNT;
		out->payload = le(buf + 3, 8);
		return 11;
	case 0x62:
	case 0xe2:
		out->kind = b == 0x62 ? PTPKT_EXSTOP : PTPKT_EXSTOP_IP;
		return 2;
	case 0xc2:
		NEED(10);
		out->kind = PTPKT_MWAIT;
		out->payload = le(buf + 2, 8);
		return 10;
	case 0x22:
		NEED(4);
		out->kind = PTPKT_PWRE;
		out->payload = le(buf + 2, 2);
		return 4;
	case 0xa2:
		NEED(7);
		out->kind = PTPKT_PWRX;
		out->payload = le(buf + 2, 5);
		return 7;
	case 0x63:
		NEED(3);
		out->kind = PTPKT_BBP;
		out->payload = buf[2] & 0x1f;
		out->count = buf[2] >> 7;
		*ctx = out->count ? PTPKT_CTX_BLOCK4 : PTPKT_CTX_BLOCK8;
		return 3;
	case 0x33:
	case 0xb3:
		out->kind = b == 0x33 ? PTPKT_BEP : PTPKT_BEP_IP;
		*ctx = PTPKT_CTX_NONE;
		return 2;
	default:
		break;
	}
	if ((b & 0x1f) == 0x12) {	/* PTWRITE: payload size in bits 6:5 */
		unsigned sz = b >> 5 & 3;
		unsigned n = sz == 0 ? 4 : sz == 1 ? 8 : 0;

		if (n == 0)
			return bad(out);
		NEED(2 + n);
		out->kind = b & 0x80 ? PTPKT_PTWRITE_IP : PTPKT_PTWRITE;
		out->payload = le(buf + 2, n);
		return (int)(2 + n);
	}
	return bad(out);
}

int
ptpkt_get(const uint8_t *buf, size_t len, struct ptpkt *out, enum ptpkt_ctx *ctx)
{
	uint8_t b;

	out->kind = PTPKT_BAD;
	out->count = 0;
	out->payload = 0;
	if (len == 0)
		return 0;
	b = buf[0];
	if (*ctx != PTPKT_CTX_NONE && (b & 7) == 4) {	/* BIP */
		unsigned n = *ctx == PTPKT_CTX_BLOCK4 ? 4 : 8;

		NEED(1 + n);
		out->kind = PTPKT_BIP;
		out->count = b >> 3;
		out->payload = le(buf + 1, n);
		return (int)(1 + n);
	}
	if (b == 0x00) {
		out->kind = PTPKT_PAD;
		return 1;
	}
	if (b == 0x02)
		return get_ext(buf, len, out, ctx);
	if (!(b & 1)) {		/* short TNT: stop bit and up to 6 branch bits */
		tnt_bits(out, b >> 1, 7);
		return 1;
	}
	switch (b & 0x1f) {
	case 0x0d:
	case 0x11:
	case 0x01:
	case 0x1d: {
		static const int ipbytes[8] = { 0, 2, 4, 6, 6, -1, 8, -1 };
		int ipb = b >> 5, n = ipbytes[ipb];

		if (n < 0)
			return bad(out);
		NEED(1 + n);
		out->kind = (b & 0x1f) == 0x0d ? PTPKT_TIP : (b & 0x1f) == 0x11 ? PTPKT_TIP_PGE :
		    (b & 0x1f) == 0x01 ? PTPKT_TIP_PGD : PTPKT_FUP;
		out->count = ipb;
		out->payload = le(buf + 1, (unsigned)n);
		return 1 + n;
	}
	default:
		break;
	}
	switch (b) {
	case 0x19:
		NEED(8);
		out->kind = PTPKT_TSC;
		out->payload = le(buf + 1, 7);
		return 8;
	case 0x59:
		NEED(2);
		out->kind = PTPKT_MTC;
		out->payload = buf[1];
		return 2;
	case 0x99:
		NEED(2);
		switch (buf[1] >> 5) {
		case 0:
			out->kind = PTPKT_MODE_EXEC;
			out->payload = buf[1] & 0x1f;
			return 2;
		case 1:
			out->kind = PTPKT_MODE_TSX;
			out->payload = buf[1] & 3;
			return 2;
		default:
			return bad(out);
		}
	default:
		break;
	}
	if ((b & 3) == 3) {	/* CYC: 5 bits, then 7 per extension byte */
		uint64_t v = b >> 3;
		unsigned shift = 5;
		size_t i = 1;

		if (b & 4) {
			for (;;) {
				if (i >= len)
					return 0;
				if (i >= PTPKT_MAX_LEN)
					return bad(out);
				if (shift < 64)
					v |= (uint64_t)(buf[i] >> 1) << shift;
				shift += 7;
				if (!(buf[i++] & 1))
					break;
			}
		}
		out->kind = PTPKT_CYC;
		out->payload = v;
		return (int)i;
	}
	return bad(out);
}

size_t
ptpkt_find_psb(const uint8_t *buf, size_t len)
{
	const uint8_t *p = buf, *end = buf + len;

	while (p + 16 <= end) {
		p = memchr(p, 0x02, (size_t)(end - p) - 15);
		if (p == NULL)
			break;
		if (memcmp(p, ptpkt_psb_bytes, 16) == 0)
			return (size_t)(p - buf);
		p++;
	}
	return len;
}
