/*
 * text.c - UTF-16 to UTF-8, for the sources and projects Visual Studio saves
 * as "Unicode".
 */
#include <animc/animc.h>

size_t animc_utf8_put(uint8_t *out, uint32_t c)
{
	if (c < 0x80) {
		out[0] = (uint8_t)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (uint8_t)(0xC0 | c >> 6);
		out[1] = (uint8_t)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (uint8_t)(0xE0 | c >> 12);
		out[1] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
		out[2] = (uint8_t)(0x80 | (c & 0x3F));
		return 3;
	}
	out[0] = (uint8_t)(0xF0 | c >> 18);
	out[1] = (uint8_t)(0x80 | (c >> 12 & 0x3F));
	out[2] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
	out[3] = (uint8_t)(0x80 | (c & 0x3F));
	return 4;
}

static uint32_t unit_at(const uint8_t *u, bool is_big_endian)
{
	return is_big_endian ? (uint32_t)(u[0] << 8 | u[1]) : (uint32_t)(u[0] | u[1] << 8);
}

size_t animc_utf16_to_utf8(const uint8_t *data, size_t size, bool is_big_endian, uint8_t *out)
{
	size_t units = size / 2, n = 0;

	for (size_t i = 0; i < units; i++) {
		uint32_t c = unit_at(data + 2 * i, is_big_endian);

		if (c >= 0xD800 && c < 0xDC00) {
			uint32_t low;

			if (i + 1 == units)
				break;   /* a pair cut by the end */
			low = unit_at(data + 2 * (i + 1), is_big_endian);
			if (low >= 0xDC00 && low < 0xE000) {
				c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
				i++;
			} else {
				c = 0xFFFD;
			}
		} else if (c >= 0xDC00 && c < 0xE000) {
			c = 0xFFFD;
		}
		/* At most 3 bytes a unit: a pair of 2 units makes 4. */
		n += animc_utf8_put(out + n, c);
	}
	return n;
}
