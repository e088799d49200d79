/*
 * fbx_doc.h - what animc reads of an FBX file's bytes itself, ASCII or
 * binary alike, where Assimp 5.2.5 drops or misreads it: the Properties70
 * values of each Model, the AnimationStack and AnimationLayer objects, the
 * curve nodes and curves of their layers (with each key's interpolation),
 * and the connections between them.
 * Nothing of Assimp: the importer compares this with Assimp's scene.
 */
#ifndef ANIMC_FORMATS_FBX_DOC_H
#define ANIMC_FORMATS_FBX_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FBX_NONE UINT32_MAX
#define FBX_NAME_BYTES 256
#define FBX_DAMAGE_BYTES 160

/* A Model: a bone or other node.  Vectors are the file's, in degrees for
 * rotations: each property the model's own, else its PropertyTemplate's
 * (Definitions), else FBX's default. */
typedef struct fbx_model {
	int64_t id;
	char name[FBX_NAME_BYTES];   /* without "Model::" */
	uint32_t parent;             /* index of the parent model, or FBX_NONE */
	double translation[3], rotation[3], scaling[3];   /* Lcl ... */
	double pre_rotation[3], post_rotation[3];
	int rotation_order;          /* 0 XYZ ... 5 ZYX, 6 SphericXYZ */
	bool is_rotation_active;     /* false: RotationActive is 0, and the FBX SDK ignores the
				      * pre- and post-rotation and the rotation order (XYZ);
				      * true when the file gives none (readers differ there:
				      * they apply, as Assimp always applies them) */
	int inherit_type;            /* 0 RrSs, 1 RSrs, 2 Rrs */
	char pivot[32];              /* the first of RotationOffset, RotationPivot, ScalingOffset,
				      * ScalingPivot, Geometric{Translation,Rotation,Scaling}
				      * not at its identity, or "" */
} fbx_model;

typedef struct fbx_stack {
	int64_t id;
	char name[FBX_NAME_BYTES];   /* without "AnimStack::" */
	double local_start, local_stop;   /* KTime (the stack's, else its PropertyTemplate's);
					   * both 0 when the file gives none */
} fbx_stack;

typedef struct fbx_layer {
	int64_t id;
	char name[FBX_NAME_BYTES];
	uint32_t stack;              /* FBX_NONE when connected to none */
} fbx_layer;

/* An AnimationCurveNode: the curves of one property of one model, in one
 * layer. */
typedef struct fbx_curve_node {
	int64_t id;
	uint32_t layer, model;       /* FBX_NONE when connected to none */
	char property[32];           /* "Lcl Translation", ... */
} fbx_curve_node;

/* A key's interpolation up to the next key, of fbx_curve.steps. */
enum {
	FBX_LINEAR = 0,          /* linear, or cubic (read as linear) */
	FBX_CONSTANT = 1,        /* the key's value held up to the next key */
	FBX_CONSTANT_NEXT = 2,   /* the next key's value from just after the key */
};

typedef struct fbx_curve {
	int64_t id;
	uint32_t node;               /* its curve node, or FBX_NONE */
	int axis;                    /* 0, 1, 2 for d|X, d|Y, d|Z; -1 else */
	uint32_t key_count;
	double *times;               /* KTime (46186158000 a second) */
	double *values;
	bool is_read;                /* false: its arrays are missing or damaged */
	char damage[FBX_DAMAGE_BYTES];   /* how its key array is damaged ("its KeyTime array
					  * (at byte 120) declares 3 values, but ..."), or "" */
	bool is_sorted;              /* its key times in order (none repeated out of it) */
	bool has_constant;           /* its KeyAttrFlags hold constant interpolation */
	uint8_t *steps;              /* by key, FBX_LINEAR ...; NULL when no key is constant, or
				      * when the flags do not cover its keys one for one (or the
				      * keys are unread or out of order) */
	uint32_t flags_line;         /* of its KeyAttrFlags, in an ASCII file; else 0 */
	uint32_t line;               /* of its object, in an ASCII file; else 0 */
	uint32_t values_line;        /* where its values start, in an ASCII file; else 0 */
} fbx_curve;

typedef struct fbx_doc {
	fbx_model *models;
	fbx_stack *stacks;
	fbx_layer *layers;
	fbx_curve_node *nodes;
	fbx_curve *curves;
	uint32_t model_count, stack_count, layer_count, node_count, curve_count;
} fbx_doc;

/* KTime units a second. */
#define FBX_KTIME_PER_SECOND 46186158000.0

/* Read `data` (ASCII or binary FBX).  False when it is neither, is cut
 * short, or memory ran out; `doc` is then empty.  A binary key array that
 * is damaged (its data holds, or inflates to, other than the values it
 * declares) leaves its curve unread, with `damage` saying how.  Release
 * with animc_fbx_doc_release (also after a failure). */
bool animc_fbx_doc_read(const uint8_t *data, size_t size, fbx_doc *doc);
void animc_fbx_doc_release(fbx_doc *doc);

/* The model named `name`, or NULL. */
const fbx_model *animc_fbx_doc_model(const fbx_doc *doc, const char *name);
/* The stack named `name`, or NULL. */
const fbx_stack *animc_fbx_doc_stack(const fbx_doc *doc, const char *name);
/* The value of a curve at KTime `t` as Assimp reads it: linear between
 * keys (their interpolation not read), held beyond them; keys outside
 * [from, to] left out (as Assimp leaves them out), but for the first when
 * `keeps_first`.  False when no key is left. */
bool animc_fbx_curve_value(const fbx_curve *c, double t, double from, double to, bool keeps_first, double *value);
/* The value of a curve at KTime `t` as the file keys it, every key read:
 * a constant key's value held (FBX_CONSTANT, FBX_CONSTANT_NEXT), else
 * linear between keys, held beyond them.  `side` < 0 gives the value just
 * before `t`, > 0 just after it (where a held value changes), 0 at it.
 * False when the curve has no key read. */
bool animc_fbx_curve_exact(const fbx_curve *c, double t, int side, double *value);
/* The quaternion (w x y z) of Euler angles in degrees, in FBX rotation
 * order `order` (0 XYZ: X turned first). */
void animc_fbx_euler_quat(const double deg[3], int order, double q[4]);
/* The Hamilton product a * b of quaternions w x y z (`out` may be either). */
void animc_fbx_quat_mul(const double a[4], const double b[4], double out[4]);

#endif
