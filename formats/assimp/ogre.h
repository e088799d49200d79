/*
 * ogre.h - what the Assimp importer mends of an Ogre mesh's skeleton
 * animation, where Assimp 5.2 reads it wrongly.  Internal to
 * formats/assimp/.
 */
#ifndef ANIMC_FORMATS_ASSIMP_OGRE_H
#define ANIMC_FORMATS_ASSIMP_OGRE_H

#include <stddef.h>
#include <stdint.h>

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

/*
 * Make the rotation and scale keys of `scene` (Assimp's reading of the
 * Ogre .mesh.xml at `path`, its bytes `data`) Ogre's, from the XML
 * skeleton the mesh links (read here from the mesh's folder, as Assimp
 * read it).  Ogre turns a bone's binding orientation by a keyframe's
 * rotate and multiplies its binding scale by the keyframe's scale, axis by
 * axis (Node::rotate, Node::scale); Assimp builds each keyframe's matrix
 * scale after turn (aiMatrix4x4(scaling, rotation, position) scales its
 * rows) and splits bind x key, so a key of unequal scales and a turn that
 * mixes their axes came out sheared: other scales and a rotation that is
 * none.  Each channel with a key Assimp gives otherwise gets bind x rotate
 * and bind scale x scale at every key.  A mesh read from memory, a binary
 * skeleton, and a track whose keyframes are not the channel's keys one for
 * one are left as they are.
 */
void animc_ogre_mend_turns(const char *path, const uint8_t *data, size_t size, const struct aiScene *scene);

#endif
