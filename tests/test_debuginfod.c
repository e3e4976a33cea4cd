/*
 * Criterion tests of the debuginfod client (symbolize/debuginfod.c) where
 * no server is needed: when a client exists at all (DEBUGINFOD_URLS unset,
 * empty or blank, --no-debuginfod), that a refused connection is answered
 * "no" with the progress counters back at zero, that a stop flag or
 * dbgd_stop_asking asks nothing (libdebuginfod makes its cache directory on
 * the first question: it is not made), and the browser title's text of a
 * download.  tests/debuginfod.sh runs a real server.
 */
#include "config.h"

#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/debuginfod.h"
#include "symbolize/symbolizer.h"
#include "tests/helpers.h"
#include "tests/tui_helpers.h"
#include "tui/symbols.h"

static const uint8_t bid[20] = { 0xd4, 0xae, 0xc3, 0x6f, 0x57, 0x66, 0x41, 0x81, 0xc7, 0x76,
				 0x2a, 0x68, 0x51, 0xef, 0x1d, 0xd3, 0x55, 0x10, 0xa0, 0x91 };

/* A URL where nothing listens: a port bound, then closed. */
static void
refused_url(char *url, size_t n)
{
	struct sockaddr_in a;
	socklen_t len = sizeof a;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	cr_assert(fd >= 0);
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cr_assert(bind(fd, (struct sockaddr *)&a, sizeof a) == 0);
	cr_assert(getsockname(fd, (struct sockaddr *)&a, &len) == 0);
	close(fd);
	snprintf(url, n, "http://127.0.0.1:%u", (unsigned)ntohs(a.sin_port));
}

/* A fresh DEBUGINFOD_CACHE_PATH (not made yet) into dir. */
static void
fresh_cache(char *dir, size_t n)
{
	char tmpl[] = "/tmp/perfnav-dbgd-XXXXXX";

	cr_assert(mkdtemp(tmpl) != NULL);
	snprintf(dir, n, "%s/cache", tmpl);
	setenv("DEBUGINFOD_CACHE_PATH", dir, 1);
}

/* Remove the cache directory (all = its temporary parent too). */
static void
drop_cache(const char *dir, bool all)
{
	char cmd[600];

	if (all)
		snprintf(cmd, sizeof cmd, "rm -rf '%.*s'", (int)(strrchr(dir, '/') - dir), dir);
	else
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert(system(cmd) == 0);
}

Test(debuginfod, no_client_without_servers_or_when_turned_off)
{
	struct sym_opts o;

	memset(&o, 0, sizeof o);
	unsetenv("DEBUGINFOD_URLS");
	cr_expect_null(dbgd_new(&o), "DEBUGINFOD_URLS unset: no client");
	setenv("DEBUGINFOD_URLS", "", 1);
	cr_expect_null(dbgd_new(&o), "empty: no client");
	setenv("DEBUGINFOD_URLS", " \t ", 1);
	cr_expect_null(dbgd_new(&o), "blank: no client");
	setenv("DEBUGINFOD_URLS", "http://127.0.0.1:1", 1);
	o.no_debuginfod = true;
	cr_expect_null(dbgd_new(&o), "--no-debuginfod: no client");
	o.no_debuginfod = false;
	struct dbgd *g = dbgd_new(&o);
	cr_expect_not_null(g, "a server named: a client");
	dbgd_free(g);
	unsetenv("DEBUGINFOD_URLS");
	cr_expect_not(dbgd_find(NULL, bid, sizeof bid, DBGD_EXECUTABLE, (char[64]){ 0 }, 64));
}

Test(debuginfod, refused_connection_is_no_and_counts_nothing)
{
	struct sym_dbgd_progress p;
	struct sym_opts o;
	char url[64], dir[256], out[4096];
	enum dbgd_kind k;
	struct dbgd *g;

	memset(&p, 0, sizeof p);
	memset(&o, 0, sizeof o);
	o.dbgd_progress = &p;
	refused_url(url, sizeof url);
	setenv("DEBUGINFOD_URLS", url, 1);
	setenv("DEBUGINFOD_TIMEOUT", "5", 1);
	fresh_cache(dir, sizeof dir);
	g = dbgd_new(&o);
	cr_assert_not_null(g);
	cr_expect_not(dbgd_find(g, bid, sizeof bid, DBGD_EXECUTABLE, out, sizeof out));
	cr_expect(file_exists(dir), "the question was asked: libdebuginfod made its cache %s", dir);
	cr_expect_eq(atomic_load(&p.active), 0);
	cr_expect_eq(atomic_load(&p.done), 0);
	cr_expect_eq(atomic_load(&p.total), 0);
	cr_expect_eq(atomic_load(&p.files), 0);
	/* asked once: the answer is kept */
	drop_cache(dir, false);
	cr_expect_not(dbgd_find(g, bid, sizeof bid, DBGD_EXECUTABLE, out, sizeof out));
	cr_expect_not(file_exists(dir), "asked again");
	cr_expect_null(dbgd_origin(g, "/nowhere", &k));
	dbgd_free(g);
	drop_cache(dir, true);
	unsetenv("DEBUGINFOD_URLS");
	unsetenv("DEBUGINFOD_CACHE_PATH");
}

Test(debuginfod, stop_flag_and_stop_asking_ask_nothing)
{
	struct sym_dbgd_progress p;
	struct sym_opts o;
	char url[64], dir[256], out[4096];
	struct dbgd *g, *h;

	memset(&p, 0, sizeof p);
	memset(&o, 0, sizeof o);
	o.dbgd_progress = &p;
	refused_url(url, sizeof url);
	setenv("DEBUGINFOD_URLS", url, 1);
	fresh_cache(dir, sizeof dir);
	atomic_store(&p.stop, true);
	g = dbgd_new(&o);
	cr_assert_not_null(g);
	cr_expect_not(dbgd_find(g, bid, sizeof bid, DBGD_DEBUGINFO, out, sizeof out));
	cr_expect_not(file_exists(dir), "the stop flag: nothing asked");
	atomic_store(&p.stop, false);
	h = dbgd_new(&o);
	dbgd_stop_asking(h);
	cr_expect_not(dbgd_find(h, bid, sizeof bid, DBGD_DEBUGINFO, out, sizeof out));
	cr_expect_not(file_exists(dir), "dbgd_stop_asking: nothing asked");
	/* h takes over g's answer ("none"): still nothing asked, still none */
	dbgd_adopt(h, g);
	cr_expect_not(dbgd_find(h, bid, sizeof bid, DBGD_DEBUGINFO, out, sizeof out));
	cr_expect_not(file_exists(dir));
	dbgd_free(g);
	dbgd_free(h);
	drop_cache(dir, true);
	unsetenv("DEBUGINFOD_URLS");
	unsetenv("DEBUGINFOD_CACHE_PATH");
}

Test(debuginfod, title_text_of_downloads)
{
	struct session *s = open_fixture("plain.data");
	struct sym_opts o = { .buildid_dir = TEST_DATA "/buildid", .kallsyms = "/dev/null" };
	struct symbols *sy = symbols_new(s, &o, NULL);
	char buf[64];

	cr_assert_eq(sy->so.dbgd_progress, &sy->dbgd, "the symbolizers count into sy->dbgd");
	cr_expect_null(symbols_dbgd_text(sy, buf, sizeof buf), "no download: nothing said");
	atomic_store(&sy->dbgd.active, 1);
	atomic_store(&sy->dbgd.done, 12 * 1024);
	atomic_store(&sy->dbgd.total, 19808);
	cr_expect_str_eq(symbols_dbgd_text(sy, buf, sizeof buf), "debuginfod 12 KiB of 19 KiB");
	atomic_store(&sy->dbgd.total, 0);
	atomic_store(&sy->dbgd.done, 300);
	cr_expect_str_eq(symbols_dbgd_text(sy, buf, sizeof buf), "debuginfod 300 B");
	atomic_store(&sy->dbgd.active, 0);
	atomic_store(&sy->dbgd.done, 0);
	atomic_store(&sy->dbgd.files, 1);
	cr_expect_str_eq(symbols_dbgd_text(sy, buf, sizeof buf), "1 file from debuginfod");
	atomic_store(&sy->dbgd.files, 3);
	cr_expect_str_eq(symbols_dbgd_text(sy, buf, sizeof buf), "3 files from debuginfod");
	symbols_free(sy);
	session_close(s);
}
