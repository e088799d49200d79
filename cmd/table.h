/*
 * table.h - what the commands' tables share: numbers that fit their column
 * and counts with the right noun.  The JSON views print exact floats
 * (json_float) and do not use these.
 */
#ifndef ANIMC_CMD_TABLE_H
#define ANIMC_CMD_TABLE_H

#include <stddef.h>
#include <stdint.h>

/*
 * `value` as text of at most `width` characters (width >= 7): the shortest
 * text that reads back as the same float, rounded to `digits` significant
 * digits when that has more (0: no such limit), and to fewer while it does
 * not fit.  Zero of either sign is "0": a person reading a table has no use
 * for "-0".
 */
void table_format_value(float value, int digits, int width, char *buf, size_t size);

/* `one` when n is 1, else `many`: "1 bone", "2 bones". */
const char *table_noun(uint64_t n, const char *one, const char *many);

/* The width of a name column that has held names up to `width` bytes wide
 * once it also holds `name`, as cli_print_escaped prints it. */
size_t table_name_width(size_t width, const char *name);

#endif
