/*
 * error.h - how the engine, its helpers and the commands report a failure,
 * after the runtime's animrt_error: a function that can fail takes a
 * cli_error * (may be NULL), fills it in with one call, cli_error_set,
 * and returns false; its caller passes the same pointer up unchanged or
 * prints it.  Everything a user reads as "PATH: error: ..." is printed by
 * cli_report (one printer: the subject's control characters escaped).
 *
 *     bool load(const char *path, cli_error *err)
 *     {
 *             if (!cli_read_file(path, &data, &size, err))
 *                     return false;                      // passed up as it is
 *             if (size < 4)
 *                     return cli_error_set(err, "too short to be a manifest");
 *             ...
 *     }
 *     cli_error err;
 *     if (!load(path, &err))
 *             cli_report_error(path, &err);              // "path: error: too short ..."
 */
#ifndef ANIMC_BUILD_ERROR_H
#define ANIMC_BUILD_ERROR_H

#include <stdbool.h>

#include <animc/animc.h>

typedef struct cli_error {
	char message[512];   /* lowercase, no subject, no final period */
} cli_error;

/* Fill in *err (when not NULL) with the message; returns false, so that a
 * failing function can end with `return cli_error_set(err, ...)`. */
bool cli_error_set(cli_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same, ": " and strerror(errnum) appended. */
bool cli_error_errno(cli_error *err, int errnum, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Print "SUBJECT: SEVERITY: message" on stderr ("animc" when subject is
 * NULL), as every diagnostic is printed (cli_print_diag). */
void cli_report(animc_severity severity, const char *subject, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* cli_report of an error that was filled in. */
void cli_report_error(const char *subject, const cli_error *err);

#endif
