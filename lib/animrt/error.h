/*
 * error.h - how the runtime's functions report: one helper fills in the
 * caller's animrt_error (which may be NULL).  Not installed.
 */
#ifndef ANIMRT_ERROR_H
#define ANIMRT_ERROR_H

#include <stdint.h>

#include <animc/animrt.h>

/* Fill in *err (when not NULL): status, byte offset (-1: none; else the
 * message starts "byte N: "), and the message; returns status. */
animrt_status animrt_rt_error_set(animrt_error *err, animrt_status status, int64_t byte_offset,
			       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* *err (when not NULL) says ANIMRT_OK. */
void animrt_rt_error_clear(animrt_error *err);

#endif
