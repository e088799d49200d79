/*
 * b3d.c - a Blitz3D (.b3d) file's NODE and KEYS chunks read from its own
 * bytes before Assimp reads it (see b3d.h).
 */
#include <string.h>

#include "b3d.h"

/* Nodes deeper than this are not looked at (Assimp's reader recurses). */
#define B3D_DEPTH 1024
/* The key types of a KEYS chunk's flags, in their bits' order. */
#define B3D_KEY_TYPES 3

typedef struct b3d_reader {
	const uint8_t *data;
	size_t size;
	animc_diag_sink *sink;
} b3d_reader;

static uint32_t read_u32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The chunk at `pos` within `end`: its tag and the end of its body;
 * false when its header or body does not fit. */
static bool chunk_at(const b3d_reader *r, size_t pos, size_t end, const char **tag, size_t *body_end)
{
	uint32_t length;

	if (end < 8 || pos > end - 8)
		return false;
	length = read_u32(r->data + pos + 4);
	if (length > end - pos - 8)
		return false;
	*tag = (const char *)r->data + pos;
	*body_end = pos + 8 + length;
	return true;
}

/* The KEYS chunk at `pos` of the node `name` (NUL-terminated in the
 * file), whose earlier KEYS chunks are `first[type]` (0: none): false
 * and an error when it keys a type an earlier one did. */
static bool take_keys(const b3d_reader *r, size_t pos, size_t body_end, const char *name, size_t first[])
{
	static const char *const types[B3D_KEY_TYPES] = { "position", "scale", "rotation" };
	uint32_t flags;

	if (body_end - pos < 12)
		return true;
	flags = read_u32(r->data + pos + 8);
	for (unsigned type = 0; type < B3D_KEY_TYPES; type++) {
		if (!(flags & 1u << type))
			continue;
		if (first[type]) {
			animc_diag_report(r->sink, ANIMC_ERROR, 0, 0,
					  "node '%s' holds %s keys in two KEYS chunks (at bytes %zu and %zu): Assimp "
					  "keeps the last chunk's keys only, and the bone would lose the others: "
					  "write each key type of a node in one KEYS chunk", name, types[type],
					  first[type], pos);
			return false;
		}
		first[type] = pos;
	}
	return true;
}

static bool walk_node(const b3d_reader *r, size_t pos, size_t end, unsigned depth);

/* The chunks of a node's body, `pos` to `end` (past its name and
 * transform); false once one fails. */
static bool walk_children(const b3d_reader *r, size_t pos, size_t end, const char *name, unsigned depth)
{
	size_t first[B3D_KEY_TYPES] = { 0 }, body_end;
	const char *tag;

	while (pos < end && chunk_at(r, pos, end, &tag, &body_end)) {
		if (memcmp(tag, "KEYS", 4) == 0 && !take_keys(r, pos, body_end, name, first))
			return false;
		if (memcmp(tag, "NODE", 4) == 0 && !walk_node(r, pos + 8, body_end, depth + 1))
			return false;
		pos = body_end;
	}
	return true;
}

/* A NODE's body, `pos` to `end`: its name, its transform (10 floats),
 * then its chunks. */
static bool walk_node(const b3d_reader *r, size_t pos, size_t end, unsigned depth)
{
	const uint8_t *nul = memchr(r->data + pos, '\0', end - pos);
	size_t body;

	if (depth > B3D_DEPTH || !nul)
		return true;
	body = (size_t)(nul - r->data) + 1 + 40;
	if (body > end)
		return true;
	return walk_children(r, body, end, (const char *)r->data + pos, depth);
}

bool animc_b3d_check(const uint8_t *data, size_t size, animc_diag_sink *sink)
{
	b3d_reader r = { data, size, sink };
	size_t file_end, chunk_end;
	const char *tag;

	if (!data || !chunk_at(&r, 0, size, &tag, &file_end) || memcmp(tag, "BB3D", 4) != 0 || file_end < 12)
		return true;
	/* Past the BB3D header and its version. */
	for (size_t pos = 12; pos < file_end && chunk_at(&r, pos, file_end, &tag, &chunk_end); pos = chunk_end)
		if (memcmp(tag, "NODE", 4) == 0 && !walk_node(&r, pos + 8, chunk_end, 0))
			return false;
	return true;
}
