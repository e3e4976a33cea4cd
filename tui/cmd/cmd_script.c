#include "config.h"

#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/hist.h"
#include "symbolize/offcpu.h"
#include "symbolize/pt/intel_pt.h"
#include "symbolize/symbolizer.h"
#include "symbolize/tpevent.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/filter_opts.h"
#include "tui/cmd/fmt.h"
#include "tui/cmd/script_brmem.h"
#include "tui/cmd/script_res.h"
#include "tui/cmd/textout.h"

/* perf script -F fields perfnav prints, in perf's output order. */
#define SCRIPT_FIELDS(X) \
	X(COMM, "comm") \
	X(PID, "pid") \
	X(TID, "tid") \
	X(CPU, "cpu") \
	X(TIME, "time") \
	X(PERIOD, "period") \
	X(EVENT, "event") \
	X(TRACE, "trace") \
	X(ADDR, "addr") \
	X(DATA_SRC, "data_src") \
	X(WEIGHT, "weight") \
	X(IP, "ip") \
	X(SYM, "sym") \
	X(SYMOFF, "symoff") \
	X(DSO, "dso") \
	X(SRCLINE, "srcline") \
	X(BRSTACK, "brstack") \
	X(BRSTACKSYM, "brstacksym") \
	X(PHYS_ADDR, "phys_addr") \
	X(DATA_PAGE_SIZE, "data_page_size")

enum {
#define X(n, s) F_##n,
	SCRIPT_FIELDS(X)
#undef X
	F_COUNT
};

static const char *const field_names[] = {
#define X(n, s) s,
	SCRIPT_FIELDS(X)
#undef X
};

struct script {
	unsigned	 fields;	/* 1 << F_* */
	bool		 no_callchain;	/* -G */
	bool		 callchain;	/* -g */
	bool		 fields_given;	/* -F */
	bool		 comm_free;	/* the comm unpadded (perf's, when callchains follow) */
	unsigned	 max_stack;
	bool		 why;
	struct filter_opts fo;		/* --time, --pid, --tid, --comms, --cpu, --dsos, --symbols */
	const struct hist_filter *filter;	/* NULL: every sample */
	bool		 off_cpu;	/* --off-cpu */
	const struct offcpu *offcpu;	/* its spans: only their switch-outs, as off-cpu */
};

/* Output is gathered in a buffer and written in blocks of about this size;
 * on two cores a chunk's text waits in its buffer for the chunk's turn, and
 * is written before then only past SCRIPT_HOLD (the thread waits). */
#define SCRIPT_FLUSH	(1u << 20)
#define SCRIPT_HOLD	(8u << 20)

#define HAS(sc, f) (((sc)->fields >> (f)) & 1u)

enum { OPT_MAX_STACK = 300, OPT_WHY, OPT_OFF_CPU };

static const struct cmd_opt script_opts[] = {
	{ "fields", 1, 'F', "comma-separated fields: comm,pid,tid,cpu,time,period,event,trace,addr,data_src,weight,ip,sym,symoff,dso,srcline,brstack,brstacksym,phys_addr,data_page_size" },
	{ "hide-call-graph", 0, 'G', "print no callchains" },
	{ "call-graph", 0, 'g', "print callchains also with -F (the default without -F)" },
	{ "max-stack", 1, OPT_MAX_STACK, "at most N callchain frames" },
	{ "why", 0, OPT_WHY, "say on stderr why addresses stay unresolved, per DSO, and which files came from debuginfod servers" },
	{ "off-cpu", 0, OPT_OFF_CPU, "only the sched:sched_switch samples that start an off-CPU span (as perfnav top --off-cpu pairs them), as samples of the event off-cpu whose period is the span's nanoseconds: the periods of a stack add up to its count in perfnav folded --off-cpu" },
	FILTER_OPTS_SAMPLES,
	{ NULL, 0, 0, NULL },
};

static int
parse_fields(struct script *sc, const char *arg)
{
	char *copy = strdup(arg), *save = NULL, *tok;
	int rc = 0;

	if (copy == NULL)
		return -1;
	sc->fields = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned f;

		/* "sample:ip,sym" style type prefixes are accepted and ignored. */
		if (strchr(tok, ':'))
			tok = strchr(tok, ':') + 1;
		for (f = 0; f < F_COUNT; f++)
			if (strcmp(tok, field_names[f]) == 0)
				break;
		if (f == F_COUNT) {
			fprintf(stderr, "perfnav script: unknown field '%s'\n", tok);
			rc = -1;
			break;
		}
		sc->fields |= 1u << f;
	}
	free(copy);
	return rc;
}

static int
script_opt(void *arg, int val, const char *optarg)
{
	struct script *sc = arg;

	switch (val) {
	case 'F':
		sc->fields_given = true;
		return parse_fields(sc, optarg);
	case 'g':
		sc->callchain = true;
		return 0;
	case 'G':
		sc->no_callchain = true;
		return 0;
	case OPT_MAX_STACK: {
		long v;

		if (opts_count(optarg, INT32_MAX, &v) < 0)
			return -1;
		sc->max_stack = (unsigned)v;
		return 0;
	}
	case OPT_WHY:
		sc->why = true;
		return 0;
	case OPT_OFF_CPU:
		sc->off_cpu = true;
		return 0;
	}
	if (filter_opt_is(val)) {
		char msg[FILTER_OPTS_MSG];

		if (filter_opts_take(&sc->fo, val, optarg, msg, sizeof msg) == 0)
			return 0;
		fprintf(stderr, "perfnav script: %s\n", msg);
	}
	return -1;
}

/*
 * One formatter: its symbolizer (not thread-safe: one per thread), its
 * output buffer, a callchain's frames and what it keeps between samples:
 * the symbolizer's answers, each with its text "ip sym+off (dso)"
 * (tui/cmd/script_res.h), and the comm and event columns per name (the
 * session's strings, read-only, stay where they are).
 */
#define NAME_SLOTS	256u	/* a power of two */
#define NAME_TEXT	56

/* A comm or event column as printed, by the name's address and width. */
struct name_slot {
	const char	*key;
	uint8_t		 width, len;
	char		 text[NAME_TEXT];
};

struct script_par;

struct sout {
	struct symbolizer	*z;
	struct fmt		 b;
	FILE			*fp;		/* where b goes */
	struct script_par	*par;		/* two cores: their turns; NULL: one pass */
	size_t			 chunk_no;	/* two cores: the chunk being made */
	bool			 holding;	/* ... and it is its turn */
	size_t			 nrefusals, dropped;	/* two cores: z's at the last adoption */
	struct frame		*frames;
	size_t			 nframes;
	bool			 keeps;		/* answers kept in res */
	struct script_res	 res;
	bool			 keep_text;	/* frame texts kept in res (no srcline) */
	int			 data_src_max;	/* data_src: the longest text so far (perf pads to it) */
	struct chain_ip		*ips;
	struct name_slot	*names;		/* NULL: made each time */
	struct script_drop	 drop;		/* one pass: the file read up to here */
	struct read_state	 reads;		/* samples with READ values: last per id */
	struct tpevent		*tp;		/* tracepoint payloads (NULL: none) */
	bool			 in_chain;	/* printing callchain lines: user ips map-relative */
	unsigned		 ev_width;	/* perf's event column of tracepoint lines */
};

#define SOUT_IPS	512	/* as symbolizer_callchain */

/* Does the symbolizer expand s's unwound stacks into inline levels (whose
 * names depend on the order it is asked in)? */
static bool
unwinds_inlines(const struct session *s, struct symbolizer *z)
{
	const struct attr_table *at = session_attrs(s);

	for (size_t i = 0; i < at->n; i++)
		if ((at->v[i].attr.sample_type & PERF_SAMPLE_STACK_USER) != 0)
			return symbolizer_unwinds(z);
	return false;
}

/* The tracepoint decoder (one per formatter: libtraceevent's handle is
 * not thread-safe) and perf's event column width, the longest event name
 * (perf script's evlist__max_name_len), when s has tracepoint events. */
static void
tp_init(struct sout *o, const struct session *s)
{
	const struct attr_table *at = session_attrs(s);
	bool any = false;

	for (size_t i = 0; i < at->n; i++) {
		size_t n = strlen(session_attr_name(s, (int)i));

		any |= at->v[i].attr.type == PERF_TYPE_TRACEPOINT;
		if (n > o->ev_width && n < 256)
			o->ev_width = (unsigned)n;
	}
	o->tp = any ? tpevent_new(s) : NULL;
	if (tpevent_skipped(o->tp) > 0) {
		const struct feat_sec *fs = &session_features(s)->sec[PF_FEAT_TRACING_DATA];

		fprintf(stderr,
		    "perfnav: %s: tracing data at offset %#" PRIx64 ": %zu part(s) skipped, on which "
		    "libtraceevent crashed or hung (their tracepoints print without a format)\n",
		    session_info(s).path, fs->offset, tpevent_skipped(o->tp));
	}
}

/*
 * Keeping answers gives one pass's text unless the symbolizer counts every
 * lookup (--why), expands unwound frames into inline levels, or Intel PT's
 * items resolve between the samples.
 */
static int
sout_init(struct sout *o, const struct script *sc, const struct session *s, struct symbolizer *z,
    FILE *fp)
{
	memset(o, 0, sizeof *o);
	o->z = z;
	o->fp = fp;
	o->nframes = 1024;
	o->frames = calloc(o->nframes, sizeof *o->frames);
	o->names = calloc(NAME_SLOTS, sizeof *o->names);
	tp_init(o, s);
	if (sc->offcpu != NULL)	/* the one event printed */
		o->ev_width = (unsigned)strlen(OFFCPU_EVENT_NAME);
	if (!sc->why && !pt_present(s) && !unwinds_inlines(s, z)) {
		o->ips = calloc(SOUT_IPS, sizeof *o->ips);
		o->keeps = o->ips != NULL && script_res_init(&o->res, z) == 0;
		o->keep_text = !HAS(sc, F_SRCLINE);
	}
	return o->frames != NULL ? 0 : -1;
}

static void
sout_free(struct sout *o)
{
	fmt_free(&o->b);
	free(o->frames);
	if (o->keeps)
		script_res_free(&o->res);
	free(o->ips);
	free(o->names);
	read_state_free(&o->reads);
	tpevent_free(o->tp);
}

/* Writes b out and empties it: past the standard output's filter, for
 * every name in it is escaped already (textout_write_clean). */
static void
script_emit(struct fmt *b, FILE *fp)
{
	if (b->len > 0)
		textout_write_clean(fp, b->p, b->len);
	b->len = 0;
}

/* The pid and tid fields: "  pid/tid   ", or the one asked for. */
static void
print_pid_tid(struct fmt *b, const struct script *sc, int pid, int tid)
{
	if (HAS(sc, F_PID) && HAS(sc, F_TID)) {
		fmt_int(b, pid, 5);
		fmt_char(b, '/');
		fmt_int_left(b, tid, 5);
		fmt_char(b, ' ');
	} else if (HAS(sc, F_PID) || HAS(sc, F_TID)) {
		fmt_int(b, HAS(sc, F_PID) ? pid : tid, 5);
		fmt_char(b, ' ');
	}
}

/* " sym+off (dso)"; an inlined symbol's level shows no DSO (as perf). */
static void
print_sym(struct fmt *b, const struct script *sc, struct symbolizer *z, const struct frame *f)
{
	if (HAS(sc, F_SYM)) {
		fmt_char(b, ' ');
		textout_fmt(b, symbolizer_sym_name(z, f->sym));
		if (HAS(sc, F_SYMOFF) && f->sym != SYM_NONE) {
			fmt_mem(b, "+0x", 3);
			fmt_hex(b, f->symoff, 0);
		}
	}
	if (HAS(sc, F_DSO) && (f->sym == SYM_NONE || !symbolizer_sym_inlined(z, f->sym))) {
		fmt_mem(b, " (", 2);
		textout_fmt(b, symbolizer_dso_long(z, f->dso));
		fmt_char(b, ')');
	}
}

/* The frame's ip (as -F asks) and print_sym; from its slot e's kept text
 * when there is one (e may be NULL). */
static void
print_frame(struct sout *o, const struct script *sc, const struct frame *f, struct res_slot *e)
{
	struct fmt *b = &o->b;
	size_t mark = b->len, n;
	char *d;

	if (e != NULL && e->len != 0 && e->rel == o->in_chain &&
	    (d = fmt_room(b, SCRIPT_RES_TEXT)) != NULL) {
		memcpy(d, e->text, SCRIPT_RES_TEXT);	/* whole: a copy of known size */
		b->len += e->len;
		return;
	}
	/* perf 6.1 prints a callchain's user frames at their address in the DSO */
	if (HAS(sc, F_IP))
		fmt_hex(b, o->in_chain ? frame_chain_addr(f) : f->ip, 16);
	print_sym(b, sc, o->z, f);
	n = b->len - mark;
	if (e != NULL && o->keep_text && !b->failed && n > 0 && n <= SCRIPT_RES_TEXT) {
		memcpy(e->text, b->p + mark, n);
		e->len = (uint8_t)n;
		e->rel = o->in_chain;
	}
}

/* Appends name s escaped and right-aligned to width (textout_fmt_right),
 * kept in o->names by s's address. */
static void
print_name(struct sout *o, const char *s, unsigned width)
{
	struct fmt *b = &o->b;
	uintptr_t k = (uintptr_t)s;
	struct name_slot *e;
	size_t mark = b->len, n;

	if (o->names == NULL) {
		textout_fmt_right(b, s, width);
		return;
	}
	e = &o->names[((k >> 4) ^ (k >> 12)) & (NAME_SLOTS - 1)];
	if (e->key == s && e->width == width) {
		fmt_mem(b, e->text, e->len);
		return;
	}
	textout_fmt_right(b, s, width);
	n = b->len - mark;
	if (!b->failed && n <= NAME_TEXT && width <= NAME_TEXT) {
		e->key = s;
		e->width = (uint8_t)width;
		e->len = (uint8_t)n;
		memcpy(e->text, b->p + mark, n);
	}
}

/* The comm column: the thread's comm at the sample, right-aligned to width. */
static void
print_comm(struct sout *o, const struct session *s, const struct sample *smp, unsigned width)
{
	const struct thread_table *tt = session_threads(s);
	uint32_t th = thread_table_find(tt, (int32_t)smp->tid, smp->time);
	const char *comm = th != THREAD_NONE ? thread_comm_at(tt, th, smp->time) : NULL;

	if (comm != NULL)
		print_name(o, comm, width);
	else
		fmt_str_right(&o->b, ":-1", width);
	fmt_char(&o->b, ' ');
}

static bool
is_tracepoint(const struct session *s, const struct sample *smp)
{
	const struct attr_table *at = session_attrs(s);

	return smp->attr >= 0 && (size_t)smp->attr < at->n &&
	    at->v[smp->attr].attr.type == PERF_TYPE_TRACEPOINT;
}

/* A tracepoint sample's payload as perf script's trace field prints it
 * (escaped: recording data); nothing for a sample without one, as perf. */
static void
print_trace(struct sout *o, const struct session *s, const struct sample *smp)
{
	char why[96];
	const char *text = why;

	if ((smp->sample_type & PERF_SAMPLE_RAW) == 0)
		return;
	if (o->tp != NULL) {
		text = tpevent_text(o->tp, session_attrs(s)->v[smp->attr].attr.config, smp->raw,
		    smp->raw_size, smp->cpu, NULL);
	} else {
		snprintf(why, sizeof why, "[no tracing data: %" PRIu32 " bytes of payload]",
		    smp->raw_size);
	}
	textout_fmt(&o->b, text);
}

static void print_chain(struct sout *o, const struct script *sc, const struct sample *smp,
    uint16_t misc);

/*
 * perf script's default line of a tracepoint sample (perf 6.1's fields for
 * PERF_TYPE_TRACEPOINT: comm, tid, cpu, time, event, trace; those the
 * sample lacks left out, as perf does), its callchain's frames below.
 */
static void
print_tp_line(struct sout *o, const struct script *sc, const struct session *s,
    const struct rec *r, const struct sample *smp)
{
	bool chain = !sc->no_callchain && smp->callchain != NULL;
	struct fmt *b = &o->b;

	if (smp->sample_type & PERF_SAMPLE_TID) {
		print_comm(o, s, smp, chain ? 0 : 16);
		fmt_int(b, (int)smp->tid, 5);
		fmt_char(b, ' ');
	}
	if (smp->sample_type & PERF_SAMPLE_CPU) {
		fmt_char(b, '[');
		fmt_u64_zero(b, smp->cpu, 3);
		fmt_mem(b, "] ", 2);
	}
	if (smp->sample_type & PERF_SAMPLE_TIME) {
		fmt_time_us(b, smp->time, 12);
		fmt_mem(b, ": ", 2);
	}
	print_name(o, session_attr_name(s, smp->attr), o->ev_width);
	fmt_mem(b, ": ", 2);
	print_trace(o, s, smp);
	if (chain)
		print_chain(o, sc, smp, r->misc);
	else
		fmt_char(b, '\n');
}

/* The fields before the ip, symbol and callchain. */
static void
print_head(struct sout *o, const struct script *sc, const struct session *s,
    const struct sample *smp)
{
	struct fmt *b = &o->b;

	if (HAS(sc, F_COMM))
		print_comm(o, s, smp, sc->comm_free ? 0 : 16);
	print_pid_tid(b, sc, (int)smp->pid, (int)smp->tid);
	if (HAS(sc, F_CPU)) {
		fmt_char(b, '[');
		fmt_u64_zero(b, smp->cpu, 3);
		fmt_mem(b, "] ", 2);
	}
	if (HAS(sc, F_TIME)) {
		fmt_time_us(b, smp->time, 12);
		fmt_mem(b, ": ", 2);
	}
	if (HAS(sc, F_PERIOD)) {
		fmt_u64(b, smp->period, 10);
		fmt_char(b, ' ');
	}
	if (HAS(sc, F_EVENT)) {
		/* right-aligned to the longest event name, as perf */
		print_name(o, sc->offcpu ? OFFCPU_EVENT_NAME : session_attr_name(s, smp->attr),
		    o->ev_width);
		fmt_mem(b, ": ", 2);
	}
	if (HAS(sc, F_TRACE) && is_tracepoint(s, smp)) {
		print_trace(o, s, smp);
		if (HAS(sc, F_ADDR) || ((HAS(sc, F_SYM) || HAS(sc, F_DSO)) && !HAS(sc, F_IP)))
			fmt_char(b, ' ');
	}
	/* as perf: addr, data_src and weight one after the other, then the ip
	 * after a space of its own (print_sample) */
	if (HAS(sc, F_ADDR))
		fmt_hex(b, smp->addr, 16);
	if (HAS(sc, F_DATA_SRC))
		script_data_src(b, smp, &o->data_src_max);
	if (HAS(sc, F_WEIGHT))
		script_weight(b, smp);
}

/* The fields after the ip and symbol: branch stack, physical address, page size. */
static void
print_tail(struct sout *o, const struct script *sc, const struct sample *smp, uint8_t cpumode)
{
	if (HAS(sc, F_BRSTACK) || HAS(sc, F_BRSTACKSYM))
		script_brstack(&o->b, o->z, smp, cpumode, !HAS(sc, F_BRSTACK), HAS(sc, F_DSO));
	if (HAS(sc, F_PHYS_ADDR))
		script_phys_addr(&o->b, smp);
	if (HAS(sc, F_DATA_PAGE_SIZE))
		script_page_size(&o->b, smp);
}

/* A callchain's frame line (f, or through its slot e): the frame, its
 * source line, "(inlined)" for inline levels. */
static void
print_chain_frame(struct sout *o, const struct script *sc, const struct frame *f,
    struct res_slot *e)
{
	struct fmt *b = &o->b;
	bool inl = e != NULL ? e->inl : f->sym != SYM_NONE && symbolizer_sym_inlined(o->z, f->sym);
	char *d;

	if (e != NULL && e->len != 0 && e->rel == o->in_chain &&
	    (d = fmt_room(b, SCRIPT_RES_TEXT + 16)) != NULL) {
		/* its kept text (so no source line): the line in one go */
		size_t n = 1 + e->len;

		d[0] = '\t';
		memcpy(d + 1, e->text, SCRIPT_RES_TEXT);
		if (inl) {
			memcpy(d + n, " (inlined)", 10);
			n += 10;
		}
		d[n++] = '\n';
		b->len += n;
		return;
	}
	fmt_char(b, '\t');
	print_frame(o, sc, f, e);
	if (HAS(sc, F_SRCLINE)) {
		const char *src = symbolizer_srcline(o->z, f);

		fmt_mem(b, "\n  ", 3);
		if (src != NULL)
			textout_fmt(b, src);
		else
			fmt_str(b, "??:0");
	}
	if (inl)
		fmt_str(b, " (inlined)");
	fmt_char(b, '\n');
}

/* As perf 6.1 (symbolizer_callchain's frames): each frame's line. */
static void
print_chain(struct sout *o, const struct script *sc, const struct sample *smp, uint16_t misc)
{
	int32_t pid = (int32_t)smp->pid, tid = (int32_t)smp->tid;
	const struct frame *f;
	struct res_slot *e;
	size_t n;

	fmt_char(&o->b, '\n');
	o->in_chain = true;
	if (!o->keeps) {
		n = symbolizer_callchain(o->z, smp, misc, o->frames, o->nframes, sc->max_stack);
		for (size_t i = 0; i < n; i++)
			print_chain_frame(o, sc, &o->frames[i], NULL);
	} else if (!symbolizer_has_chain(smp)) {
		e = script_res_get(&o->res, pid, tid, smp->time, misc & PERF_RECORD_MISC_CPUMODE_MASK,
		    smp->ip, &f);
		print_chain_frame(o, sc, f, e);
	} else {
		n = symbolizer_chain_ips(o->z, smp, misc, o->ips, SOUT_IPS, sc->max_stack);
		for (size_t i = 0; i < n; i++) {
			e = script_res_get(&o->res, pid, tid, smp->time, o->ips[i].cpumode,
			    o->ips[i].ip, &f);
			print_chain_frame(o, sc, f, e);
		}
	}
	o->in_chain = false;
	fmt_char(&o->b, '\n');
}

static void
print_sample(struct sout *o, const struct script *sc, const struct session *s,
    const struct rec *r, const struct sample *smp)
{
	uint8_t cpumode = r->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	bool chain = !sc->no_callchain && (sc->callchain || !sc->fields_given) &&
	    smp->callchain != NULL &&
	    (HAS(sc, F_IP) || HAS(sc, F_SYM) || HAS(sc, F_DSO));
	struct fmt *b = &o->b;
	struct res_slot *e = NULL;
	struct frame f;
	const struct frame *fp = &f;

	struct script eff;

	if (!sc->fields_given && is_tracepoint(s, smp) && sc->offcpu == NULL) {
		print_tp_line(o, sc, s, r, smp);
		return;
	}
	if (!sc->fields_given) {
		/* perf 6.1's default fields for a sample of a hardware, software,
		 * raw or breakpoint event: the symbol's offset, and the cpu and
		 * the period where the sample has them; the comm unpadded when
		 * callchains follow */
		eff = *sc;
		eff.fields |= 1u << F_SYMOFF;
		if (smp->sample_type & PERF_SAMPLE_CPU)
			eff.fields |= 1u << F_CPU;
		if ((smp->sample_type & PERF_SAMPLE_PERIOD) || sc->offcpu != NULL)
			eff.fields |= 1u << F_PERIOD;
		eff.comm_free = chain;
		sc = &eff;
	}
	print_head(o, sc, s, smp);
	if (chain) {
		print_chain(o, sc, smp, r->misc);
		return;
	}
	if (o->keeps) {
		e = script_res_get(&o->res, (int32_t)smp->pid, (int32_t)smp->tid, smp->time,
		    cpumode, smp->ip, &fp);
	} else {
		symbolizer_resolve(o->z, (int32_t)smp->pid, (int32_t)smp->tid, smp->time, cpumode,
		    smp->ip, &f);
	}
	if (HAS(sc, F_IP))
		fmt_char(b, ' ');	/* perf's: the ip's 16 columns after one more space */
	print_frame(o, sc, fp, e);
	print_tail(o, sc, smp, cpumode);
	fmt_char(b, '\n');
	if (HAS(sc, F_SRCLINE)) {
		const char *src = symbolizer_srcline(o->z, fp);

		if (src != NULL) {
			fmt_mem(b, "  ", 2);
			textout_fmt(b, src);
			fmt_char(b, '\n');
		}
	}
}

/*
 * A sample with READ values: one line (and stack) per value delivered, of
 * that value's event and with what its count grew, as perf script prints
 * leader sampling (core/sample_read.h).  One pass only (hist_parallel_worth).
 */
static void
print_read_sample(struct sout *o, const struct script *sc, const struct session *s,
    const struct rec *r, const struct sample *smp)
{
	struct read_delivery d[64];
	size_t n = read_deliver(s, &o->reads, smp, d, 64);

	for (size_t k = 0; k < n; k++) {
		struct sample one = *smp;

		one.attr = d[k].attr;
		one.period = d[k].period;
		one.id = d[k].id;
		print_sample(o, sc, s, r, &one);
	}
}

/* A sample perf synthesizes from an Intel PT trace, laid out as the others. */
static void
print_pt_sample(struct fmt *b, const struct script *sc, const struct session *s,
    struct symbolizer *z, const struct pt_item *it)
{
	struct frame f;
	char tb[32];

	if (HAS(sc, F_COMM)) {
		char buf[32];

		fmt_printf(b, "%16s ", textout_esc(pt_item_comm(s, it, buf, sizeof buf)));
	}
	print_pid_tid(b, sc, (int)it->pid, (int)it->tid);
	bool branch = it->event == PT_EV_BRANCHES;

	/* Without -F, perf's default fields for these events: the cpu and the
	 * event's own data; for branches the period and where to. */
	if (HAS(sc, F_CPU) || (!sc->fields_given && !branch))
		fmt_printf(b, "[%03d] ", (int)it->cpu);
	if (HAS(sc, F_TIME))
		fmt_printf(b, "%12s: ", text_time_us(tb, sizeof tb, it->time));
	if (HAS(sc, F_PERIOD) || (!sc->fields_given && branch))
		fmt_printf(b, "%10u ", 1u);
	if (HAS(sc, F_EVENT))
		fmt_printf(b, "%s: ", pt_event_name(it->event));
	if (!sc->fields_given && !branch) {
		char raw[96];

		if (it->event == PT_EV_PSB)
			snprintf(raw, sizeof raw, " psb offs: %#" PRIx64, it->payload);
		else if (it->event == PT_EV_CBR && it->max_nonturbo)
			snprintf(raw, sizeof raw, " cbr: %2u freq: %4u MHz (%3u%%)",
			    (unsigned)it->payload, (it->freq_khz + 500) / 1000,
			    (unsigned)(5 + 1000 * it->payload / it->max_nonturbo) / 10);
		else if (it->event == PT_EV_CBR)
			snprintf(raw, sizeof raw, " cbr: %2u", (unsigned)it->payload);
		else
			snprintf(raw, sizeof raw, " %#" PRIx64, it->payload);
		fmt_printf(b, "%-34s ", raw);
	}
	if (HAS(sc, F_ADDR))
		fmt_printf(b, "%16" PRIx64 " ", it->addr);
	symbolizer_resolve(z, it->pid, it->tid, it->time, it->cpumode, it->ip, &f);
	if (HAS(sc, F_IP))
		fmt_printf(b, "%16" PRIx64, it->ip);
	print_sym(b, sc, z, &f);
	if (!sc->fields_given && branch) {
		uint8_t cm = it->addr >= (UINT64_C(1) << 63) ? PERF_RECORD_MISC_KERNEL :
		    PERF_RECORD_MISC_USER;

		symbolizer_resolve(z, it->pid, it->tid, it->time, cm, it->addr, &f);
		fmt_printf(b, " => %16" PRIx64, it->addr);
		print_sym(b, sc, z, &f);
	}
	fmt_char(b, '\n');
}

/* perf script's line for a trace decoding error. */
static void
print_pt_error(struct fmt *b, const struct pt_item *it)
{
	fmt_printf(b, " instruction trace error type 1 time %" PRIu64 ".%09" PRIu64
	    " cpu %d pid %d tid %d ip %#" PRIx64 " code %u: %s\n", it->time / 1000000000,
	    it->time % 1000000000, (int)it->cpu, (int)it->pid, (int)it->tid, it->ip,
	    (unsigned)it->code, pt_error_text(it->code));
}

/*
 * Is a sample (or a trace's) printed, as perf script's filters choose:
 * each leaves the samples it does not take out (has_cpu: cpu is known;
 * comm NULL: none; ip resolved in cpumode for --dsos/--symbols).
 */
static bool
script_keeps(const struct script *sc, struct symbolizer *z, int32_t pid, int32_t tid,
    uint64_t time, bool has_cpu, uint32_t cpu, const char *comm, uint8_t cpumode, uint64_t ip)
{
	const struct hist_filter *f = sc->filter;
	struct frame fr;

	if (f == NULL)
		return true;
	if (!filter_sample_ok(f, time, has_cpu, cpu) || !filter_entry_ok(f, pid, tid, comm))
		return false;
	if (!filter_has_frame(f))
		return true;
	symbolizer_resolve(z, pid, tid, time, cpumode, ip, &fr);
	return filter_frame_ok(f, z, &fr);
}

static bool
script_keeps_sample(const struct script *sc, const struct session *s, struct symbolizer *z,
    const struct rec *r, const struct sample *smp)
{
	const struct thread_table *tt = session_threads(s);
	uint32_t th;

	if (sc->filter == NULL)
		return true;
	if (!filter_loc_ok(sc->filter, r->loc))
		return false;	/* --files */
	th = thread_table_find(tt, (int32_t)smp->tid, smp->time);
	return script_keeps(sc, z, (int32_t)smp->pid, (int32_t)smp->tid, smp->time,
	    (smp->sample_type & PERF_SAMPLE_CPU) != 0, smp->cpu,
	    th != THREAD_NONE ? thread_comm_at(tt, th, smp->time) : NULL,
	    r->misc & PERF_RECORD_MISC_CPUMODE_MASK, smp->ip);
}

static bool
script_keeps_pt(const struct script *sc, const struct session *s, struct symbolizer *z,
    const struct pt_item *it)
{
	char buf[32];

	return sc->filter == NULL ||
	    script_keeps(sc, z, it->pid, it->tid, it->time, it->cpu >= 0, (uint32_t)it->cpu,
	    pt_item_comm(s, it, buf, sizeof buf), it->cpumode, it->ip);
}

static void
print_pt_items(struct fmt *b, const struct script *sc, const struct session *s, struct symbolizer *z,
    const struct pt_item *items, size_t n, size_t *next, size_t before)
{
	for (; *next < n && items[*next].before <= before; (*next)++) {
		if (items[*next].kind == PT_ITEM_ERROR)
			print_pt_error(b, &items[*next]);
		else if (script_keeps_pt(sc, s, z, &items[*next]))
			print_pt_sample(b, sc, s, z, &items[*next]);
	}
}

static void
print_why(const struct session *s, struct symbolizer *z)
{
	struct sym_why_count *c;
	size_t n = symbolizer_why_counts(z, NULL, 0);
	char text[PATH_MAX + 256];

	if (n == 0)
		return;
	c = calloc(n, sizeof *c);
	if (c == NULL)
		return;
	n = symbolizer_why_counts(z, c, n);
	for (size_t i = 0; i < n; i++)
		for (unsigned w = 1; w < SYM_WHY_COUNT; w++)
			if (c[i].count[w])
				fprintf(stderr, "perfnav: %s: %s: %" PRIu64 " frames: %s\n", session_info(s).path,
				    textout_esc(symbolizer_dso_long(z, c[i].dso)), c[i].count[w],
				    textout_esc(symbolizer_why_text(z, c[i].dso, w, text, sizeof text)));
	free(c);
}

/* --off-cpu: does the sample at index position pos start a span?  Its period the span's then. */
static bool
offcpu_charge(const struct offcpu *oc, size_t pos, struct sample *smp)
{
	size_t k = offcpu_lower(oc, pos);

	if (k >= oc->n || oc->v[k].pos != pos)
		return false;
	smp->period = oc->v[k].ns;
	return true;
}

static void sout_flush(struct sout *o);

/* The samples of index entries [from, to) into o->b, written out in
 * blocks as it fills (sout_flush). */
static void
script_range(struct sout *o, const struct script *sc, const struct session *s, size_t from,
    size_t to)
{
	const struct rec_index *ix = session_index(s);

	for (size_t i = from; i < to; i++) {
		const struct rec_ent *e = index_ent(ix, i);
		struct sample smp;
		const char *why;
		struct rec r;

		if (o->keeps)
			script_res_track(&o->res, s, i, i == from);
		if (o->par == NULL)
			script_drop_behind(s, &o->drop, ent_loc(e));
		if (ent_type(e) != PF_REC_SAMPLE)
			continue;
		if (session_rec(s, ent_loc(e), &r) < 0 || record_decode_sample(session_attrs(s), &r, &smp, &why) < 0)
			continue;
		if (sc->offcpu != NULL && !offcpu_charge(sc->offcpu, i, &smp))
			;
		else if (!script_keeps_sample(sc, s, o->z, &r, &smp))
			;
		else if (sc->offcpu == NULL && (smp.sample_type & PERF_SAMPLE_READ))
			print_read_sample(o, sc, s, &r, &smp);
		else
			print_sample(o, sc, s, &r, &smp);
		if (o->b.len >= (o->par != NULL ? SCRIPT_HOLD : SCRIPT_FLUSH))
			sout_flush(o);
	}
}

/* Everything script prints to standard output after the stat table, in
 * one pass: the samples, and the items of an Intel PT trace between them. */
static void
script_serial(struct sout *o, const struct script *sc, const struct session *s)
{
	const struct rec_index *ix = session_index(s);
	struct pt_item *items = NULL;
	size_t nitems = 0, next_item = 0;

	if (pt_present(s) && sc->offcpu == NULL) {
		struct pt_opts po = { .script = true, .time = sc->filter };

		nitems = pt_synth(s, o->z, &po, &items);
	}
	if (nitems == 0)
		script_range(o, sc, s, 0, ix->n);
	for (size_t i = 0; nitems != 0 && i < ix->n; i++) {
		print_pt_items(&o->b, sc, s, o->z, items, nitems, &next_item, i);
		script_range(o, sc, s, i, i + 1);
	}
	if (nitems)
		print_pt_items(&o->b, sc, s, o->z, items, nitems, &next_item, ix->n);
	sout_flush(o);
	free(items);
}

/*
 * The samples on two cores.  The index is cut into chunks (a 16th of it,
 * within [SCRIPT_CHUNK_MIN, SCRIPT_CHUNK] entries); thread t formats chunks
 * t, t + 2, ... with a symbolizer of its own, each into its own buffer,
 * then waits for its turn (every chunk before written) to write it: the
 * output is that of one pass.  What is kept across samples is the same as
 * in one pass or not printed: each thread reads the records that change
 * maps in the other's chunks too (its kept addresses are one pass's), the
 * symbolizers' caches do not change answers, and the files a symbolizer
 * refuses are adopted into the run's symbolizer at each chunk's turn, so
 * they are said in the order one pass meets them.  Modes whose text
 * depends on the order of questions (inline levels of unwound stacks,
 * source lines), Intel PT's items and --why's counts run in one pass
 * (script_splits).
 */
#define SCRIPT_CHUNK		8192u
#define SCRIPT_CHUNK_MIN	16u

struct script_par {
	const struct script	*sc;
	const struct session	*s;
	struct symbolizer	*acc;		/* the run's: refusals adopted at the turns */
	size_t			 chunk, nchunks;	/* index entries a chunk, chunks */
	pthread_mutex_t		 lock;
	pthread_cond_t		 turn_moved;
	size_t			 turn;		/* the chunk to be written next */
	bool			 stop;		/* out of memory: no more is written */
	struct script_drop	 drop;		/* at the turns: the file read up to here */
};

struct script_worker {
	struct script_par	*par;
	struct sout		 o;
	unsigned		 first;		/* chunks first, first + 2, ... */
	size_t			 at;		/* the index entries before were read */
};

/* Two cores: wait for o's chunk's turn (every chunk before written). */
static void
sout_wait_turn(struct sout *o)
{
	struct script_par *p = o->par;

	if (o->holding)
		return;
	pthread_mutex_lock(&p->lock);
	while (p->turn != o->chunk_no)
		pthread_cond_wait(&p->turn_moved, &p->lock);
	pthread_mutex_unlock(&p->lock);
	o->holding = true;
}

/* Two cores, at o's chunk's turn: the chunk is done, the next one's turn. */
static void
sout_pass_turn(struct sout *o)
{
	struct script_par *p = o->par;

	pthread_mutex_lock(&p->lock);
	p->turn = o->chunk_no + 1;
	pthread_cond_broadcast(&p->turn_moved);
	pthread_mutex_unlock(&p->lock);
	o->holding = false;
}

/*
 * Writes o's text out.  On two cores, at its chunk's turn (nothing else
 * writes or adopts until the turn is passed on): the files o's symbolizer
 * refused since its last adoption are adopted first, and after a failed
 * allocation nothing more is written by either thread.
 */
static void
sout_flush(struct sout *o)
{
	struct script_par *p = o->par;
	size_t dropped, nref;

	if (p == NULL) {
		script_emit(&o->b, o->fp);
		return;
	}
	sout_wait_turn(o);
	nref = symbolizer_refusals(o->z, NULL, 0, &dropped);
	if (nref != o->nrefusals || dropped != o->dropped)
		symbolizer_adopt_refusals(p->acc, o->z);
	o->nrefusals = nref;
	o->dropped = dropped;
	if (o->b.failed)
		p->stop = true;
	if (!p->stop)
		script_emit(&o->b, o->fp);
	o->b.len = 0;
}

static void *
script_worker_run(void *arg)
{
	struct script_worker *w = arg;
	struct script_par *p = w->par;
	size_t n = session_index(p->s)->n;
	bool stop = false;

	for (size_t c = w->first; c < p->nchunks && !stop; c += 2) {
		size_t from = c * p->chunk, to = from + p->chunk < n ? from + p->chunk : n;

		if (w->o.keeps)	/* the other's chunk before: its changes of maps */
			script_res_skip(&w->o.res, p->s, w->at, from);
		w->o.chunk_no = c;
		script_range(&w->o, p->sc, p->s, from, to);
		w->at = to;
		sout_flush(&w->o);
		stop = p->stop;	/* read at our turn */
		/* the chunks before are done, the other thread is past this one's start */
		script_drop_behind(p->s, &p->drop, ent_loc(index_ent(session_index(p->s), from)));
		sout_pass_turn(&w->o);
	}
	return NULL;
}

/* Does this run go on two cores: enough samples (hist_parallel_worth), and a mode that splits. */
static bool
script_splits(const struct script *sc, const struct session *s, struct symbolizer *z)
{
	if (!hist_parallel_worth(s) || session_index(s)->n < 2 * SCRIPT_CHUNK_MIN)
		return false;
	return !sc->why && !HAS(sc, F_SRCLINE) && !pt_present(s) && !unwinds_inlines(s, z) &&
	    !HAS(sc, F_DATA_SRC);	/* its padding follows every line before */
}

/* The samples on two cores (see above); -1 if the threads or their
 * symbolizers could not be had, before anything was written. */
static int
script_parallel(FILE *fp, const struct script *sc, const struct session *s, struct symbolizer *z,
    const struct sym_opts *so)
{
	struct script_par p;
	struct script_worker w[2];
	pthread_t th;
	int rc = -1;

	memset(&p, 0, sizeof p);
	p.sc = sc;
	p.s = s;
	p.acc = z;
	p.chunk = session_index(s)->n / 16;
	if (p.chunk < SCRIPT_CHUNK_MIN)
		p.chunk = SCRIPT_CHUNK_MIN;
	if (p.chunk > SCRIPT_CHUNK)
		p.chunk = SCRIPT_CHUNK;
	p.nchunks = (session_index(s)->n + p.chunk - 1) / p.chunk;
	memset(w, 0, sizeof w);
	for (unsigned t = 0; t < 2; t++) {
		w[t].par = &p;
		w[t].first = t;
		if (sout_init(&w[t].o, sc, s, symbolizer_new(s, so), fp) < 0)
			goto out;
		w[t].o.par = &p;
	}
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.turn_moved, NULL);
	if (pthread_create(&th, NULL, script_worker_run, &w[1]) == 0) {
		script_worker_run(&w[0]);
		pthread_join(th, NULL);
		rc = 0;
	}
	pthread_cond_destroy(&p.turn_moved);
	pthread_mutex_destroy(&p.lock);
out:
	if (p.stop)
		fprintf(stderr, "perfnav script: out of memory: output cut short\n");
	for (unsigned t = 0; t < 2; t++) {
		symbolizer_free(w[t].o.z);
		sout_free(&w[t].o);
	}
	return rc;
}

/* Everything script prints to standard output: stat table, samples (so
 * NULL: in one pass; else, when worth it, on two cores with symbolizers
 * made with so). */
static void
script_run(FILE *fp, const struct script *sc, const struct session *s, struct symbolizer *z,
    const struct sym_opts *so)
{
	struct sout o;

	script_print_stat(s, fp);	/* perf stat record files */
	if (so != NULL && script_splits(sc, s, z) && script_parallel(fp, sc, s, z, so) == 0)
		return;
	if (sout_init(&o, sc, s, z, fp) == 0)
		script_serial(&o, sc, s);
	if (o.b.failed)
		fprintf(stderr, "perfnav script: out of memory: output cut short\n");
	sout_free(&o);
}

static void
script_defaults(struct script *sc)
{
	memset(sc, 0, sizeof *sc);
	sc->fields = 1u << F_COMM | 1u << F_TID | 1u << F_TIME | 1u << F_EVENT | 1u << F_IP |
	    1u << F_SYM | 1u << F_DSO;
}

int
script_print(const struct session *s, struct symbolizer *z, const char *fields, bool callchain,
    unsigned max_stack, FILE *fp)
{
	struct script sc;

	script_defaults(&sc);
	if (fields != NULL) {
		sc.fields_given = true;
		if (parse_fields(&sc, fields) < 0)
			return -1;
	}
	sc.callchain = callchain;
	sc.no_callchain = !callchain;
	sc.max_stack = max_stack;
	script_run(fp, &sc, s, z, NULL);
	return 0;
}

const struct cmd_spec script_spec = {
	.name = "script",
	.summary = "one line per sample, as perf script (-F fields, -G: no callchains)",
	.run = cmd_script,
	.usage = "script [-F FIELDS] [-g|-G] [--max-stack N] [--off-cpu] [SCOPE] [FILE]\n\n"
	    "SCOPE: --time, --pid, --tid, --comms, --cpu, --dsos, --symbols (below): only the\n"
	    "samples they all take are printed, as perf script's.  --off-cpu: the switch-outs\n"
	    "that start an off-CPU span, each with its charge (event off-cpu, period in ns).",
	.opts = script_opts,
	.fn = script_opt,
	.maxpos = 0,
};

/* --off-cpu: the recording's off-CPU spans into oc; 0, or -1 (said). */
static int
script_offcpu(const struct cmd_run *r, struct offcpu *oc)
{
	enum offcpu_none why = offcpu_build(r->s, oc);

	if (why == OFFCPU_NO_EVENT)
		fprintf(stderr, "perfnav script: --off-cpu: %s has no sched:sched_switch samples "
		    "(record with perf record -e sched:sched_switch -g)\n", textout_esc(r->co.input));
	else if (why != OFFCPU_OK)
		fprintf(stderr, "perfnav script: --off-cpu: %s: no sched_switch format with prev_pid, "
		    "next_pid and prev_state in its tracing data\n", textout_esc(r->co.input));
	return why == OFFCPU_OK ? 0 : -1;
}

int
cmd_script(int argc, char **argv)
{
	struct script sc;
	struct cmd_run r;
	struct sym_opts so;
	struct offcpu oc = { 0 };
	static char obuf[1 << 16];

	char msg[FILTER_OPTS_MSG];

	script_defaults(&sc);
	if (cmd_begin(&r, argc, argv, &script_spec, &sc) < 0 || cmd_load(&r, true) < 0) {
		filter_opts_free(&sc.fo);
		return r.status;
	}
	if (filter_opts_setup(&sc.fo, r.s, r.co.input, msg, sizeof msg) < 0) {
		fprintf(stderr, "perfnav script: %s\n", msg);
		filter_opts_free(&sc.fo);
		return cmd_quit(&r, EXIT_USAGE);
	}
	sc.filter = filter_opts_filter(&sc.fo);
	if (sc.off_cpu && script_offcpu(&r, &oc) < 0) {
		filter_opts_free(&sc.fo);
		return cmd_quit(&r, EXIT_FAIL);
	}
	sc.offcpu = sc.off_cpu ? &oc : NULL;
	r.check_write = true;
	setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
	cmd_sym_opts(&r.co, &so);	/* for the symbolizers of a run on two cores */
	script_run(stdout, &sc, r.s, cmd_symbolizer(&r), &so);
	fflush(stdout);
	if (sc.why) {
		print_why(r.s, r.z);
		cmd_report_debuginfod(stderr, r.z, "perfnav: ");
	}
	filter_opts_free(&sc.fo);
	offcpu_free(&oc);
	return cmd_end(&r);
}
