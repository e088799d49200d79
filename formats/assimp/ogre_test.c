/*
 * ogre_test.c - Ogre meshes and their skeletons written here, through the
 * Assimp importer: position keys where Ogre plays them (ogre.c).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_test.h"

static const char mesh[] =
	"<mesh>\n <submeshes>\n  <submesh material=\"BaseWhite\" usesharedvertices=\"false\" use32bitindexes=\"false\" "
	"operationtype=\"triangle_list\">\n   <faces count=\"1\"><face v1=\"0\" v2=\"1\" v3=\"2\" /></faces>\n"
	"   <geometry vertexcount=\"3\">\n    <vertexbuffer positions=\"true\">\n"
	"     <vertex><position x=\"0\" y=\"0\" z=\"0\" /></vertex>\n"
	"     <vertex><position x=\"1\" y=\"0\" z=\"0\" /></vertex>\n"
	"     <vertex><position x=\"0\" y=\"1\" z=\"0\" /></vertex>\n    </vertexbuffer>\n   </geometry>\n"
	"   <boneassignments>\n    <vertexboneassignment vertexindex=\"0\" boneindex=\"1\" weight=\"1\" />\n"
	"    <vertexboneassignment vertexindex=\"1\" boneindex=\"1\" weight=\"1\" />\n"
	"    <vertexboneassignment vertexindex=\"2\" boneindex=\"1\" weight=\"1\" />\n   </boneassignments>\n"
	"  </submesh>\n </submeshes>\n <skeletonlink name=\"arm.skeleton\" />\n</mesh>\n";

/* Arm bound at (0 2 0), turned a quarter about Z and scaled by `scale`,
 * its keyframes translating it by 0 at 0 s and by (1 0 0) at 1 s. */
static const char skeleton[] =
	"<skeleton>\n <bones>\n"
	"  <bone id=\"0\" name=\"Root\"><position x=\"0\" y=\"0\" z=\"0\" />"
	"<rotation angle=\"0\"><axis x=\"1\" y=\"0\" z=\"0\" /></rotation></bone>\n"
	"  <bone id=\"1\" name=\"Arm\"><position x=\"0\" y=\"2\" z=\"0\" />"
	"<rotation angle=\"1.5707963\"><axis x=\"0\" y=\"0\" z=\"1\" /></rotation>"
	"<scale x=\"%g\" y=\"%g\" z=\"%g\" /></bone>\n </bones>\n"
	" <bonehierarchy><boneparent bone=\"Arm\" parent=\"Root\" /></bonehierarchy>\n"
	" <animations>\n  <animation name=\"Slide\" length=\"1\">\n   <tracks>\n    <track bone=\"Arm\">\n"
	"     <keyframes>\n"
	"      <keyframe time=\"0\"><translate x=\"0\" y=\"0\" z=\"0\" />"
	"<rotate angle=\"0\"><axis x=\"1\" y=\"0\" z=\"0\" /></rotate></keyframe>\n"
	"      <keyframe time=\"1\"><translate x=\"1\" y=\"0\" z=\"0\" />"
	"<rotate angle=\"0\"><axis x=\"1\" y=\"0\" z=\"0\" /></rotate></keyframe>\n"
	"     </keyframes>\n    </track>\n   </tracks>\n  </animation>\n </animations>\n</skeleton>\n";

/* The last translation key of bone `bone`. */
static const float *last_translation(const animc_clip *clip, const char *bone)
{
	for (uint32_t i = 0; i < clip->channel_count; i++) {
		const animc_track *t = &clip->channels[i].tracks[ANIMC_TRANSLATION];

		if (strcmp(clip->channels[i].bone, bone) == 0 && t->is_present && t->value_count >= 1)
			return &t->values[3 * (t->value_count - 1)];
	}
	fail_msg("no translation keys for %s", bone);
	return NULL;
}

/*
 * Ogre adds a keyframe's translate to the bone's binding position in the
 * parent's space and turns the binding orientation by its rotate; Assimp
 * composed the two as matrices, so Arm, bound at (0 2 0) a quarter turn
 * about Z, slid along Y to (0 3 0) where Ogre slides it along X to
 * (1 2 0), and with a binding scale of 2 to (0 4 0).  Its keys are put
 * back: (1 2 0) whatever the binding scale.
 */
static void ogre_translate_keys_are_in_the_parents_space(void **state)
{
	static const float scales[] = { 1, 2 };
	char *dir = test_tmpdir("ogre"), *mesh_path = test_format("%s/arm.mesh.xml", dir);
	char *skeleton_path = test_format("%s/arm.skeleton.xml", dir);

	(void)state;
	assert_true(test_write_file(mesh_path, mesh, strlen(mesh)));
	for (size_t i = 0; i < sizeof scales / sizeof scales[0]; i++) {
		char *text = test_format(skeleton, scales[i], scales[i], scales[i]);
		const float *key;
		assimp_import r;

		assert_true(test_write_file(skeleton_path, text, strlen(text)));
		assimp_import_path(&r, mesh_path, NULL);
		assert_int_equal(r.status, ANIMC_OK);
		assert_int_equal(r.set.count, 1);
		key = last_translation(r.set.clips[0], "Arm");
		assert_float_equal(key[0], 1, 1e-5);
		assert_float_equal(key[1], 2, 1e-5);
		assert_float_equal(key[2], 0, 1e-5);
		assimp_import_release(&r);
		free(text);
	}
	free(skeleton_path), free(mesh_path), free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(ogre_translate_keys_are_in_the_parents_space),
};

ANIMC_TEST_GROUP(tests);
