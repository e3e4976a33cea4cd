/*
 * Criterion tests of core/text.c: which bytes are escaped, how, and the
 * edges (UTF-8 classes and their boundaries, sequences cut at the end,
 * overlong forms, surrogates, cut output buffers).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"

/* s (n bytes) escaped with flags, in a static buffer. */
static const char *
esc_n(const char *s, size_t n, unsigned flags)
{
	static char buf[1024];
	size_t k = text_escape(buf, sizeof buf, s, n, flags);

	cr_assert_lt(k, sizeof buf);
	cr_assert_eq(strlen(buf), k, "returned length %zu, written %zu", k, strlen(buf));
	/* the length alone, without a buffer, is the same */
	cr_assert_eq(text_escape(NULL, 0, s, n, flags), k);
	/* clean input is exactly the input */
	cr_assert_eq(text_clean_prefix(s, n, flags) == n, k == n && memcmp(buf, s, n) == 0);
	return buf;
}

static const char *
esc(const char *s)
{
	return esc_n(s, strlen(s), 0);
}

Test(text, clean_ascii_and_utf8_pass)
{
	cr_assert_str_eq(esc("main"), "main");
	cr_assert_str_eq(esc("std::vector<int>::push_back(int const&) [clone .constprop.0]"),
	    "std::vector<int>::push_back(int const&) [clone .constprop.0]");
	cr_assert_str_eq(esc("caf\xc3\xa9"), "caf\xc3\xa9");
	cr_assert_str_eq(esc("\xe6\x97\xa5\xe6\x9c\xac"), "\xe6\x97\xa5\xe6\x9c\xac");	/* CJK */
	cr_assert_str_eq(esc("\xf0\x9f\x94\xa5"), "\xf0\x9f\x94\xa5");	/* U+1F525 */
	cr_assert_str_eq(esc(" ~"), " ~");	/* 0x20 and 0x7e: the ASCII ends */
	cr_assert_str_eq(esc("back\\slash \"q\""), "back\\slash \"q\"");
	cr_assert(!text_needs_escape("caf\xc3\xa9 \xe6\x97\xa5", 0));
	cr_assert(!text_needs_escape(NULL, 0));
}

Test(text, c0_del_and_their_edges)
{
	cr_assert_str_eq(esc("\x1b]0;title\x07"), "\\x1b]0;title\\x07");
	cr_assert_str_eq(esc("\x1b[2J\x1b[31m"), "\\x1b[2J\\x1b[31m");
	cr_assert_str_eq(esc("\x01\x1f\x7f"), "\\x01\\x1f\\x7f");
	cr_assert_str_eq(esc("a\tb\nc\r"), "a\\x09b\\x0ac\\x0d");
	cr_assert(text_needs_escape("a\x1b", 0));
	/* tab and newline pass when kept, nothing else does */
	cr_assert_str_eq(esc_n("a\tb\n", 4, TEXT_KEEP_TAB | TEXT_KEEP_NL), "a\tb\n");
	cr_assert_str_eq(esc_n("a\tb\n", 4, TEXT_KEEP_TAB), "a\tb\\x0a");
	cr_assert_str_eq(esc_n("a\tb\n", 4, TEXT_KEEP_NL), "a\\x09b\n");
	cr_assert_str_eq(esc_n("\r\x0b\x0c", 3, TEXT_KEEP_TAB | TEXT_KEEP_NL), "\\x0d\\x0b\\x0c");
	/* an embedded NUL when the length is given */
	cr_assert_str_eq(esc_n("a\0b", 3, 0), "a\\x00b");
}

Test(text, c1_controls)
{
	/* U+0080..U+009F as UTF-8: each byte escaped; U+00A0 passes */
	cr_assert_str_eq(esc("\xc2\x80"), "\\xc2\\x80");
	cr_assert_str_eq(esc("\xc2\x9b" "31m"), "\\xc2\\x9b31m");
	cr_assert_str_eq(esc("\xc2\x9f"), "\\xc2\\x9f");
	cr_assert_str_eq(esc("\xc2\xa0"), "\xc2\xa0");
	/* bare C1 bytes (Latin-1 style) are invalid UTF-8 */
	cr_assert_str_eq(esc("\x9b" "2J"), "\\x9b2J");
}

Test(text, invalid_utf8)
{
	cr_assert_str_eq(esc("\xff"), "\\xff");
	cr_assert_str_eq(esc("\xfe\xf5\xf8"), "\\xfe\\xf5\\xf8");
	cr_assert_str_eq(esc("a\x80z"), "a\\x80z");	/* stray continuation */
	cr_assert_str_eq(esc("\xc3" "a"), "\\xc3a");	/* lead without continuation */
	/* overlong forms: C0/C1 leads, E0 80..9F, F0 80..8F */
	cr_assert_str_eq(esc("\xc0\xaf"), "\\xc0\\xaf");
	cr_assert_str_eq(esc("\xc1\xbf"), "\\xc1\\xbf");
	cr_assert_str_eq(esc("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");
	cr_assert_str_eq(esc("\xe0\x9f\xbf"), "\\xe0\\x9f\\xbf");
	cr_assert_str_eq(esc("\xe0\xa0\x80"), "\xe0\xa0\x80");	/* U+0800, the first */
	cr_assert_str_eq(esc("\xf0\x8f\xbf\xbf"), "\\xf0\\x8f\\xbf\\xbf");
	cr_assert_str_eq(esc("\xf0\x90\x80\x80"), "\xf0\x90\x80\x80");	/* U+10000 */
	/* surrogates U+D800..U+DFFF; U+D7FF and U+E000 pass */
	cr_assert_str_eq(esc("\xed\xa0\x80"), "\\xed\\xa0\\x80");
	cr_assert_str_eq(esc("\xed\xbf\xbf"), "\\xed\\xbf\\xbf");
	cr_assert_str_eq(esc("\xed\x9f\xbf"), "\xed\x9f\xbf");
	cr_assert_str_eq(esc("\xee\x80\x80"), "\xee\x80\x80");
	/* above U+10FFFF */
	cr_assert_str_eq(esc("\xf4\x8f\xbf\xbf"), "\xf4\x8f\xbf\xbf");
	cr_assert_str_eq(esc("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");
}

Test(text, utf8_cut_at_the_end)
{
	cr_assert_str_eq(esc("caf\xc3"), "caf\\xc3");
	cr_assert_str_eq(esc("\xe6\x97"), "\\xe6\\x97");
	cr_assert_str_eq(esc("\xf0\x9f\x94"), "\\xf0\\x9f\\x94");
	/* the length bounds the sequence, not the NUL */
	cr_assert_str_eq(esc_n("\xc3\xa9", 1, 0), "\\xc3");
	cr_assert_eq(text_seq_len(0xc3), 2);
	cr_assert_eq(text_seq_len(0xe6), 3);
	cr_assert_eq(text_seq_len(0xf0), 4);
	cr_assert_eq(text_seq_len(0xc1), 0);
	cr_assert_eq(text_seq_len(0x80), 0);
	cr_assert_eq(text_seq_len('a'), 0);
}

Test(text, units)
{
	cr_assert_eq(text_unit("a", 1, 0), 1);
	cr_assert_eq(text_unit("\t", 1, 0), 0);
	cr_assert_eq(text_unit("\t", 1, TEXT_KEEP_TAB), 1);
	cr_assert_eq(text_unit("\xc3\xa9", 2, 0), 2);
	cr_assert_eq(text_unit("\xe6\x97\xa5", 3, 0), 3);
	cr_assert_eq(text_unit("\xf0\x9f\x94\xa5", 4, 0), 4);
	cr_assert_eq(text_unit("\xf0\x9f\x94\xa5", 3, 0), 0);
	cr_assert_eq(text_unit("", 0, 0), 0);
}

Test(text, quote_mode_as_dump)
{
	cr_assert_str_eq(esc_n("a\"b\\c\x1b", 6, TEXT_QUOTE), "a\\\"b\\\\c\\x1b");
	cr_assert_str_eq(esc_n("caf\xc3\xa9", 5, TEXT_QUOTE), "caf\xc3\xa9");
	cr_assert_str_eq(esc_n("\xc2\x9b", 2, TEXT_QUOTE), "\\xc2\\x9b");
}

Test(text, clean_prefix_over_long_runs)
{
	char buf[200];

	/* the word-at-a-time scan finds a bad byte at every position */
	memset(buf, 'x', sizeof buf);
	for (size_t at = 0; at < 40; at++) {
		static const unsigned char bad[] = { 0x00, 0x1b, 0x1f, 0x7f, 0x80, 0xff };

		for (size_t b = 0; b < sizeof bad; b++) {
			buf[at] = (char)bad[b];
			cr_assert_eq(text_clean_prefix(buf, 40, 0), at, "byte %#x at %zu", bad[b], at);
		}
		buf[at] = ' ';
		cr_assert_eq(text_clean_prefix(buf, 40, 0), 40);
		buf[at] = '~';
		cr_assert_eq(text_clean_prefix(buf, 40, 0), 40);
		buf[at] = 'x';
	}
	/* a UTF-8 sequence across a word boundary */
	memcpy(buf + 7, "\xc3\xa9", 2);
	cr_assert_eq(text_clean_prefix(buf, 40, 0), 40);
}

Test(text, cut_buffers_keep_whole_units)
{
	char buf[8];
	size_t k;

	/* "ab\x1b" is 6 bytes escaped: a 6-byte buffer holds "ab" only */
	k = text_escape(buf, 6, "ab\x1b", 3, 0);
	cr_assert_eq(k, 6);
	cr_assert_str_eq(buf, "ab");
	k = text_escape(buf, 7, "ab\x1b", 3, 0);
	cr_assert_str_eq(buf, "ab\\x1b");
	/* never half a UTF-8 sequence */
	k = text_escape(buf, 5, "abc\xc3\xa9", 5, 0);
	cr_assert_eq(k, 5);
	cr_assert_str_eq(buf, "abc");
	k = text_escape(buf, 1, "abc", 3, 0);
	cr_assert_str_eq(buf, "");
	cr_assert_eq(k, 3);
}

Test(text, esc_into_a_buffer)
{
	struct text_buf b = { NULL, 0 };
	const char *clean = "caf\xc3\xa9";
	char big[3000];

	cr_assert_eq(text_esc(&b, clean, 0), clean);	/* no copy */
	cr_assert_null(b.p);
	cr_assert_str_eq(text_esc(&b, "x\x1b", 0), "x\\x1b");
	cr_assert_str_eq(text_esc(&b, NULL, 0), "");
	/* grows to whatever the name needs */
	memset(big, 0x1b, sizeof big - 1);
	big[sizeof big - 1] = '\0';
	cr_assert_eq(strlen(text_esc(&b, big, 0)), 4 * (sizeof big - 1));
	text_buf_free(&b);
	cr_assert_null(b.p);
}

Test(text, time_as_perf_prints_a_sample)
{
	char buf[32], small[6];

	cr_assert_str_eq(text_time_us(buf, sizeof buf, 0), "0.000000");
	/* microseconds truncated, never rounded; leading zeros kept */
	cr_assert_str_eq(text_time_us(buf, sizeof buf, UINT64_C(12000001999)), "12.000001");
	cr_assert_str_eq(text_time_us(buf, sizeof buf, UINT64_C(999999999)), "0.999999");
	cr_assert_str_eq(text_time_us(buf, sizeof buf, UINT64_MAX), "18446744073.709551");
	/* a short buffer gets a cut, terminated copy */
	cr_assert_eq(text_time_us(small, sizeof small, UINT64_C(12345678901)), small);
	cr_assert_str_eq(small, "12.34");
}

Test(text, record_type_names)
{
	char buf[32];

	cr_assert_str_eq(text_record_type(buf, sizeof buf, 1), "MMAP");
	cr_assert_str_eq(text_record_type(buf, sizeof buf, 10), "MMAP2");
	cr_assert_str_eq(text_record_type(buf, sizeof buf, 0), "UNKNOWN0");
	cr_assert_str_eq(text_record_type(buf, sizeof buf, 4000000000u), "UNKNOWN4000000000");
}
