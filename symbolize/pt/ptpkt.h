/*
 * ptpkt.h: the Intel Processor Trace packet format (Intel SDM vol. 3,
 * "Intel Processor Trace", packet definitions): one packet at a time from
 * a byte stream, as data.  Pure decoding: no state beyond the packet
 * context the caller keeps (block items after a BBP packet), no knowledge
 * of code, addresses or time.  Nothing here allocates or prints.
 */
#ifndef PERFNAV_SYMBOLIZE_PT_PTPKT_H
#define PERFNAV_SYMBOLIZE_PT_PTPKT_H

#include <stddef.h>
#include <stdint.h>

/* Packet kinds. X(id, name as perf's packet dump names it) */
#define PTPKT_KINDS(X) \
	X(BAD, "Bad Packet!") \
	X(PAD, "PAD") \
	X(TNT, "TNT") \
	X(TIP_PGD, "TIP.PGD") \
	X(TIP_PGE, "TIP.PGE") \
	X(TSC, "TSC") \
	X(TMA, "TMA") \
	X(MODE_EXEC, "MODE.Exec") \
	X(MODE_TSX, "MODE.TSX") \
	X(MTC, "MTC") \
	X(TIP, "TIP") \
	X(FUP, "FUP") \
	X(CYC, "CYC") \
	X(VMCS, "VMCS") \
	X(PSB, "PSB") \
	X(PSBEND, "PSBEND") \
	X(CBR, "CBR") \
	X(TRACESTOP, "TraceSTOP") \
	X(PIP, "PIP") \
	X(OVF, "OVF") \
	X(MNT, "MNT") \
	X(PTWRITE, "PTWRITE") \
	X(PTWRITE_IP, "PTWRITE_IP") \
	X(EXSTOP, "EXSTOP") \
	X(EXSTOP_IP, "EXSTOP_IP") \
	X(MWAIT, "MWAIT") \
	X(PWRE, "PWRE") \
	X(PWRX, "PWRX") \
	X(BBP, "BBP") \
	X(BIP, "BIP") \
	X(BEP, "BEP") \
	X(BEP_IP, "BEP_IP")

enum ptpkt_kind {
#define X(id, name) PTPKT_##id,
	PTPKT_KINDS(X)
#undef X
	PTPKT_KIND_COUNT
};

/* Longest packet (PSB). */
#define PTPKT_MAX_LEN	16

/*
 * A decoded packet.  payload and count by kind:
 *  TNT: count branch bits, payload the bits left-aligned (first branch in
 *       bit 63, 1 = taken);
 *  TIP, TIP.PGE, TIP.PGD, FUP: count the IPBytes field (0 no address,
 *       1 low 16 bits, 2 low 32, 3 48 bits sign-extended, 4 48 bits,
 *       6 all 64), payload the address bytes as they are;
 *  TSC: the 56-bit TSC; MTC: the 8-bit CTC slice; TMA: payload the CTC's
 *       low 16 bits, count the fast counter (9 bits); CBR: the ratio
 *       (payload) and the whole 2-byte field in count;
 *  MODE.Exec: the mode bits (bit 0 CS.L 64-bit, bit 1 CS.D); MODE.TSX:
 *       bit 0 InTX, bit 1 TXAbort; PIP: the CR3 bits and NR bit as stored
 *       (bit 0 NR); VMCS, MNT, PTWRITE, MWAIT, PWRE, PWRX: their fields;
 *  CYC: the cycle count; BBP: the block type (count: the size bit);
 *  BIP: the item id in count, its value in payload.
 */
struct ptpkt {
	enum ptpkt_kind	kind;
	int		count;
	uint64_t	payload;
};

/* Where the stream is: block items follow a BBP packet until BEP. */
enum ptpkt_ctx {
	PTPKT_CTX_NONE,
	PTPKT_CTX_BLOCK4,	/* BIP items are 4 bytes */
	PTPKT_CTX_BLOCK8,	/* BIP items are 8 bytes */
};

/* The 16 bytes of a PSB packet. */
extern const uint8_t ptpkt_psb_bytes[16];

/*
 * Decode the packet at buf (len bytes available).  Returns its length
 * (> 0), 0 if len is too short for the whole packet, or -1 for bytes that
 * are no packet (out->kind is then PTPKT_BAD; step over one byte).  *ctx
 * carries the block context from packet to packet (start PTPKT_CTX_NONE).
 */
int ptpkt_get(const uint8_t *buf, size_t len, struct ptpkt *out, enum ptpkt_ctx *ctx);

/* Name of a kind ("TIP.PGE"). */
const char *ptpkt_name(enum ptpkt_kind k);

/* Offset of the first PSB in [buf, buf + len), or len if none. */
size_t ptpkt_find_psb(const uint8_t *buf, size_t len);

#endif
