/*
 * ogre_test.c - Ogre meshes and their skeletons written here, through the
 * Assimp importer: keys where Ogre plays them (ogre.c).
 */
#define _GNU_SOURCE
#include <math.h>
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

/* The last key of track `track` (`width` values a key) of bone `bone`. */
static const float *last_key(const animc_clip *clip, const char *bone, int track, uint32_t width)
{
	for (uint32_t i = 0; i < clip->channel_count; i++) {
		const animc_track *t = &clip->channels[i].tracks[track];

		if (strcmp(clip->channels[i].bone, bone) == 0 && t->is_present && t->value_count >= 1)
			return &t->values[width * (t->value_count - 1)];
	}
	fail_msg("no keys of track %d for %s", track, bone);
	return NULL;
}

static const float *last_translation(const animc_clip *clip, const char *bone)
{
	return last_key(clip, bone, ANIMC_TRANSLATION, 3);
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

/* Arm bound as above (scale 1), its keyframe at 1 s turning it 0.7 rad
 * about X and scaling it by 2 1 0.5. */
static const char scaled_skeleton[] =
	"<skeleton>\n <bones>\n"
	"  <bone id=\"0\" name=\"Root\"><position x=\"0\" y=\"0\" z=\"0\" />"
	"<rotation angle=\"0\"><axis x=\"1\" y=\"0\" z=\"0\" /></rotation></bone>\n"
	"  <bone id=\"1\" name=\"Arm\"><position x=\"0\" y=\"2\" z=\"0\" />"
	"<rotation angle=\"1.5707963\"><axis x=\"0\" y=\"0\" z=\"1\" /></rotation></bone>\n </bones>\n"
	" <bonehierarchy><boneparent bone=\"Arm\" parent=\"Root\" /></bonehierarchy>\n"
	" <animations>\n  <animation name=\"Slide\" length=\"1\">\n   <tracks>\n    <track bone=\"Arm\">\n"
	"     <keyframes>\n"
	"      <keyframe time=\"0\"><translate x=\"0\" y=\"0\" z=\"0\" />"
	"<rotate angle=\"0\"><axis x=\"1\" y=\"0\" z=\"0\" /></rotate></keyframe>\n"
	"      <keyframe time=\"1\"><translate x=\"0\" y=\"0\" z=\"0\" />"
	"<rotate angle=\"0.7\"><axis x=\"1\" y=\"0\" z=\"0\" /></rotate>"
	"<scale x=\"2\" y=\"1\" z=\"0.5\" /></keyframe>\n"
	"     </keyframes>\n    </track>\n   </tracks>\n  </animation>\n </animations>\n</skeleton>\n";

/*
 * Ogre turns the binding orientation by a keyframe's rotate and multiplies
 * the binding scale by its scale, axis by axis; Assimp built the keyframe's
 * matrix scale after turn and split bind x key, so Arm's key (a turn of
 * 0.7 rad about X, scales 2 1 0.5) came out sheared: scales 2 0.83 0.75
 * and a turn off by 0.12 rad, with a warning blaming the exporter's
 * quaternions.  The key is Ogre's: scales 2 1 0.5, the turn Rz(90) Rx(0.7).
 */
static void ogre_scale_keys_do_not_shear(void **state)
{
	char *dir = test_tmpdir("ogre-scale"), *mesh_path = test_format("%s/arm.mesh.xml", dir);
	char *skeleton_path = test_format("%s/arm.skeleton.xml", dir);
	const double c = cos(0.35), s = sin(0.35), h = sqrt(0.5);
	/* Rz(90) x Rx(0.7), x y z w. */
	const double turn[4] = { h * s, h * s, h * c, h * c };
	double dot = 0;
	const float *scale, *rotation;
	assimp_import r;

	(void)state;
	assert_true(test_write_file(mesh_path, mesh, strlen(mesh)));
	assert_true(test_write_file(skeleton_path, scaled_skeleton, strlen(scaled_skeleton)));
	assimp_import_path(&r, mesh_path, NULL);
	assert_int_equal(r.status, ANIMC_OK);
	assert_int_equal(test_diags_count(&r.diags, ANIMC_ERROR), 0);
	for (size_t i = 0; i < r.diags.count; i++)
		if (r.diags.items[i].kind && strcmp(r.diags.items[i].kind, "not-unit-quaternion") == 0)
			fail_msg("%s", r.diags.items[i].message);
	scale = last_key(r.set.clips[0], "Arm", ANIMC_SCALE, 3);
	rotation = last_key(r.set.clips[0], "Arm", ANIMC_ROTATION, 4);
	assert_float_equal(scale[0], 2, 1e-5);
	assert_float_equal(scale[1], 1, 1e-5);
	assert_float_equal(scale[2], 0.5, 1e-5);
	for (int i = 0; i < 4; i++)
		dot += rotation[i] * turn[i];
	assert_float_equal(fabs(dot), 1, 1e-6);
	assimp_import_release(&r);
	free(skeleton_path), free(mesh_path), free(dir);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(ogre_translate_keys_are_in_the_parents_space),
	cmocka_unit_test(ogre_scale_keys_do_not_shear),
};

ANIMC_TEST_GROUP(tests);
