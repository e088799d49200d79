/*
 * importers.c - the importer table and how an input finds its importer:
 * content first (root element, magic bytes), the file name second.
 */
#include <string.h>

#include <animc/animc_formats.h>

const animc_importer *const animc_importers[] = {
	&animc_importer_robotgame,
	&animc_importer_xna,
	&animc_importer_assimp,
	NULL,
};

const animc_importer *animc_importer_find(const char *path, const uint8_t *head, size_t head_size)
{
	const animc_importer *best = NULL;
	animc_probe best_score = ANIMC_PROBE_NO;

	for (size_t i = 0; animc_importers[i]; i++) {
		animc_probe score = animc_importers[i]->probe(path, head, head_size);

		if (score > best_score) {
			best = animc_importers[i];
			best_score = score;
		}
	}
	return best;
}

const animc_importer *animc_importer_by_name(const char *name)
{
	for (size_t i = 0; animc_importers[i]; i++)
		if (strcmp(animc_importers[i]->name, name) == 0)
			return animc_importers[i];
	return NULL;
}
