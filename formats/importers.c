/*
 * importers.c - the importer table and how an input finds its importer:
 * content first (root element, magic bytes), the file name second; and
 * which importer reads a model's node tree for --skeleton.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <animc/animc_formats.h>

#include "xml/xml.h"
#include "xnb/compress.h"

/* formats/assimp/assimp_api.c and formats/gltf/gltf_doc.c (their headers
 * bring in Assimp's and jansson's). */
const char *animc_assimp_version(void);
const char *animc_gltf_jansson_version(void);
/* formats/assimp/assimp_skeleton.c */
animc_status animc_assimp_skeleton_read_bytes(const char *path, const uint8_t *data, size_t size,
					      const animc_import_options *hooks, animc_skeleton *out,
					      animc_diag_sink *sink);

const animc_importer *const animc_importers[] = {
	&animc_importer_robotgame,
	&animc_importer_xna,
	/* Before Assimp, which also claims glTF: ties go to the earlier. */
	&animc_importer_gltf,
	&animc_importer_assimp,
	NULL,
};

size_t animc_probe_head_wanted(const uint8_t *head, size_t size)
{
	if (size < ANIMC_PROBE_HEAD_BYTES)
		return ANIMC_PROBE_HEAD_BYTES;
	if (size >= ANIMC_PROBE_HEAD_MAX_BYTES || !animc_xml_root_is_cut(head, size))
		return size;
	return size < ANIMC_PROBE_HEAD_MAX_BYTES / 2 ? 2 * size : ANIMC_PROBE_HEAD_MAX_BYTES;
}

bool animc_probe_head_read(int fd, uint8_t **head, size_t *size)
{
	size_t want = ANIMC_PROBE_HEAD_BYTES;

	*head = NULL;
	*size = 0;
	for (;;) {
		uint8_t *grown = realloc(*head, want);

		if (!grown) {
			free(*head);
			*head = NULL;
			errno = ENOMEM;
			return false;
		}
		*head = grown;
		while (*size < want) {
			ssize_t n = read(fd, *head + *size, want - *size);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				int error = errno;

				free(*head);
				*head = NULL;
				errno = error;
				return false;
			}
			if (n == 0)
				return true;   /* the whole file */
			*size += (size_t)n;
		}
		want = animc_probe_head_wanted(*head, *size);
		if (want <= *size)
			return true;
	}
}

/* The probe head of a file whose first `size` bytes (the whole file, or
 * its probe head) are at hand. */
static size_t probe_head_size(const uint8_t *data, size_t size)
{
	size_t n = size < ANIMC_PROBE_HEAD_BYTES ? size : ANIMC_PROBE_HEAD_BYTES;
	size_t want;

	while (n < size && (want = animc_probe_head_wanted(data, n)) > n)
		n = want < size ? want : size;
	return n;
}

const animc_importer *animc_importer_find(const char *path, const uint8_t *head, size_t head_size)
{
	const animc_importer *best = NULL;
	animc_probe best_score = ANIMC_PROBE_NO;

	head_size = probe_head_size(head, head_size);

	for (size_t i = 0; animc_importers[i]; i++) {
		animc_probe score = animc_importers[i]->probe(path, head, head_size);

		if (score > best_score) {
			best = animc_importers[i];
			best_score = score;
		}
		/* Nothing beats the first content match (ties go to the table
		 * order), and the later probes may be costly: Assimp's loads
		 * Assimp. */
		if (best_score == ANIMC_PROBE_CONTENT)
			break;
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

animc_status animc_skeleton_load(const char *path, animc_skeleton *out, animc_diag_sink *sink)
{
	return animc_skeleton_load_reading(path, NULL, out, sink);
}

/* The node tree of the model at `path` by `importer` (NULL: none claims
 * it), from its bytes `data` when not NULL. */
static animc_status load_skeleton_by(const animc_importer *importer, const char *path, const uint8_t *data,
				     size_t size, const animc_import_options *hooks, animc_skeleton *out,
				     animc_diag_sink *sink)
{
	animc_status status;

	/* A model no probe claims (or an unreadable path) goes to Assimp,
	 * which reads the most model formats and says what is wrong. */
	if (!importer || !importer->load_skeleton)
		importer = &animc_importer_assimp;
	if (importer == &animc_importer_assimp)
		status = animc_assimp_skeleton_read_bytes(path, data, size, hooks, out, sink);
	else if (data && importer->load_skeleton_bytes)
		status = importer->load_skeleton_bytes(path, data, size, out, sink);
	else
		status = importer->load_skeleton(path, out, sink);
	if (status == ANIMC_OK && (status = animc_skeleton_index(out)) != ANIMC_OK)
		animc_diag_report(sink, ANIMC_ERROR, 0, 0, "out of memory");
	return status;
}

animc_status animc_skeleton_load_reading(const char *path, const animc_import_options *hooks, animc_skeleton *out,
					 animc_diag_sink *sink)
{
	uint8_t *head = NULL;
	const animc_importer *importer = NULL;
	size_t used = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	memset(out, 0, sizeof *out);
	if (fd >= 0) {
		if (animc_probe_head_read(fd, &head, &used))
			importer = animc_importer_find(path, head, used);
		close(fd);
		free(head);
	}
	return load_skeleton_by(importer, path, NULL, 0, hooks, out, sink);
}

animc_status animc_skeleton_load_bytes(const char *path, const uint8_t *data, size_t size,
				       const animc_import_options *hooks, animc_skeleton *out, animc_diag_sink *sink)
{
	memset(out, 0, sizeof *out);
	return load_skeleton_by(animc_importer_find(path, data, size), path, data, size, hooks, out, sink);
}

static char versions_line[160];
static pthread_once_t versions_once = PTHREAD_ONCE_INIT;

static void make_versions_line(void)
{
	snprintf(versions_line, sizeof versions_line, "libxml2 %s, assimp %s, jansson %s, zstd %s",
		 animc_xml_version(), animc_assimp_version(), animc_gltf_jansson_version(), animc_zstd_version());
}

/* Made once, whatever threads ask at once: two that found it empty both
 * wrote it while the other read it. */
const char *animc_formats_versions(void)
{
	pthread_once(&versions_once, make_versions_line);
	return versions_line;
}
