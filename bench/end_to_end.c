/*
 * end_to_end.c: lays the copies of a recording that perfnav merge wrote
 * into one file end to end in time, as if the workload had been recorded
 * N times in a row: copy k's timestamps move by k * (its span + 1 s) and
 * its process and thread ids (those above 0) by k * (its largest id + 1),
 * so that each copy's threads are threads of their own; the records of
 * time 0 perf writes first (the threads and maps already there) just
 * before the copy's first sample.  Rewrites FILE in
 * place (the data section's records and the SAMPLE_TIME section).
 *
 * A benchmark tool (bench/run.sh makes fp-10G with it), not part of
 * perfnav: it trusts its input, a file-mode merge of N copies of one
 * recording (every copy the same number of bytes), native byte order, one
 * sample_type for every event.
 *
 * usage: bench/end_to_end FILE N
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
	S_IP = 1u << 0, S_TID = 1u << 1, S_TIME = 1u << 2, S_ID = 1u << 6, S_CPU = 1u << 7,
	S_STREAM_ID = 1u << 9, S_IDENTIFIER = 1u << 16,
	R_MMAP = 1, R_COMM = 3, R_EXIT = 4, R_FORK = 7, R_SAMPLE = 9, R_MMAP2 = 10,
	F_SAMPLE_TIME = 21,
};

struct layout {
	uint64_t	type;		/* sample_type */
	int		id_all;		/* sample_id_all */
	int		s_tid, s_time;	/* offsets in a sample after its header, -1 if none */
	int		t_tid, t_time;	/* offsets from the trailer's start */
	int		t_size;		/* the sample_id trailer's size */
};

static void
die(const char *m)
{
	fprintf(stderr, "end_to_end: %s\n", m);
	exit(1);
}

static uint64_t
rd64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static void
layout_of(uint64_t type, int id_all, struct layout *l)
{
	int o = 0;

	l->type = type;
	l->id_all = id_all;
	o += (type & S_IDENTIFIER) ? 8 : 0;
	o += (type & S_IP) ? 8 : 0;
	l->s_tid = (type & S_TID) ? o : -1;
	o += (type & S_TID) ? 8 : 0;
	l->s_time = (type & S_TIME) ? o : -1;
	o = 0;
	l->t_tid = (type & S_TID) ? o : -1;
	o += (type & S_TID) ? 8 : 0;
	l->t_time = (type & S_TIME) ? o : -1;
	o += (type & S_TIME) ? 8 : 0;
	o += (type & S_ID) ? 8 : 0;
	o += (type & S_STREAM_ID) ? 8 : 0;
	o += (type & S_CPU) ? 8 : 0;
	o += (type & S_IDENTIFIER) ? 8 : 0;
	l->t_size = id_all ? o : 0;
}

/* An id above 0 moved by d (0, the idle task, and -1 stay). */
static void
shift_id(unsigned char *p, int32_t d, int32_t *max)
{
	int32_t v;

	memcpy(&v, p, 4);
	if (v <= 0)
		return;
	if (max && v > *max)
		*max = v;
	v += d;
	memcpy(p, &v, 4);
}

/*
 * A time moved by d; time 0 (the records perf writes for the threads and
 * maps already there when it starts) to just before the copy's first
 * sample (start), as one long recording has them once, at its start.
 */
static uint64_t start_of_copy;

static void
shift_time(unsigned char *p, uint64_t d)
{
	uint64_t v = rd64(p);

	if (v == UINT64_MAX || d == 0)
		return;
	v = v == 0 ? start_of_copy + d - 1 : v + d;
	memcpy(p, &v, 8);
}

/* The process and thread ids of one record, and its time, moved by dp and dt (max: ids seen). */
static void
shift_record(unsigned char *r, const struct layout *l, int32_t dp, uint64_t dt, int32_t *max)
{
	uint32_t type;
	uint16_t size;

	memcpy(&type, r, 4);
	memcpy(&size, r + 6, 2);
	if (type == R_SAMPLE) {
		if (l->s_tid >= 0) {
			shift_id(r + 8 + l->s_tid, dp, max);
			shift_id(r + 8 + l->s_tid + 4, dp, max);
		}
		if (l->s_time >= 0)
			shift_time(r + 8 + l->s_time, dt);
		return;
	}
	if (type >= 64)
		return;	/* perf's own records: no ids, no sample_id */
	if (type == R_MMAP || type == R_MMAP2 || type == R_COMM) {
		shift_id(r + 8, dp, max);
		shift_id(r + 12, dp, max);
	} else if (type == R_FORK || type == R_EXIT) {
		for (int i = 0; i < 4; i++)
			shift_id(r + 8 + 4 * i, dp, max);
		shift_time(r + 24, dt);
	}
	if (l->t_size > 0 && size >= 8 + l->t_size) {
		unsigned char *t = r + size - l->t_size;

		if (l->t_tid >= 0) {
			shift_id(t + l->t_tid, dp, max);
			shift_id(t + l->t_tid + 4, dp, max);
		}
		if (l->t_time >= 0)
			shift_time(t + l->t_time, dt);
	}
}

/* Walk [p, end): shift every record by dp and dt.  Returns the bytes walked. */
static void
walk(unsigned char *p, unsigned char *end, const struct layout *l, int32_t dp, uint64_t dt,
    int32_t *max)
{
	while (p + 8 <= end) {
		uint16_t size;

		memcpy(&size, p + 6, 2);
		if (size < 8 || p + size > end)
			die("a record runs past its copy: not N same-sized copies");
		shift_record(p, l, dp, dt, max);
		p += size;
	}
}

int
main(int argc, char **argv)
{
	struct layout l;
	struct stat st;
	unsigned char *m;
	uint64_t attr_size, attrs_off, data_off, data_size, per, span, first, last, feat[4];
	int32_t maxid = 0;
	long n;
	int fd;

	if (argc != 3 || (n = strtol(argv[2], NULL, 10)) < 1)
		die("usage: end_to_end FILE N");
	fd = open(argv[1], O_RDWR);
	if (fd < 0 || fstat(fd, &st) < 0)
		die("cannot open FILE");
	m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		die("cannot map FILE");
	if (memcmp(m, "PERFILE2", 8) != 0)
		die("not a file-mode perf.data");
	attr_size = rd64(m + 16);
	attrs_off = rd64(m + 24);
	data_off = rd64(m + 40);
	data_size = rd64(m + 48);
	memcpy(feat, m + 72, sizeof feat);
	/* the first attr's sample_type (offset 24) and sample_id_all (bit 18 of the flags at 40) */
	layout_of(rd64(m + attrs_off + 24), (int)((rd64(m + attrs_off + 40) >> 18) & 1), &l);
	(void)attr_size;
	if (data_size % (uint64_t)n)
		die("the data section is not N copies of one size");
	per = data_size / (uint64_t)n;
	/* SAMPLE_TIME: the n-th set feature bit's section, in bit order after the data */
	if (!(feat[0] & (1ull << F_SAMPLE_TIME)))
		die("no SAMPLE_TIME section");
	int k = 0;
	for (int b = 0; b < F_SAMPLE_TIME; b++)
		k += (feat[0] >> b) & 1;
	unsigned char *sec = m + data_off + data_size + 16 * (uint64_t)k;
	unsigned char *st_p = m + rd64(sec);
	first = rd64(st_p);
	last = rd64(st_p + 8);
	span = last - first + 1000000000ull;
	start_of_copy = first;
	/* copy 0 as it is: its largest id */
	walk(m + data_off, m + data_off + per, &l, 0, 0, &maxid);
	for (long c = 1; c < n; c++) {
		unsigned char *p = m + data_off + per * (uint64_t)c;

		walk(p, p + per, &l, (int32_t)(c * (maxid + 1L)), (uint64_t)c * span, NULL);
	}
	last += (uint64_t)(n - 1) * span;
	memcpy(st_p + 8, &last, 8);
	if (msync(m, (size_t)st.st_size, MS_SYNC) < 0)
		die("msync failed");
	printf("end_to_end: %ld copies of %llu bytes, each %.1f s later than the one before, ids by %d\n",
	    n, (unsigned long long)per, (double)span / 1e9, maxid + 1);
	return 0;
}
