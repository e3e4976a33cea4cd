/*
 * bundle.h: perfnav bundle, a recording with what symbolizing it needs
 * from the machine that made it, to open on another machine.
 *
 * A bundle is a directory (or a tar of one) laid out as perf's build-id
 * cache, so the lookup of symbolize/dso.c finds its files:
 *
 *   perfnav-bundle                      the manifest: "perfnav-bundle 1", then
 *                                       "KEY VALUE" lines (bundle_manifest_check)
 *   perf.data                           the recording, as it was
 *   kallsyms                            the kallsyms lines of the kernel functions hit
 *   perf-PID.map                        the lines of the JIT functions hit
 *   .build-id/xx/rest -> ../../PATH/HEX a link per build id, as perf's cache
 *   PATH/HEX/elf, PATH/HEX/debug        a DSO's runtime image and debug file,
 *                                       trimmed (elftrim_copy)
 *   [vdso]/HEX/vdso                     the vdso's image
 *   .build-id/xx/rest.debug             a DWARF .gnu_debugaltlink file
 *
 * Opening one (bundle_open) points the symbolizer at it alone
 * (sym_opts.no_system).  perf's own `perf archive` tarball (a build-id cache
 * with no recording) is unpacked the same way for --buildid-dir.
 *
 * A bundle read is hostile input: the manifest is bounded and checked, every
 * symbolic link must stay inside the bundle, and a tar is unpacked to a
 * fresh temporary directory with every entry checked (a relative path with
 * no "..", a regular file, directory or link, a size under the caps) before
 * anything is written.  Errors name the file, the offset and what is wrong.
 * Nothing here prints.
 */
#ifndef PERFNAV_SYMBOLIZE_BUNDLE_H
#define PERFNAV_SYMBOLIZE_BUNDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

struct session;
struct symbolizer;

#define BUNDLE_MANIFEST		"perfnav-bundle"
#define BUNDLE_VERSION		1
#define BUNDLE_MANIFEST_MAX	4096		/* bytes */
#define BUNDLE_ENTRIES_MAX	100000		/* files, directories and links */
#define BUNDLE_TOTAL_MAX	(UINT64_C(64) << 30)	/* bytes unpacked, all entries */
#define BUNDLE_DEPTH_MAX	64

/* ---- writing (bundle.c, elftrim.c) ---- */

struct bundle_stats {
	uint64_t	dsos;		/* DSOs with samples whose files were bundled */
	uint64_t	trimmed;	/* ELF files trimmed */
	uint64_t	missing;	/* DSOs with samples but no file to bundle */
	const char	*missing_names[8];	/* the first of them (owned by the symbolizer) */
	uint64_t	src_bytes;	/* the sizes of the files they came from */
	uint64_t	kept_bytes;	/* the bytes of them kept */
	uint64_t	ksym_lines;	/* kallsyms lines kept */
	uint64_t	jit_lines;	/* perf-PID.map lines kept */
};

/*
 * Write the bundle of s (loaded and indexed from data, a regular file)
 * into the new directory dir: walks every sample with z (its chains
 * unwound), then copies what the DSOs hit need.  whole: the DSOs' files
 * whole, not trimmed (for annotate's code).  0, or -1 with err set.
 */
int bundle_write(const struct session *s, struct symbolizer *z, const char *data,
    const char *dir, bool whole, struct bundle_stats *st, struct perf_err *err);

/*
 * Copy the ELF file from to the new file to, keeping the symbol tables,
 * DWARF, unwind tables, notes and headers at their offsets and leaving the
 * rest a hole (a file libelf cannot read, or with whole, is copied whole).
 * *kept (may be NULL) gets the bytes copied.  0, or -1 with err set.
 */
int elftrim_copy(const char *from, const char *to, bool whole, uint64_t *kept,
    struct perf_err *err);

/* ---- reading (bundle_io.c) ---- */

/* An opened bundle or perf archive. */
struct bundle_in {
	char	*root;		/* the bundle's directory (the temporary one of a tar) */
	char	*data;		/* root/perf.data; NULL for a perf archive */
	char	*kallsyms;	/* root/kallsyms, or "/dev/null" when it has none */
	char	*tmp;		/* the temporary directory to remove, or NULL */
};

/*
 * If path is a bundle (a directory with a manifest, or a tar of one), check
 * it and fill b: 1.  0 if it is none (a perf.data, or anything else: b
 * untouched).  -1 with err set for a bundle that is damaged or hostile, or
 * a tar that is not a bundle.  A tar is unpacked into a new directory
 * under $TMPDIR (or /tmp), removed by bundle_in_free().
 */
int bundle_open(const char *path, struct bundle_in *b, struct perf_err *err);
/*
 * A build-id cache given as a tar (perf archive's perf.data.tar.bz2, or a
 * bundle): unpacked and checked as bundle_open does, b->root the cache.
 * 1 if path is an archive, 0 if not (a directory: used as it is), -1.
 */
int bundle_open_cache(const char *path, struct bundle_in *b, struct perf_err *err);
/* Remove b's temporary directory, if any, and free b. */
void bundle_in_free(struct bundle_in *b);

/* Check a manifest's n bytes (name for messages).  0, or -1 with err set. */
int bundle_manifest_check(const char *name, const uint8_t *buf, size_t n, struct perf_err *err);
/* Check the tree under root: only directories, regular files and links
 * that stay inside it, at most BUNDLE_ENTRIES_MAX.  0, or -1. */
int bundle_check_tree(const char *root, struct perf_err *err);
/*
 * Unpack the tar (plain or compressed) of n bytes at buf, or of the file
 * path when buf is NULL, into the existing empty directory dir, checking
 * each entry.  name names it in messages.  0, or -1 with err set (dir may
 * then hold part of it).
 */
int bundle_unpack(const char *name, const char *path, const void *buf, size_t n,
    const char *dir, struct perf_err *err);
/* Pack directory dir into the new tar file path, compressed by its suffix
 * (.tar, .tar.gz or .tgz, .tar.bz2, .tar.xz, .tar.zst), holes kept as
 * holes (pax sparse entries).  0, or -1. */
int bundle_pack(const char *dir, const char *path, struct perf_err *err);
/* Does path name a tar by its suffix (as bundle_pack takes)? */
bool bundle_tar_name(const char *path);
/* Remove the tree at dir (not following links).  0, or -1. */
int bundle_rmtree(const char *dir);

#endif
