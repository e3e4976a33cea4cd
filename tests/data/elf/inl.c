/* tests/test_inline.c's fixture: known inline chains (built by build-inl.sh). */
static inline __attribute__((always_inline)) int
leaf(int x)
{
	return (x * 2654435761u) >> 7 ^ x;
}

static inline __attribute__((always_inline)) int
mid(int x)
{
	int s = 0;

	for (int i = 0; i < x; i++)
		s += leaf(x + i) * i;
	return s;
}

__attribute__((noinline)) int
outer(int x)
{
	return mid(x) ^ 7;
}

int
main(int argc, char **argv)
{
	(void)argv;
	return outer(argc * 1000) & 1;
}
