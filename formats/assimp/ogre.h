/*
 * ogre.h - what the Assimp importer mends of an Ogre mesh's skeleton
 * animation, where Assimp 5.2 reads it wrongly.  Internal to
 * formats/assimp/.
 */
#ifndef ANIMC_FORMATS_ASSIMP_OGRE_H
#define ANIMC_FORMATS_ASSIMP_OGRE_H

#include <assimp/scene.h>

/*
 * Put the position keys of `scene` (Assimp's reading of an Ogre .mesh.xml
 * or .mesh and its skeleton) where Ogre plays them.  Ogre adds a
 * keyframe's translate to the bone's binding position in the parent's
 * space (Node::translate, TS_PARENT) and turns the binding orientation by
 * its rotate; Assimp composes the binding pose with the keyframe as
 * matrices, bind x key, so each translate came out turned and scaled by
 * the bone's binding orientation and scale: bind + R S key.  Each key is
 * made bind + key again from that (the bone's node holds the binding
 * pose).  A channel whose node is not found, or whose binding pose does
 * not invert, is left as it is.
 */
void animc_ogre_unturn_position_keys(const struct aiScene *scene);

#endif
