/*
 * bench_heap.c - the bytes the benches' loaded clips hold.  The benches link
 * it with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,
 * --wrap=aligned_alloc: every call of those in the objects linked into the
 * bench (libanimrt.a's among them) comes here, and the bytes each block
 * gives (malloc_usable_size: what was asked for, rounded up to malloc's
 * granule, without its header) are counted while the block lives.
 *
 * mallinfo2's counts, which the benches took before, moved with the
 * allocator's state and with what else the process had freed: the same
 * clips measured 2 to 30% apart in bench-compact and bench-anchors.  This
 * count moves only where malloc itself gives more: a block past its mmap
 * threshold (128 KiB at first; it rises as such blocks are freed) comes in
 * whole pages, up to 4 KiB more, as a process holds it.
 */
#include <malloc.h>
#include <stddef.h>

#include "bench_heap.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
void __real_free(void *p);
void *__real_aligned_alloc(size_t alignment, size_t size);

void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t size);
void __wrap_free(void *p);
void *__wrap_aligned_alloc(size_t alignment, size_t size);

static size_t live;

size_t bench_heap_live(void)
{
	return live;
}

static void *counted(void *p)
{
	if (p)
		live += malloc_usable_size(p);
	return p;
}

void *__wrap_malloc(size_t size)
{
	return counted(__real_malloc(size));
}

void *__wrap_calloc(size_t count, size_t size)
{
	return counted(__real_calloc(count, size));
}

void *__wrap_aligned_alloc(size_t alignment, size_t size)
{
	return counted(__real_aligned_alloc(alignment, size));
}

void *__wrap_realloc(void *p, size_t size)
{
	size_t was = p ? malloc_usable_size(p) : 0;
	void *q = __real_realloc(p, size);

	if (q || size == 0)
		live -= was;
	return counted(q);
}

void __wrap_free(void *p)
{
	if (p)
		live -= malloc_usable_size(p);
	__real_free(p);
}
