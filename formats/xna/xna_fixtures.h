/*
 * xna_fixtures.h - small IntermediateSerializer documents spelled as C string
 * macros, for the importer's tests and its command-line tests.
 */
#ifndef ANIMC_XNA_FIXTURES_H
#define ANIMC_XNA_FIXTURES_H

#define XML "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
#define AD_OPEN XML "<XnaContent>\n<Asset Type=\"AnimationClassLibrary.AnimationData\">\n<AnimationClips>\n"
#define AD_CLOSE "</AnimationClips>\n</Asset>\n</XnaContent>\n"
#define CLIP(name, duration, keys) \
	"<Item><Key>" name "</Key><Value><Duration>" duration "</Duration><Keyframes>\n" keys \
	"</Keyframes></Value></Item>\n"
#define KEY(bone, time, pos, rot, scale)                                                         \
	"<Item><BoneIndex>" #bone "</BoneIndex><Time>" time "</Time><Position>" pos "</Position>" \
	"<Rotation>" rot "</Rotation><Scale>" scale "</Scale></Item>\n"
#define SK_OPEN XML "<XnaContent>\n<Asset Type=\"SkinnedModel.SkinningData\">\n<AnimationClips>\n"
#define MKEY(bone, time, matrix) \
	"<Item><Bone>" #bone "</Bone><Time>" time "</Time><Transform>" matrix "</Transform></Item>\n"
#define IDENTITY "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1"

#endif
