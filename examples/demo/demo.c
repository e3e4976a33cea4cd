/*
 * demo.c - the workload behind perfnav's bundled demo recording.
 *
 * A small word-count pipeline with clearly named hot functions:
 *
 *   generate_text -> tokenize -> hash_word -> table_insert -> sort_counts
 *
 * The main process runs the pipeline in two worker threads, and forks and
 * execs itself once ("demo checksum"; the child renames itself to
 * demo-checksum) so the recording also shows a process with a comm of its
 * own.  The amount of work is fixed (no timing loops), so every run does the
 * same thing; it takes about one second.
 *
 * Built by record.sh with: gcc -O1 -g -fno-omit-frame-pointer -static -pthread
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

#define TEXT_SIZE (256 * 1024)
#define TABLE_BITS 14
#define TABLE_SIZE (1u << TABLE_BITS)
#define ROUNDS 120
#define CHECKSUM_ROUNDS 500

struct entry {
	uint32_t hash;
	uint32_t count;
	char word[16];
};

struct worker {
	int id;
	uint32_t seed;
	char *text;
	struct entry *table;
	struct entry *sorted;
	struct entry *scratch;
	uint64_t result;
};

static const char *syllables[] = {
	"per", "f", "nav", "sam", "ple", "call", "chain", "frame",
	"stack", "hot", "cold", "ring", "buf", "fer", "map", "ping",
};

/* A tiny xorshift generator: deterministic for a given seed. */
static uint32_t
next_random(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

/* Fills buf with words made of syllables, separated by spaces and newlines. */
static NOINLINE void
generate_text(char *buf, size_t size, uint32_t seed)
{
	size_t pos = 0;

	while (pos + 32 < size) {
		unsigned int n = 1 + next_random(&seed) % 3;

		for (unsigned int i = 0; i < n; i++) {
			const char *s = syllables[next_random(&seed) % 16];
			size_t len = strlen(s);

			memcpy(buf + pos, s, len);
			pos += len;
		}
		buf[pos++] = (next_random(&seed) % 8) == 0 ? '\n' : ' ';
	}
	buf[pos] = '\0';
}

/* FNV-1a over one word. */
static NOINLINE uint32_t
hash_word(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

/* Counts one word in an open-addressing hash table. */
static NOINLINE void
table_insert(struct entry *table, const char *s, size_t len)
{
	uint32_t h = hash_word(s, len);
	uint32_t i = h & (TABLE_SIZE - 1);

	if (len >= sizeof table->word)
		len = sizeof table->word - 1;
	for (;;) {
		struct entry *e = &table[i];

		if (e->count == 0) {
			e->hash = h;
			e->count = 1;
			memcpy(e->word, s, len);
			e->word[len] = '\0';
			return;
		}
		if (e->hash == h && strncmp(e->word, s, len) == 0 && e->word[len] == '\0') {
			e->count++;
			return;
		}
		i = (i + 1) & (TABLE_SIZE - 1);
	}
}

/* Splits text into words and counts each; returns the number of words. */
static NOINLINE size_t
tokenize(const char *text, struct entry *table)
{
	size_t words = 0;
	const char *p = text;

	while (*p != '\0') {
		const char *start;

		while (*p == ' ' || *p == '\n')
			p++;
		start = p;
		while (*p != '\0' && *p != ' ' && *p != '\n')
			p++;
		if (p > start) {
			table_insert(table, start, (size_t)(p - start));
			words++;
		}
	}
	return words;
}

static int
entry_before(const struct entry *a, const struct entry *b)
{
	if (a->count != b->count)
		return a->count > b->count;
	return strcmp(a->word, b->word) < 0;
}

/* Top-down merge sort of n entries, by count (descending) then word. */
static NOINLINE void
sort_counts(struct entry *v, struct entry *tmp, size_t n)
{
	size_t mid, i, j, k;

	if (n < 2)
		return;
	mid = n / 2;
	sort_counts(v, tmp, mid);
	sort_counts(v + mid, tmp, n - mid);
	for (i = 0, j = mid, k = 0; i < mid && j < n; k++)
		tmp[k] = entry_before(&v[j], &v[i]) ? v[j++] : v[i++];
	while (i < mid)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof *v);
}

/* One full round of the pipeline; returns a value that depends on all of it. */
static NOINLINE uint64_t
run_pipeline(struct worker *w, unsigned int round)
{
	size_t n = 0;
	uint64_t sum = 0;

	generate_text(w->text, TEXT_SIZE, w->seed + round * 7919u);
	memset(w->table, 0, TABLE_SIZE * sizeof *w->table);
	sum += tokenize(w->text, w->table);
	for (size_t i = 0; i < TABLE_SIZE; i++)
		if (w->table[i].count != 0)
			w->sorted[n++] = w->table[i];
	/* Sort a few times: sorting is meant to be one of the hot spots. */
	for (int pass = 0; pass < 6; pass++) {
		sort_counts(w->sorted, w->scratch, n);
		if (pass + 1 < 6)
			for (size_t i = 0; i < n; i++)
				w->sorted[i].count ^= (uint32_t)pass;
	}
	if (n > 0)
		sum += w->sorted[0].count;
	return sum;
}

static void *
worker_main(void *arg)
{
	struct worker *w = arg;

	for (unsigned int round = 0; round < ROUNDS; round++)
		w->result += run_pipeline(w, round);
	return NULL;
}

/* The child's workload: a byte checksum over a generated buffer. */
static NOINLINE uint32_t
checksum_block(const unsigned char *p, size_t n)
{
	uint32_t a = 1, b = 0;

	for (size_t i = 0; i < n; i++) {
		a = (a + p[i]) % 65521u;
		b = (b + a) % 65521u;
	}
	return (b << 16) | a;
}

static int
child_main(void)
{
	char *buf = malloc(TEXT_SIZE);
	uint32_t sum = 0;

	if (buf == NULL)
		return 1;
	/* A comm of its own, so the child stands out in the recording. */
	prctl(PR_SET_NAME, "demo-checksum", 0, 0, 0);
	generate_text(buf, TEXT_SIZE, 12345);
	for (int i = 0; i < CHECKSUM_ROUNDS; i++) {
		buf[i] ^= (char)sum;
		sum ^= checksum_block((const unsigned char *)buf, TEXT_SIZE);
	}
	printf("checksum: %08x\n", (unsigned int)sum);
	free(buf);
	return 0;
}

static pid_t
spawn_child(const char *self)
{
	char path[4096];
	ssize_t len = readlink("/proc/self/exe", path, sizeof path - 1);
	pid_t pid;

	if (len <= 0)
		snprintf(path, sizeof path, "%s", self);
	else
		path[len] = '\0';
	pid = fork();
	if (pid == 0) {
		execl(path, self, "checksum", (char *)NULL);
		_exit(127);
	}
	return pid;
}

int
main(int argc, char **argv)
{
	struct worker w[2];
	pthread_t tid[2];
	pid_t child;
	int status = 0;

	if (argc > 1 && strcmp(argv[1], "checksum") == 0)
		return child_main();

	child = spawn_child(argv[0]);
	for (int i = 0; i < 2; i++) {
		w[i].id = i;
		w[i].seed = 0x9e3779b9u * (uint32_t)(i + 1);
		w[i].text = malloc(TEXT_SIZE);
		w[i].table = malloc(TABLE_SIZE * sizeof *w[i].table);
		w[i].sorted = malloc(TABLE_SIZE * sizeof *w[i].sorted);
		w[i].scratch = malloc(TABLE_SIZE * sizeof *w[i].scratch);
		w[i].result = 0;
		if (!w[i].text || !w[i].table || !w[i].sorted || !w[i].scratch) {
			fprintf(stderr, "demo: out of memory\n");
			return 1;
		}
		if (pthread_create(&tid[i], NULL, worker_main, &w[i]) != 0) {
			fprintf(stderr, "demo: cannot create thread\n");
			return 1;
		}
	}
	for (int i = 0; i < 2; i++) {
		pthread_join(tid[i], NULL);
		printf("worker %d: %llu\n", i, (unsigned long long)w[i].result);
		free(w[i].text);
		free(w[i].table);
		free(w[i].sorted);
		free(w[i].scratch);
	}
	if (child > 0)
		waitpid(child, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
