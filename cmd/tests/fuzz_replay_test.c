/*
 * fuzz_replay_test.c - replays the fuzz seeds (testdata/fuzz/<target>/), the
 * hostile inputs and the golden inputs through the fuzz targets, built as
 * plain functions, so `make test` runs them without a fuzzing engine.
 */
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

int animc_fuzz_robotgame(const uint8_t *data, size_t size);
int animc_fuzz_loader(const uint8_t *data, size_t size);
int animc_fuzz_xna(const uint8_t *data, size_t size);
int animc_fuzz_assimp(const uint8_t *data, size_t size);
int animc_fuzz_gltf(const uint8_t *data, size_t size);
int animc_fuzz_manifest(const uint8_t *data, size_t size);
int animc_fuzz_journal(const uint8_t *data, size_t size);
int animc_fuzz_action(const uint8_t *data, size_t size);
int animc_fuzz_mgcb(const uint8_t *data, size_t size);

static size_t replay(const char *dir, const char *suffix, int (*entry)(const uint8_t *, size_t))
{
	char **files = test_list_dir(dir, suffix);
	size_t n = 0;

	for (char **p = files; *p; p++, n++) {
		char *path = test_format("%s/%s", dir, *p);
		size_t size;
		uint8_t *data = test_read_file(path, &size);

		assert_int_equal(entry(data, size), 0);
		free(data);
		free(path);
	}
	test_free_list(files);
	return n;
}

static void robotgame_seeds(void **state)
{
	(void)state;
	assert_true(replay("testdata/fuzz/robotgame", NULL, animc_fuzz_robotgame) > 0);
	assert_true(replay("testdata/hostile", ".Animation", animc_fuzz_robotgame) > 0);
	assert_true(replay("testdata/golden", ".Animation", animc_fuzz_robotgame) > 0);
	assert_true(replay("testdata/sample/Crane", ".Animation", animc_fuzz_robotgame) > 0);
}

static void loader_seeds(void **state)
{
	(void)state;
	assert_true(replay("testdata/fuzz/loader", NULL, animc_fuzz_loader) > 0);
	assert_true(replay("testdata/loader", NULL, animc_fuzz_loader) > 0);
}

static void xna_seeds(void **state)
{
	(void)state;
	assert_true(replay("testdata/fuzz/xna", NULL, animc_fuzz_xna) > 0);
	assert_true(replay("testdata/golden", ".xml", animc_fuzz_xna) > 0);
	assert_true(replay("testdata/golden", ".Animation", animc_fuzz_xna) > 0);
	assert_true(replay("testdata/hostile", ".Animation", animc_fuzz_xna) > 0);
}

static void assimp_seeds(void **state)
{
	(void)state;
	assert_true(replay("testdata/fuzz/assimp", NULL, animc_fuzz_assimp) > 0);
	assert_true(replay("testdata/assimp", NULL, animc_fuzz_assimp) > 0);
}

static void gltf_seeds(void **state)
{
	(void)state;
	assert_true(replay("testdata/fuzz/gltf", NULL, animc_fuzz_gltf) > 0);
	assert_true(replay("testdata/gltf", ".gltf", animc_fuzz_gltf) > 0);
	assert_true(replay("testdata/gltf", ".glb", animc_fuzz_gltf) > 0);
	assert_true(replay("testdata/gltf/hostile", ".gltf", animc_fuzz_gltf) > 0);
	assert_true(replay("testdata/gltf/hostile", ".glb", animc_fuzz_gltf) > 0);
}

static void mgcb_seeds(void **state)
{
	(void)state;
	assert_true(replay("testdata/fuzz/mgcb", NULL, animc_fuzz_mgcb) > 0);
	assert_true(replay("testdata/mgcb", ".mgcb", animc_fuzz_mgcb) > 0);
	assert_true(replay("testdata/mgcb/include", ".mgcb", animc_fuzz_mgcb) > 0);
}

static void manifest_seeds(void **state)
{
	(void)state;
	assert_true(replay("testdata/fuzz/manifest", NULL, animc_fuzz_manifest) > 0);
}

static void journal_seeds(void **state)
{
	(void)state;
	assert_true(replay("testdata/fuzz/journal", NULL, animc_fuzz_journal) > 0);
}

static void action_seeds(void **state)
{
	(void)state;
	assert_true(replay("testdata/fuzz/action", NULL, animc_fuzz_action) > 0);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(robotgame_seeds),
	cmocka_unit_test(xna_seeds),
	cmocka_unit_test(loader_seeds),
	cmocka_unit_test(assimp_seeds),
	cmocka_unit_test(gltf_seeds),
	cmocka_unit_test(manifest_seeds),
	cmocka_unit_test(journal_seeds),
	cmocka_unit_test(mgcb_seeds),
	cmocka_unit_test(action_seeds),
};

ANIMC_TEST_GROUP(tests);
