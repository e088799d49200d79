/*
 * cli.c - diagnostic printing, usage errors and JSON output shared by the
 * commands.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *const severity_names[] = { "note", "warning", "error" };

void cli_print_diag(void *user, const animc_diag *d)
{
	cli_diag_printer *printer = user;
	FILE *out = printer && printer->out ? printer->out : stderr;

	if (d->severity == ANIMC_NOTE && printer && !printer->show_notes)
		return;
	if (d->path)
		fputs(d->path, out);
	else
		fputs("animc", out);
	if (d->line) {
		fprintf(out, ":%u", d->line);
		if (d->column)
			fprintf(out, ":%u", d->column);
	}
	fprintf(out, ": %s: ", severity_names[d->severity]);
	if (d->byte_offset >= 0)
		fprintf(out, "byte %lld: ", (long long)d->byte_offset);
	fprintf(out, "%s\n", d->message);
}

int cli_usage_error(const char *command, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "animc%s%s: ", command ? " " : "", command ? command : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'animc help%s%s'.\n", command ? " " : "", command ? command : "");
	return ANIMC_EXIT_USAGE;
}

void cli_format_float(float f, char *buf, size_t size)
{
	char fixed[64] = "";
	int lo = 1, hi = 9;

	if (f == 0) {
		snprintf(buf, size, signbit(f) ? "-0" : "0");
		return;
	}
	/* Shortest %g form that reads back as the same float: 9 digits always
	 * do, and a precision that does makes every higher one do, so search. */
	while (lo < hi) {
		int mid = (lo + hi) / 2;

		snprintf(buf, size, "%.*g", mid, (double)f);
		if (strtof(buf, NULL) == f)
			hi = mid;
		else
			lo = mid + 1;
	}
	snprintf(buf, size, "%.*g", lo, (double)f);
	/* ...unless a plain decimal is as short (150, not 1.5e+02).  Without an
	 * exponent, the %g form is already that decimal. */
	if (strchr(buf, 'e') && fabsf(f) >= 1e-5f && fabsf(f) < 1e9f) {
		for (int decimals = 0; decimals <= 15; decimals++) {
			snprintf(fixed, sizeof fixed, "%.*f", decimals, (double)f);
			if (strtof(fixed, NULL) == f)
				break;
		}
		if (strlen(fixed) <= strlen(buf))
			snprintf(buf, size, "%s", fixed);
	}
}

void json_float(FILE *out, float f)
{
	char buf[32];

	cli_format_float(f, buf, sizeof buf);
	fputs(buf, out);
}

void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p == '\t')
			fputs("\\t", out);
		else if (*p == '\r')
			fputs("\\r", out);
		else if (*p < 0x20 || *p == 0x7F)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

void json_floats(FILE *out, const float *v, size_t count, unsigned width)
{
	fputc('[', out);
	for (size_t i = 0; i < count; i++) {
		if (i)
			fputs(", ", out);
		if (width > 1)
			fputc('[', out);
		for (unsigned c = 0; c < width; c++) {
			if (c)
				fputs(", ", out);
			json_float(out, v[i * width + c]);
		}
		if (width > 1)
			fputc(']', out);
	}
	fputc(']', out);
}

bool cli_parse_tolerance(const char *arg, animc_tolerance *out)
{
	double v[3];
	const char *p = arg;

	if (strcmp(arg, "default") == 0) {
		out->translation = ANIMC_TOLERANCE_TRANSLATION;
		out->rotation_deg = ANIMC_TOLERANCE_ROTATION_DEG;
		out->scale = ANIMC_TOLERANCE_SCALE;
		return true;
	}
	for (int i = 0; i < 3; i++) {
		char *end;

		v[i] = strtod(p, &end);
		if (end == p || !isfinite(v[i]) || v[i] < 0 || v[i] > 1e30 || *end != (i < 2 ? ',' : '\0'))
			return false;
		p = end + 1;
	}
	out->translation = (float)v[0];
	out->rotation_deg = (float)v[1];
	out->scale = (float)v[2];
	return true;
}

void cli_format_clip_error(const animc_clip_error *e, char *buf, size_t size)
{
	int n = snprintf(buf, size, "error: translation %.3g, rotation %.3g deg, scale %.3g", e->translation,
			 e->rotation_deg, e->scale);

	if (n >= 0 && (size_t)n < size && e->shell > 0)
		n += snprintf(buf + n, size - (size_t)n, ", shell %.3g", e->shell);
	if (n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, " (keys %llu -> %llu)", (unsigned long long)e->keys_before,
			 (unsigned long long)e->keys_after);
}
