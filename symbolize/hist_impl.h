/*
 * hist_impl.h: what the files of struct hist share (private to
 * symbolize/hist*.c, sortkey.c, callgraph.c, folded.c; nothing else
 * includes it).
 *
 *   hist.c        the histogram: construction, entries, crediting a
 *                 sample (hist_add_keys, hist_add), rows
 *   sortkey.c     the sort-key table (one entry per key) and its texts
 *   hist_ptree.c  perf's entry tree (children over inlined frames)
 *   callgraph.c   the call tree (comm first, for folded stacks)
 *   hist_walk.c   the session walk and its caches (hist_add_range)
 *   hist_keys.c   strings, events, function nodes, frame keys; a walked
 *                 sample named and credited (hist_take)
 *   hist_merge.c  merging hists, the split point, merged rows
 *   folded.c      folded stacks
 *   cpath_store.c the call paths stored: added, merged, adopted, indexed
 *   cpath.c       the trees built from them
 */
#ifndef PERFNAV_SYMBOLIZE_HIST_IMPL_H
#define PERFNAV_SYMBOLIZE_HIST_IMPL_H

#include <string.h>

#include "core/bytes.h"
#include "core/hmap.h"
#include "core/origin.h"
#include "core/sample_read.h"
#include "symbolize/brhist.h"
#include "symbolize/chainsrc.h"
#include "symbolize/hist.h"
#include "symbolize/perftree.h"
#include "symbolize/tpevent.h"

/*
 * Tables are growable arrays of plain structs addressed by 32-bit ids;
 * lookups go through a struct hmap (core/hmap.h) from a 64-bit digest of
 * the key to the id, the owner's eq callback comparing the whole key.
 */

#define NONE32	UINT32_MAX

/* How a frame came to a sample: its ip, a callchain entry, a branch target. */
enum node_mode {
	NODE_SELF,
	NODE_CHAIN,
	NODE_BRANCH,
	NODE_EDGE,	/* a branch source or target of branch keys, a data address */
};

/*
 * The owner of a NODE_EDGE node of an unresolved address (its label is
 * perf's for such columns: the level the address resolved at, 'H' when it
 * did not, and the address in the map), apart from the address's
 * other nodes.
 */
#define NODE_OWNER_EDGE	UINT32_MAX
/*
 * The owners of a data address's node (symbol_daddr): keyed by the
 * address and the level of the sample (perf labels the row with it):
 * NODE_OWNER_DADDR less 0 (user), 1 (kernel), 2 (other).
 */
#define NODE_OWNER_DADDR	(UINT32_MAX - 1)
#define NODE_OWNER_DADDR_LAST	(UINT32_MAX - 3)

/* A period over 32 bits of a part of a parallel pass (hist_share_positions). */
#define ENT_MEMO	4096

/* A path cpath_add made: its functions from the event's root out, their path
 * nodes, and its row for (row_node, row_entry). */
struct path_memo {
	uint32_t	 ev;
	uint32_t	*func, *path;
	size_t		 n, cap;
	uint32_t	 row_node, row_entry, row;
};

/* A function node's entries in its last two sample contexts (hist.c add_chain). */
struct node_memo {
	uint32_t	ctx[2], dso[2], ent[2];
};

struct hist_bigp {
	size_t		pos;
	uint64_t	period;
};

/*
 * The walk's frame caches (hist_walk.c resolve), in two levels.  Level 1,
 * per (address space, cpumode, ip): the key and the id of a level-2 entry,
 * in an open-addressing table of its own that drops the slots of address
 * spaces gone (as_gone) when it is full.  Level 2, per resolved frame: the
 * frame and what was made of it, keyed by the frame less its ip (the DSO,
 * the address in it, the symbol...): processes that map one binary, each at
 * an address of its own, share it.  A frame whose keys may use its ip (an
 * unresolved one: perf keys it by the recorded address; any with
 * paths_address, whose address nodes are per ip) keeps the ip in its key.
 */
struct fslot {
	uint64_t	ip;
	uint32_t	as;		/* address space << 3 | cpumode */
	uint32_t	fc;		/* level-2 id; NONE32: an empty slot */
};

struct fcache {
	struct frame	f;		/* the first frame that came to it (its ip that one's) */
	uint32_t	node[4];		/* per enum node_mode, NONE32 until needed */
	uint32_t	srcline;		/* NONE32 until needed */
	uint32_t	anode;		/* paths_address: address node, NONE32 until needed */
	uint32_t	inl;			/* callchain inline levels: first in h->wk.inl, */
	uint32_t	ninl;			/* NONE32 until needed, 0: the frame itself */
	uint32_t	lab[2];			/* in no map: string id + 1 of its callchain
						 * label as [.] and as [k], 0 until needed */
};

/* Address spaces (hist_walk.c): numbered from 1 up, under 2^29 (fslot.as). */
#define HIST_AS_MAX	(UINT32_MAX >> 3)

/* What a frame contributes to entry keys. */
struct fkey {
	uint32_t	dso, node, srcline;
	uint32_t	anode;		/* paths_address: its address node, else 0 */
	uint8_t		why;
	uint32_t	label;		/* string id + 1 of a row label of its own, or 0 */
};

/* A node of the stored call-path tree: (parent, function). */
struct cp_bnode {
	uint32_t	parent;		/* NONE32 at an event's root */
	uint32_t	func;		/* function node; the event index at a root */
	uint32_t	hint;		/* the child last found from here, or NONE32 */
};

/* perf's address key: one frame address of one function, and its name. */
struct cp_anode {
	uint32_t	node;		/* function node */
	uint32_t	name;		/* string id: "name file.c:12", "name +12", "0x..." */
	uint32_t	srcline;	/* string id of its source line (want_src), else 0 */
	uint64_t	ip;
};

/* The samples of one own entry whose path ended at one node. */
struct cp_row {
	uint32_t	node;
	uint32_t	entry;		/* CP_NOCHAIN set: samples without a callchain */
	uint64_t	period, samples;
};

#define CP_NOCHAIN	UINT32_C(0x80000000)

/* sample_row: a sample in event (the low 16 bits)'s totals only (--comms, --pid...). */
#define ROW_TOTALS	UINT32_C(0xffff0000)

/* Rows grouped by a key: the rows of key k are row[off[k] .. off[k + 1]). */
struct cp_csr {
	uint32_t	*off, *row;
	size_t		 nkeys;
};

struct cp_index {
	size_t		 nrows;		/* rows when built */
	struct cp_csr	 by_ent, by_func;
};

/* Per-thread comm cursor (samples come in time order). */
struct tcomm {
	uint32_t	ci;		/* current comm_ev index, NONE32 if none */
};

struct pid_epoch {
	int32_t		pid;
	uint32_t	epoch;		/* its address space now (struct hist nas) */
};

/* What perf's sym key compares of a function node (sortkey.c). */
struct pt_sym {
	uint32_t	 dso;		/* short name (string id); NONE32: no DSO */
	uint32_t	 name;		/* string id; NONE32: unresolved */
	uint64_t	 start, end;	/* the symbol's (an inlined one's: its function's) */
	uint64_t	 addr;		/* unresolved: the address perf keys it by */
	bool		 inl;
	bool		 ready;
};

/* Of struct hist, the walk (hist_walk.c): frame caches, address spaces, one sample's scratch. */
struct hist_walk_state {
	struct tpevent		*tp;		/* the trace key's payloads (hist_walk.c), or NULL */
	bool			 tp_tried;
	struct fslot		*fs;		/* level 1: capfs a power of two, or 0 */
	size_t			 nfs, capfs;
	struct fcache		*fc;		/* level 2 */
	size_t			 nfc, capfc;
	uint32_t		*fct;		/* level 2's ids by open addressing (NONE32: empty),
					 * capfct a power of two, or 0 */
	size_t			 capfct;
	struct fkey		*inl;		/* inline levels of callchain frames */
	size_t			 ninl, capinl;
	struct read_state	 rs;		/* last READ value per id (leader sampling) */
	/*
	 * Address spaces: each pid's (pe) and the kernel's (kepoch) are
	 * numbered anew by the records that change maps, from one count
	 * (nas): no two are alike, and none is 0 but the kernel's first.
	 */
	struct pid_epoch	*pe;
	size_t			 pecap, pen;
	struct hmap		 pe_tab;	/* pid -> index in pe */
	uint32_t		 kepoch;
	uint32_t		 nas;
	/* address spaces whose slots level 1 may drop (numbered anew, or
	 * their process exited): a bit each, capgone bytes */
	uint8_t			*as_gone;
	size_t			 capgone;
	struct tcomm		*tc;
	size_t			 captc;
	uint32_t		*comm_id;	/* comm_ev index -> string id + 1 */
	size_t			 capcomm;
	struct fkey		*chain;
	size_t			 capchain;
	struct chain_ip		*ips;		/* one sample's raw chain */
	size_t			 capips;
	/* Pages of the mapped file behind the pass are given back: [drop_lo,
	 * drop_hi) is what was read since the last time. */
	uint64_t		 drop_lo, drop_hi;
	uint32_t		*path;
	size_t			 cappath;
	uint32_t		*cs;		/* one sample's chain: frame cache (level-2) ids */
	size_t			 capcs;
	uint8_t			*lv;		/* and the cpumode of each one's level in no map */
	size_t			 caplv;
	bool			 chain_prepass;	/* its keys asked in caller order first */
	uint32_t		*br;		/* branch mode: a sample's branch ends (hist_walk.c) */
	size_t			 capbr;
	/* the last chains of the last two address spaces (hist_walk.c chain_of) */
	struct chain_memo {
		int32_t		 pid;
		uint32_t	 epoch, kepoch;
		size_t		 n, cap;
		uint64_t	*ip;
		uint8_t		*cpumode;
		uint32_t	*cs;
	}			 cmemo[2];
	/* paths without children over an Intel PT session: the chains perf
	 * gives its samples from the trace (pt_session_chains()), made once */
	const struct chain_src	*trace_src;	/* symbolize/chainsrc.h: whose chains */
	void			*trace_chains;
	bool			 trace_chains_made;
};

/* Of struct hist, the sort keys (sortkey.c, hist_walk.c's entries): what the keys need, children's contexts, branch and memory labels. */
struct hist_key_state {
	unsigned		 keymask;	/* HIST_KEEP() of each key */
	bool			 want_src;	/* a key needs source lines */
	bool			 branch_keys;	/* a key of branch mode (hist_key_branch) */
	bool			 mem_keys;	/* a key of memory mode (hist_key_mem) */
	bool			 whole_sample;	/* a key reads past the sample's head (sortkey) */
	/* memory mode: the first sample's text per physical address and per
	 * cache line key (string id of hist_mem_dcl's key), as perf labels a
	 * row with its first sample's */
	struct hmap		 phys_lab_of;
	struct hmap		 dcl_lab_of;
	bool			 ipc_node;	/* entries also keyed by the sample's own function
					 * node, unshown: perf's ipc_null column, which
					 * perf report adds in memory mode to a sort whose
					 * key names have "sym" (symbol_daddr) */
	const struct sortkey	*fkeys[HIST_MAX_KEYS];	/* the per_frame keys */
	unsigned		 nfkeys;
	/*
	 * Keys among comm, pid, tid, dso and sym alone (and no entry tree):
	 * a sample's own entry is found first in smemo, slots of entry ids
	 * by a hash of those values (hist.c own_entry_memo), checked against
	 * the entry's fields; NULL otherwise.
	 */
	uint32_t		*smemo;
	bool			 any_dso_mixed;	/* a node is dso_mixed (credit_known_row) */
	/*
	 * Children: a chain frame's entry is its sample's context (the keys
	 * that are not per frame: event, comm, pid, tid...) with its own DSO
	 * and function node, when those are the only per-frame keys
	 * (node_memo_ok).  Contexts are numbered (ctx_tab: hash of the key
	 * with the frame fields zeroed -> ctx id, ctxk their keys) and each
	 * function node remembers the entries of its last two contexts.
	 * ctx_last: the last context found, + 1 (0: none), tried first (a
	 * thread's samples mostly follow one another).
	 */
	bool			 node_memo_ok;
	struct node_memo	*nmemo;
	size_t			 capnmemo;
	struct hist_entry	*ctxk;
	size_t			 nctx, capctx;
	struct hmap		 ctx_tab;
	uint32_t		 ctx_last;
	struct brstat		 brstat;	/* branch mode: perf's branch statistics */
};

/* Of struct hist, the call paths (cpath.c) and what branch history adds to them (brhist.c). */
struct hist_path_state {
	/* paths: the call-path tree of every event (cpath.c) */
	struct cp_bnode		*cp;
	size_t			 ncp, capcp;
	struct hmap		 cp_tab;	/* parent << 32 | func -> node */
	uint32_t		*cp_root;	/* per event; NONE32 until its first sample */
	size_t			 capcp_root;
	struct cp_anode		*an;		/* paths_address: address nodes */
	size_t			 nan, capan;
	struct hmap		 an_tab;
	struct cp_row		*cprow;
	size_t			 ncprow, capcprow;
	struct path_memo	 pmemo[2];	/* cpath_add: the last two paths */
	int			 pmemo_lru;	/* the slot to take for a path like neither */
	struct hmap		 cprow_tab;	/* node << 32 | entry -> row */
	uint32_t		 last_row;
	/*
	 * branch_history (brhist.h): what each frame of the sample being added
	 * carried (chbr, beside chain), the callchain part perf keeps of it
	 * (brraw, in the recording's byte order), and per path row the counts
	 * of its positions, root first: brc[cprow_br[r] ...] (NONE32: none yet).
	 */
	struct brh_frame	*chbr;
	size_t			 nchbr, capchbr;	/* nchbr: frames of the sample being added */
	uint64_t		*brraw;
	size_t			 capbrraw;
	uint32_t		*cprow_br;
	size_t			 capcprow_br;
	struct brh_count	*brc;
	size_t			 nbrc, capbrc;
	/* rows by own entry and by function on their path (CSR), for
	 * cpath_build's entry queries; built for cp_ix_rows rows */
	struct cp_index		*cp_ix;
};

/* Of struct hist, the scope recount (hist_scope.c): each sample's row and period by index position. */
struct hist_recount {
	uint32_t		*sample_row;	/* record_self with paths: row per index position;
					 * ROW_TOTALS | event: in the event's totals only */
	/*
	 * record_self with paths: what hist_rescope() recounts from
	 * (hist_scope.c): each sample's period by index position (32 bits
	 * until one needs more), and per path row the entries its first
	 * sample credited (own entry first): rowent[rowent_off[r] ..
	 * rowent_off[r + 1]).  cred is one sample's credited entries.
	 */
	uint32_t		*sample_p32;
	uint64_t		*sample_p64;
	uint32_t		*rowent_off;
	size_t			 caprowoff;
	uint32_t		*rowent;
	size_t			 nrowent, caprowent;
	uint32_t		*cred;
	uint32_t		*credlab;	/* per cred, the label_sym the sample gave it */
	size_t			 ncred, capcred;
	uint32_t		*rowlab;	/* per rowent, its credlab (a fresh walk's label);
						 * NULL while every one is 0 */
	bool			 no_rescope;	/* samples came other than by index position */
	bool			 cred_frames;	/* the current sample's chain credited frame
						 * by frame (cred holds its entries) */
	/*
	 * hist_opts.offcpu_beside: per span of the off-CPU model, the row its
	 * delivery made (as sample_row: ROW_TOTALS | event, NONE32: none);
	 * shared by a parallel pass's parts as sample_row is.
	 */
	uint32_t		*span_row;
	uint64_t		*scope_in;	/* hist_rescope_sel: bit per index position,
					 * the samples in rows; NULL: none made */
	uint64_t		*row_lat;	/* hist_rescope_sel with hist_opts.parallel:
					 * per path row, its samples' latency (each
					 * recomputed from its period and parallelism) */
	size_t			 caprowlat;
	/*
	 * hist_rescope_sel with a filter or a selection: per entry, its place
	 * in the order a fresh walk of the scope's samples would make it (the
	 * rows' first samples by index position, each row's entries as its
	 * first sample credited them); the rows' ties go by it, as a fresh
	 * hist's go by creation (hist_cmp_entries).  NULL: by creation.
	 */
	uint32_t		*rank;
	size_t			 nrank;		/* entries ranked (those made later: after) */
	uint32_t		*rowrank;	/* the same of the path rows (cpath_rows' ties) */
	size_t			 nrowrank;
	uint32_t		*roword;	/* the rows in the order of their first sample */
	size_t			 nroword;
	/*
	 * hist_share_positions: the per-position arrays (sample_row,
	 * sample_p32) are shared by the two parts of a parallel
	 * pass; the part that borrows them (pos_lent) never frees or grows
	 * them, and while pos_split a period over 32 bits goes to bigp
	 * (hist_merge applies it).  pos_lo..pos_hi: the positions added.
	 */
	bool			 pos_lent, pos_split;
	struct hist_bigp	*bigp;
	size_t			 nbigp, capbigp;
	size_t			 pos_lo, pos_hi;
	/* record_self without paths: the self entry of each sample, by index position
	 * (with paths it is the entry of the sample's row) */
	uint32_t		*sample_ent;
	uint32_t		 last_self;	/* the entry hist_add_keys credited as self */
};

/* Of struct hist, perf's entry tree (hist_ptree.c). */
struct hist_ptree_state {
	/*
	 * perf's entry tree (children with inlined frames, see hist_ptree_wanted()):
	 * entries are found through one tree per event, by perf's comparison.
	 */
	bool			 ptree;
	struct perftree		 pt;
	uint32_t		*pt_root;	/* per event */
	size_t			 cappt_root;
	struct pt_sym		*pt_sym;	/* per node */
	size_t			 cappt_sym;
	uint32_t		*pt_dso;	/* per DSO: short name's string id + 1 */
	size_t			 cappt_dso;
	uint32_t		*pt_seen;	/* one sample's entries (perf's he_cache) */
	size_t			 cappt_seen;
};

/* Of struct hist, hist_rows_merged()'s rows (hist_merge.c). */
struct hist_merged {
	/* hist_rows_merged() */
	struct hist_entry	*mrows;
	size_t			 capmrows;
	uint32_t		*mfirst, *mbest;
	size_t			 capmfirst;
	uint64_t		*mbestv;
	const struct hist_entry	**mout;
	size_t			 capmout;
	unsigned		 mkeep;		/* hist_rows_self(): the keys its ties compare */
	/*
	 * Each entry's merged key (its event and the keys kept) for one keep,
	 * made once: an entry's keys never change, so a recount merges by
	 * these ids alone.
	 */
	bool			 kon;
	unsigned		 kkeep;
	uint32_t		*kof;		/* per entry: key id, NONE32 until asked */
	size_t			 nkof, capkof;
	struct hist_entry	*keys;		/* per key id: its keys, counts 0 */
	size_t			 nkeys, capkeys;
	struct hmap		 ktab;		/* ent_hash -> key id */
	uint32_t		*krow;		/* per key id: its row in this call, NONE32 */
	size_t			 capkrow;
	/*
	 * The merge under way (hist_rows_begin ... hist_rows_end; one at a
	 * time: a begin ends the one before, whose ticket then fails): its
	 * rows so far (nm, their keys marked in krow), the next entry, the
	 * entries it covers, and what it was asked.
	 */
	bool			 live;
	unsigned		 ticket;
	size_t			 nm, next, nent;
	uint32_t		 ev;
	const struct hist_select *sel;
	unsigned		 keep;
};

/* The merge of rows under way (hist_rows_begin) ends, its ticket failing
 * from now on: its rows' marks taken back (the next starts from none). */
void hist_rows_stop(struct hist *h);

struct hist {
	const struct session	*s;
	struct symbolizer	*z;
	struct hist_opts	 o;

	struct strtab		 strs;

	struct hist_event	*ev;
	size_t			 nev, capev;
	uint32_t		*ev_of_attr;	/* attr -> event index + 1 */
	size_t			 capattr;
	uint32_t		*ev_order;	/* events with samples, by attr */
	size_t			 nev_order;

	struct hist_entry	*ent;
	/* the entries found last, by hash (hist_ent_get looks here first) */
	struct ent_memo {
		uint64_t	 hash;
		uint32_t	 id;
	}			 ememo[ENT_MEMO];
	size_t			 nent, capent;
	struct hmap		 ent_tab;
	/* the entries' other keys' values (hist_xkey_id): [0] all 0 */
	struct hist_xkey	*xk;
	size_t			 nxk, capxk;
	struct hmap		 xk_tab;
	uint32_t		 xk_last;	/* the id found last */

	struct hist_node	*node;
	size_t			 nnode, capnode;
	struct hmap		 node_tab;

	struct hist_tnode	*tn;
	size_t			 ntn, captn;
	struct hmap		 tn_tab;

	struct hist_why		*why;
	size_t			 nwhy, capwhy;
	uint32_t		*why_of_dso;	/* dso + 1 -> why index + 1 */
	size_t			 capwdso;

	uint32_t		 stamp;
	bool			 finished;
	/* the tables of ids (ent_tab, node_tab, the paths' cp_tab, cp_root,
	 * cprow_tab) not made yet: a hist read from the cache makes them on
	 * first use (hist_tables_need) */
	bool			 tabs_lazy;
	struct origins		 org;		/* the inputs of a merged recording (key file) */

	/* Scratch. */
	uint32_t		*rows;
	size_t			 caprows;

	/* The parts, each with its owner. */
	struct hist_walk_state	 wk;
	struct hist_key_state	 ks;
	struct hist_path_state	 ps;
	struct hist_recount	 rc;
	struct hist_ptree_state	 ptr;
	struct hist_merged	 mg;
};

/* ---- entries: the key bytes, hashed and compared whole ---- */

/*
 * An entry's key is its bytes before period: the common keys' fields
 * (unused ones 0), the event and the id of its other keys' values
 * (struct hist_xkey, interned: ent_pack).  A key's field goes
 * there, so equality (memcmp) and the hash cover it with nothing written
 * per key.
 */
#define ENT_KEY_BYTES	offsetof(struct hist_entry, period)
#define ENT_KEY_WORDS	(ENT_KEY_BYTES / 8)

_Static_assert(ENT_KEY_BYTES % 8 == 0, "an entry's key is whole 64-bit words");

/*
 * An entry as the sort keys see it: every key's field in place (struct
 * hist_entry with its xkey's values spelt out).  Samples are keyed in
 * this form, packed to find their entry; a stored entry is unpacked for
 * the keys' texts and comparisons.
 */
struct ent_full {
	uint32_t	event, comm;
	int32_t		pid, tid;
	uint32_t	cpu, dso, node;
	uint32_t	xkey;		/* unused: the values are x's */
	union {
		struct hist_xkey	x;
		struct {
			HIST_XKEY_FIELDS
		};
	};
	uint64_t	period, samples, acc_period, acc_samples, latency, acc_latency;
	uint32_t	stamp, label_comm;
	int32_t		label_tid;
	uint32_t	label_sym, label_phys, label_dcl;
};

_Static_assert(offsetof(struct ent_full, x) == ENT_KEY_BYTES &&
    offsetof(struct ent_full, period) == ENT_KEY_BYTES + sizeof(struct hist_xkey) &&
    sizeof(struct ent_full) - offsetof(struct ent_full, period) ==
    sizeof(struct hist_entry) - offsetof(struct hist_entry, period),
    "a key is an entry with its xkey's values in place");

/* Every key 0, every field of an entry 0: copied to clear one (a copy of a constant, not
 * memset, which compilers make a string instruction, slow to start, per entry). */
extern const struct ent_full hist_ent_full_zero;
extern const struct hist_entry hist_entry_zero;

/* The id of x's values in h (0: all 0), interned on first use. */
uint32_t hist_xkey_id(struct hist *h, const struct hist_xkey *x);

/* Entry e's key fields from k, its values interned in h; the rest of e as it was
 * (a key sought: ent_hash and ent_eq read its key bytes only). */
static inline void
ent_pack_key(struct hist *h, const struct ent_full *k, struct hist_entry *e)
{
	memcpy(e, k, ENT_KEY_BYTES);
	e->xkey = hist_xkey_id(h, &k->x);
}

/* Entry e's key fields (its counts and labels 0) from k, its values interned in h. */
static inline void
ent_pack(struct hist *h, const struct ent_full *k, struct hist_entry *e)
{
	*e = hist_entry_zero;
	ent_pack_key(h, k, e);
}

/* Entry e of h (or of its rows), every key in place. */
static inline void
ent_unpack(const struct hist *h, const struct hist_entry *e, struct ent_full *k)
{
	memcpy(k, e, ENT_KEY_BYTES);
	k->x = *hist_entry_xkey(h, e);
	memcpy(&k->period, &e->period, sizeof *e - ENT_KEY_BYTES);
}

/* A digest of an entry's key bytes, for hmap_find()/hmap_add() (which mix it once more). */
static inline uint64_t
ent_hash(const struct hist_entry *k)
{
	uint64_t w[ENT_KEY_WORDS], x;

	memcpy(w, k, sizeof w);
	x = w[ENT_KEY_WORDS - 1];
	for (size_t i = ENT_KEY_WORDS - 1; i-- > 1;)
		x = hash_mix64(w[i] * 31 + x);
	return w[0] * 31 + x;
}

/* The key sought in a table of entries (ent_eq's ctx). */
struct ent_want {
	const struct hist_entry	*v;	/* the table's entries */
	const struct hist_entry	*k;
};

/* hmap_eq_fn: is entry id of w->v keyed as w->k? */
static inline bool
ent_eq(const void *ctx, uint32_t id)
{
	const struct ent_want *w = ctx;

	return memcmp(&w->v[id], w->k, ENT_KEY_BYTES) == 0;
}

/* Does sel (NULL: all) take what a sample of pid and tid gave? */
static inline bool
hist_sel_thread(const struct hist_select *sel, int32_t pid, int32_t tid)
{
	return sel == NULL || ((!sel->by_pid || pid == sel->pid) && (!sel->by_tid || tid == sel->tid));
}

/* Does sel (NULL: all) take entry e? */
static inline bool
hist_sel_entry(const struct hist *h, const struct hist_entry *e, const struct hist_select *sel)
{
	if (sel == NULL)
		return true;
	if (!hist_sel_thread(sel, e->pid, e->tid))
		return false;
	if (sel->by_dso && e->dso != sel->dso)
		return false;
	if (sel->by_node && e->node != sel->node)
		return false;
	if (sel->by_comm && e->comm != sel->comm)
		return false;
	if (sel->by_file && hist_entry_xkey(h, e)->file != sel->file)
		return false;
	return true;
}

/* ---- the sort-key table (sortkey.c) ---- */

/* What a sample gives the keys of an entry: its values and one frame's. */
struct key_src {
	uint32_t		 comm;	/* string id */
	int32_t			 pid, tid;
	uint32_t		 cpu;
	uint32_t		 trace;	/* string id + 1 of the payload's text (tpevent.h), 0: none */
	uint32_t		 state;	/* an off-CPU span's prev_state + 1, 0: none */
	uint32_t		 par;	/* the sample's parallelism (hist_opts.parallel), 0: none */
	uint32_t		 waker_comm;	/* an off-CPU span's waker: comm string id + 1, 0: none */
	int32_t			 waker_tid;	/* and its tid */
	uint64_t		 latency;	/* its latency (parallel_latency), 0: none */
	uint32_t		 file;		/* its input (origins_find), 0 but in a merged file */
	const struct fkey	*f;	/* the sample's own frame or a callchain frame */
	/* branch mode: the entry's source and target (hist_walk.c add_branches) */
	const struct fkey	*from, *to;
	uint32_t		 cycles;
	/* memory mode: the data address's frame, DATA_SRC, DATA_PAGE_SIZE,
	 * WEIGHT, PHYS_ADDR, the instruction latency (WEIGHT_STRUCT), the
	 * texts of phys_daddr and the key of dcacheline (hist_mem_phys/_dcl) */
	const struct fkey	*daddr;
	uint64_t		 data_src, page_size;
	uint64_t		 weight, phys;
	uint32_t		 ins_lat, phys_lab, dcl, dcl_lab;
};

/* hist_merge()'s translation of from's ids into into's. */
struct hist_xlat {
	struct hist		*into;
	const struct hist	*from;
	const uint32_t		*nodemap;	/* from's node id -> into's */
};

/*
 * One sort key.  Its value lives in fields of struct ent_full (equal keys are
 * equal bytes when packed: ENT_KEY_BYTES).
 */
struct sortkey {
	const char	*name;		/* --sort name */
	const char	*header;	/* column header */
	int		 width;		/* column width; 0: the last column takes the rest */
	bool		 per_frame;	/* valued by a frame: each callchain frame of a
					 * sample sets it again (children) */
	bool		 srcline;	/* needs source lines resolved */
	bool		 thread;	/* names a thread: merged rows that keep no such key
					 * take pid and tid from their biggest entry */
	bool		 branch;	/* valued in perf's branch mode only (a branch entry) */
	bool		 mem;		/* valued in perf's memory mode only */
	bool		 whole_sample;	/* reads past a sample's fixed head (payload, weight):
					 * self rows with it walk the whole sample */
	/* Set the key's fields of k from what the sample gives. */
	void		(*extract)(struct ent_full *k, const struct key_src *src);
	/* Copy the key's fields of e into k (hist_rows_merged keeps the key). */
	void		(*keep)(struct ent_full *k, const struct ent_full *e);
	/* Set the key's fields of k from fe, an entry of x->from (hist_merge). */
	void		(*xlat)(const struct hist_xlat *x, struct ent_full *k,
			    const struct ent_full *fe);
	/*
	 * perf's comparison in its entry tree, old the entry in the tree, nw
	 * the one sought (sign only); NULL: perf merges by this key in a later
	 * pass, so hists with it do not use perf's tree (hist_ptree.c).
	 */
	int64_t		(*perf_cmp)(struct hist *h, const struct ent_full *old,
			    const struct ent_full *nw);
	/* The key's text in a row (hist_key_text). */
	void		(*text)(const struct hist *h, const struct ent_full *e, char *buf,
			    size_t n);
};

extern const struct sortkey sortkeys[HIST_KEY_COUNT];

/*
 * sortkey.c, memory mode: the string id of phys_daddr's text for a sample
 * of cpumode (perf labels a row with its first sample's level) ...
 */
uint32_t hist_mem_phys(struct hist *h, uint64_t phys, uint8_t cpumode);
/* ... and the string id of dcacheline's key for a sample of process pid,
 * cpumode, whose data address resolved to f (ip: the address), its text
 * into *lab (the first sample's of each key is kept too, for rows that
 * hist_merge made) */
uint32_t hist_mem_dcl(struct hist *h, const struct frame *f, int32_t pid, uint64_t time,
    uint8_t cpumode, uint32_t *lab);

/* ---- hist_keys.c: names ---- */

/* perf's level letter of a sample's cpumode ('.', 'k', else 'H'). */
char hist_mem_level(uint8_t cpumode);

/* Our string id of str. */
uint32_t hist_intern(struct hist *h, const char *str);
/* Event index for an attr, created on first use. */
uint32_t hist_event_of(struct hist *h, int attr, const char *name);
/* "[.] name" label of a frame. */
void hist_label_frame(struct hist *h, const struct frame *f, char *buf, size_t n);
/*
 * The node keyed (a, b): (DSO, symbol) for a resolved frame f, (UINT64_MAX,
 * address) for an unresolved one.  Returns its id, or NONE32 with *hash set
 * for adding it to node_tab.
 */
uint32_t hist_node_find(struct hist *h, const struct frame *f, uint64_t a, uint64_t b,
    uint32_t owner, uint64_t *hash);
/* The node of a frame that came to a sample as mode says (created on first use). */
/*
 * The node of a branch source or target (NODE_OWNER_EDGE when unresolved)
 * or, with daddr, of a data address (always by the address: perf's
 * symbol_daddr), labelled as perf's columns label them; f is the frame as
 * resolved (user, then kernel), sample_cpumode the sample's.
 */
uint32_t hist_edge_node(struct hist *h, const struct frame *f, bool daddr, uint8_t sample_cpumode);
uint32_t hist_node_of(struct hist *h, const struct frame *fin, enum node_mode mode,
    uint8_t sample_cpumode, uint32_t owner);
/*
 * perf 6.1's level of a callchain frame (fill_callchain_info): a frame in
 * a map takes its map's (kernel or user), one in no map (address 0,
 * garbage) keeps the level of the entry perf filled before it, lv (a
 * cpumode; the walk starts from the sample's own).  Returns the cpumode
 * whose level f shows.
 */
static inline uint8_t
hist_chain_cpumode(uint8_t lv, const struct frame *f)
{
	if (f->dso == DSO_NONE)
		return lv;
	return f->kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
}
/* The string id + 1 of the label of a callchain frame in no map at level cpumode. */
uint32_t hist_unmapped_label(struct hist *h, const struct frame *f, uint8_t cpumode);
/* Our string id of a frame's source line ("??:0" when unknown). */
uint32_t hist_srcline_of(struct hist *h, const struct frame *f);
/* The keys a frame contributes. */
void hist_frame_key(struct hist *h, const struct frame *f, bool chain, uint8_t sample_cpumode,
    struct fkey *out);

/* ---- hist.c ---- */

/* Count n failed frames of k (chain: callchain frames, else sample ips). */
void hist_count_why(struct hist *h, const struct fkey *k, bool chain, uint64_t n);
/* The tables of h's function nodes and entries (node_tab, ent_tab) made from the arrays set whole. */
void hist_adopt_index(struct hist *h);
/* Make the tables of ids if tabs_lazy: before any lookup of an entry, node, path or row. */
void hist_tables_make(struct hist *h);
static inline void
hist_tables_need(struct hist *h)
{
	if (h->tabs_lazy)
		hist_tables_make(h);
}
/* The entry keyed k, created (zero counts) on first use. */
struct hist_entry *hist_ent_get(struct hist *h, const struct ent_full *k);
/* Credit one sample whose frames are already reduced to keys. */
void hist_add_keys(struct hist *h, uint32_t ev, const struct key_src *src, uint64_t period,
    const struct fkey *chain, size_t n);
/*
 * hist_add_keys for a delivery of the sample at index position pos (span:
 * an off-CPU span's, or SIZE_MAX), then its row kept for the scope recount.
 */
void hist_add_delivery(struct hist *h, uint32_t ev, const struct key_src *src, uint64_t period,
    const struct fkey *chain, size_t n, size_t pos, size_t span);
/* A delivery a filter keeps in the totals only (parallelism par). */
void hist_add_totals(struct hist *h, size_t pos, size_t span, uint32_t ev, uint64_t period,
    uint32_t par);
/* perf's row order: children (when shown), self, samples, then ix/iy. */
int hist_cmp_entries(const struct hist *h, const struct hist_entry *x, uint32_t ix,
    const struct hist_entry *y, uint32_t iy);

/* perf's Command column widths of the events, over the entries with samples. */
void hist_comm_widths(struct hist *h);

/* ---- hist_walk.c, hist_keys.c ---- */

/* A sample with READ values is a sample per value delivered (core/sample_read.h). */
#define READ_MAX	64

/*
 * A sample as the walk hands it to the keys (hist_take): what it delivers
 * (events and periods), its values, its comm, its frames as frame cache
 * ids; the keys stage names them, reduces the frames to keys and credits
 * each delivery.  Its callchain is in h->wk.cs, h->wk.lv and h->wk.ips (the
 * walk's chain_of), its branch ends in h->wk.br.
 */
struct walked {
	const struct sample	*smp;
	size_t			 pos;		/* its index position */
	uint64_t		 period;
	size_t			 nd;		/* deliveries */
	struct read_delivery	 d[READ_MAX];
	size_t			 sp[READ_MAX];	/* each one's off-CPU span, or SIZE_MAX */
	struct key_src		 src;		/* its values; names and frames the keys' */
	uint32_t		 comm;		/* the thread table's comm index, or NONE32 */
	const char		*trace;		/* the trace key's payload text, or NULL */
	uint32_t		 waker[READ_MAX];	/* a span's waker: comm index or NONE32 */
	int32_t			 waker_tid[READ_MAX];
	uint64_t		 waker_set;	/* bit k: delivery k has a waker */
	bool			 kept;		/* false: in the totals only (a filter) */
	bool			 branch_mode;	/* perf's branch mode: a row per branch entry */
	uint8_t			 cpumode;
	uint32_t		 self;		/* frame cache id of its ip, NONE32 (branch mode) */
	uint32_t		 daddr;		/* memory mode: of its data address, or NONE32 */
	size_t			 nchain;	/* its callchain's frames */
	size_t			 nbranch;	/* branch mode: its branch entries */
	struct fkey		 self_key, daddr_key;	/* the keys': of self, of daddr */
};

/* Credit a walked sample (hist_keys.c): the stage after the walk. */
void hist_take(struct hist *h, struct walked *ws);

/* Free the walk's frame caches, memos and scratch (made again should more samples come). */
void hist_walk_drop(struct hist *h);

/* ---- hist_scope.c ---- */

/* Keep the period of the sample at index position pos (record_self with paths). */
void hist_keep_period(struct hist *h, size_t pos, uint64_t period);
/* The row of a delivery: the sample's at index position pos, or with
 * offcpu_beside an off-CPU span's (span not SIZE_MAX). */
void hist_keep_row(struct hist *h, size_t pos, size_t span, uint32_t row, uint64_t period);
/*
 * hist_add_keys credited entry id for the current sample (record_self with
 * paths), whose frame there has label (struct hist_entry's label_sym).
 */
static inline void
hist_credit(struct hist *h, uint32_t id, uint32_t label)
{
	if (h->rc.sample_row == NULL)
		return;
	if (h->rc.ncred + 1 > h->rc.capcred) {
		size_t cap = h->rc.capcred;

		GROW(h->rc.cred, cap, h->rc.ncred + 1);
		h->rc.credlab = xreallocarray(h->rc.credlab, cap, sizeof *h->rc.credlab);
		h->rc.capcred = cap;
	}
	h->rc.credlab[h->rc.ncred] = label;
	h->rc.cred[h->rc.ncred++] = id;
}
/* A path row was made for the current sample: keep what it credited. */
void hist_row_made(struct hist *h, uint32_t row);
/* The current sample of made row `row` credited h->rc.cred (labels credlab):
 * the hist is not recounted if they are not the row's. */
void hist_row_again(struct hist *h, uint32_t row);
/* Entry i's (path row r's) place in the ties' order: after a scoped
 * recount, as a fresh walk of the scope would make them; else i (r). */
uint32_t hist_ent_order(const struct hist *h, uint32_t i);
uint32_t hist_row_order(const struct hist *h, uint32_t r);
void hist_scope_free(struct hist *h);

/* ---- hist_ptree.c ---- */

/* Should entries be found through perf's tree?  (At hist_new.) */
bool hist_ptree_wanted(const struct hist *h);
/* perf's hist_entry__cmp(): every sort key in order, old in the tree. */
int64_t hist_ptree_cmp(struct hist *h, const struct ent_full *old, const struct ent_full *nw);
/* The entry perf's tree gives for key k, else a new one linked there. */
struct hist_entry *hist_ptree_find(struct hist *h, const struct ent_full *k);
/* Children through perf's tree, as perf's cumulative iterator adds them. */
void hist_ptree_add_chain(struct hist *h, struct ent_full *k, const struct key_src *src,
    uint64_t period, const struct fkey *chain, size_t n);

/* ---- callgraph.c ---- */

/* Add one sample's call-tree path. */
void callgraph_add(struct hist *h, uint32_t ev, const struct key_src *src,
    const struct fkey *chain, size_t n, uint64_t period);
/* Sort every tree node's children by inclusive period, descending. */
void callgraph_sort_tree(struct hist *h);

/* ---- cpath.c ---- */

/*
 * The row a sample with this chain (n 0: its own frame alone) and own
 * entry e adds to, if it is made already, else NONE32; the path's nodes
 * are made if need be, and cpath_add, which follows, finds the row at once.
 */
uint32_t cpath_row_known(struct hist *h, uint32_t ev, const struct key_src *src,
    const struct fkey *chain, size_t n, uint32_t e);
/* Add one sample's path (chain leaf first, n frames; none: its own frame), own entry e. */
void cpath_add(struct hist *h, uint32_t ev, const struct key_src *src, const struct fkey *chain,
    size_t n, uint64_t period, uint32_t e);
/*
 * Merge from's paths into into's: nodemap and entmap translate from's
 * function nodes and entries, evmap its events; rowmap (NULL, or room for
 * from's rows) gets into's row of each of from's.  A row new to into takes
 * the entries from's row credited (record_self with paths).
 */
void cpath_merge(struct hist *into, const struct hist *from, const uint32_t *evmap,
    const uint32_t *nodemap, const uint32_t *entmap, uint32_t *rowmap);
/*
 * h's stored tree and rows (ps.cp, ps.cprow) set whole, parents before
 * children: their tables (cp_tab, cp_root, cprow_tab) made from them
 * (a finished hist read from the cache, hist_cache.c).
 */
void cpath_adopt(struct hist *h);
struct cpath;
/* The node of t stored row r's path ended in (after t's transforms), or CPATH_NONE. */
uint32_t cpath_row_node(const struct cpath *t, size_t r);
void cpath_free_base(struct hist *h);
/* h's rows grouped by own entry and by function (made on first use). */
const struct cp_index *cpath_row_index(struct hist *h);
/* A stored or built tree's table key of func under parent. */
static inline uint64_t
cp_pair_key(uint32_t a, uint32_t b)
{
	return (uint64_t)a << 32 | b;
}
/* paths_address: the address node of frame f (function node node), made on first use. */
uint32_t cpath_anode(struct hist *h, const struct frame *f, uint32_t node);

#endif
