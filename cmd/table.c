/*
 * table.c - numbers and nouns for the commands' tables (table.h).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "table.h"

void table_format_value(float value, int digits, int width, char *buf, size_t size)
{
	char shortest[32];

	if (value == 0) {
		snprintf(buf, size, "0");
		return;
	}
	cli_format_float(value, shortest, sizeof shortest);
	snprintf(buf, size, "%s", shortest);
	if (digits > 0)
		snprintf(buf, size, "%.*g", digits, (double)value);
	if (digits <= 0 || strlen(buf) > strlen(shortest))
		snprintf(buf, size, "%s", shortest);
	/* Fewer digits until it fits; a nonzero value never rounds to "-0". */
	for (int d = digits > 0 ? digits - 1 : 8; d >= 1 && (int)strlen(buf) > width; d--)
		snprintf(buf, size, "%.*g", d, (double)value);
}

const char *table_noun(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

size_t table_name_width(size_t width, const char *name)
{
	size_t len = cli_escaped_columns(name);

	return len > width ? len : width;
}
