/*
 * xna_clips_test.c - the AnimationDefinition sidecar reader: any namespace,
 * every member, and each malformed document at its line.
 */
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include <animc/animc_formats.h>

static animc_status parse(const char *doc, animc_split_doc *out, test_diags *diags)
{
	animc_diag_sink sink = test_diag_sink(diags, "Dude_Anims.xml");

	return animc_split_doc_parse("Dude_Anims.xml", (const uint8_t *)doc, strlen(doc), out, &sink);
}

static void reads_the_parts_in_any_namespace(void **state)
{
	static const char *const types[] = {
		"<XnaContent xmlns:P=\"SkinnedModelPipeline\"><Asset Type=\"P:AnimationDefinition\">",
		"<XnaContent><Asset Type=\"SkinnedModelPipeline.AnimationDefinition\">",
		"<XnaContent><Asset Type=\"MyGame.Content.AnimationDefinition\">",
	};

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		char *doc = test_format("%s\n<originalClipName> Take 001 </originalClipName>\n"
					"<originalFrameCount>150</originalFrameCount>\n<ClipParts>\n"
					"<Item><ClipName>Idle</ClipName><StartFrame>5</StartFrame><EndFrame>19</EndFrame></Item>\n"
					"<Item><ClipName>Run</ClipName><StartFrame>40</StartFrame><EndFrame>85</EndFrame></Item>\n"
					"</ClipParts></Asset></XnaContent>", types[i]);
		animc_split_doc d;
		test_diags diags = { 0 };

		assert_true(animc_split_doc_probe((const uint8_t *)doc, strlen(doc)));
		/* Saved as UTF-16, either byte order. */
		for (int big_endian = 0; big_endian < 2; big_endian++) {
			size_t u16_size;
			uint8_t *u16 = test_utf16(doc, strlen(doc), big_endian, true, &u16_size);

			assert_true(animc_split_doc_probe(u16, u16_size));
			free(u16);
		}
		assert_int_equal(parse(doc, &d, &diags), ANIMC_OK);
		assert_string_equal(d.split.take, "Take 001");
		assert_int_equal(d.split.take_line, 2);
		assert_true(d.split.frame_count == 150);
		assert_int_equal(d.split.part_count, 2);
		assert_string_equal(d.split.parts[1].name, "Run");
		assert_true(d.split.parts[1].start.is_frame && d.split.parts[1].start.value == 40);
		assert_true(d.split.parts[1].end.value == 85);
		assert_int_equal(d.split.parts[1].line, 6);
		assert_string_equal(d.split.path, "Dude_Anims.xml");
		animc_split_doc_release(&d);
		test_diags_release(&diags);
		free(doc);
	}
	/* Other XnaContent is no sidecar. */
	assert_false(animc_split_doc_probe((const uint8_t *)"<XnaContent><Asset Type=\"A.AnimationData\">", 43));
	assert_false(animc_split_doc_probe((const uint8_t *)"<XnaContent><Asset Type=\"A.MyAnimationDefinition\">",
					   50));
	{
		static const char other[] = "<?xml version=\"1.0\"?><XnaContent><Asset Type=\"A.AnimationData\">";
		size_t u16_size;
		uint8_t *u16 = test_utf16(other, sizeof other - 1, false, false, &u16_size);

		assert_false(animc_split_doc_probe(u16, u16_size));
		free(u16);
	}
}

static void malformed_documents_fail_at_their_line(void **state)
{
	static const struct { const char *doc; uint32_t line; } cases[] = {
		{ "<Root/>", 1 },
		{ "<XnaContent>\n<Asset Type=\"A.AnimationData\"/></XnaContent>", 2 },
		{ "<XnaContent>\n<Asset Type=\"P.AnimationDefinition\">\n<originalFrameCount>x</originalFrameCount>"
		  "</Asset></XnaContent>", 3 },
		{ "<XnaContent>\n<Asset Type=\"P.AnimationDefinition\">\n<originalFrameCount>0</originalFrameCount>"
		  "</Asset></XnaContent>", 3 },
		{ "<XnaContent>\n<Asset Type=\"P.AnimationDefinition\">\n<originalClipName>T</originalClipName>\n"
		  "<originalFrameCount>3</originalFrameCount>\n<ClipParts>\n<Item><ClipName>A</ClipName>\n"
		  "<StartFrame>1</StartFrame></Item></ClipParts></Asset></XnaContent>", 6 },
		{ "<XnaContent>\n<Asset Type=\"P.AnimationDefinition\">\n<originalClipName>T</originalClipName>\n"
		  "<Speed>2</Speed></Asset></XnaContent>", 4 },
		{ "<XnaContent>\n<Asset Type=\"P.AnimationDefinition\">\n<originalClipName>T</originalClipName>\n"
		  "</Asset></XnaContent>", 0 },   /* no originalFrameCount */
		{ "<XnaContent>\n<Asset Type=\"P.AnimationDefinition\">\n<originalClipName>T</originalClipName>\n"
		  "<originalFrameCount>3</originalFrameCount>\n<ClipParts>\n<Item><ClipName>A</ClipName>"
		  "<StartFrame>-1</StartFrame><EndFrame>2</EndFrame></Item></ClipParts></Asset></XnaContent>", 6 },
		{ "<XnaContent>\n<Asset Type=\"P.AnimationDefinition\">\n<originalClipName>T</oops>", 3 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		animc_split_doc d;
		test_diags diags = { 0 };
		animc_status status = parse(cases[i].doc, &d, &diags);

		if (status == ANIMC_OK || !diags.count)
			fail_msg("case %zu: status %d, %zu diagnostics", i, status, diags.count);
		if (cases[i].line && diags.items[0].line != cases[i].line)
			fail_msg("case %zu: line %u, not %u: %s", i, diags.items[0].line, cases[i].line,
				 diags.items[0].message);
		assert_int_equal(d.split.part_count, 0);
		assert_null(d.parts);
		test_diags_release(&diags);
	}
}

/* An element nested in a member names that member as its parent: each was
 * said to be inside <ClipName> (a part's member) or in <ClipParts> (the
 * Asset's), whatever held it.  <EndFrame>9<EndFrame>, a slash left out,
 * is the commonest. */
static void a_nested_element_names_its_parent(void **state)
{
	static const struct { const char *asset, *item, *want; } cases[] = {
		{ "<originalFrameCount>3</originalFrameCount>", "<EndFrame><B>1</B></EndFrame>",
		  "unexpected <B> inside <EndFrame>" },
		{ "<originalFrameCount>3</originalFrameCount>", "<EndFrame>1<EndFrame></EndFrame></EndFrame>",
		  "unexpected <EndFrame> inside <EndFrame>" },
		{ "<originalFrameCount>3</originalFrameCount>", "<StartFrame>0<X/></StartFrame><EndFrame>1</EndFrame>",
		  "unexpected <X> inside <StartFrame>" },
		{ "<originalFrameCount>3<X/></originalFrameCount>", "<EndFrame>1</EndFrame>",
		  "unexpected <X> inside <originalFrameCount>" },
		{ "<originalFrameCount>3</originalFrameCount><originalClipName>T<Y/></originalClipName>",
		  "<EndFrame>1</EndFrame>", "unexpected <Y> inside <originalClipName>" },
		{ "<originalFrameCount>3</originalFrameCount>", "<EndFrame>1</EndFrame><ClipName>B<Z/></ClipName>",
		  "unexpected <Z> inside <ClipName>" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *doc = test_format("<XnaContent>\n<Asset Type=\"P.AnimationDefinition\">\n%s\n<ClipParts>\n"
					"<Item><ClipName>A</ClipName><StartFrame>0</StartFrame>\n%s</Item>\n"
					"</ClipParts></Asset></XnaContent>", cases[i].asset, cases[i].item);
		animc_split_doc d;
		test_diags diags = { 0 };

		assert_int_equal(parse(doc, &d, &diags), ANIMC_ERR_PARSE);
		assert_true(diags.count > 0);
		if (!strstr(diags.items[0].message, cases[i].want))
			fail_msg("case %zu: '%s', not '%s'", i, diags.items[0].message, cases[i].want);
		assert_int_equal(diags.items[0].line, strstr(cases[i].want, "original") ? 3 : 6);
		test_diags_release(&diags);
		free(doc);
	}
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(reads_the_parts_in_any_namespace),
	cmocka_unit_test(malformed_documents_fail_at_their_line),
	cmocka_unit_test(a_nested_element_names_its_parent),
};

ANIMC_TEST_GROUP(tests);
