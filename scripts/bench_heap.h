/*
 * bench_heap.h - the bytes the benches' loaded clips hold (bench_heap.c):
 * the benches link with BENCH_HEAP_WRAP, and read the count before and
 * after what they measure.
 */
#ifndef ANIMC_BENCH_HEAP_H
#define ANIMC_BENCH_HEAP_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The bytes of the blocks malloc, calloc, realloc and aligned_alloc gave
 * the bench's statically linked code, and free has not taken back. */
size_t bench_heap_live(void);

#ifdef __cplusplus
}
#endif

#endif
