/*
 * lws.h - what the Assimp importer reads of a LightWave scene's (.lws) own
 * bytes, where Assimp 5.2.5's reader keeps less than the file says.
 * Internal to formats/assimp/.
 */
#ifndef ANIMC_FORMATS_ASSIMP_LWS_H
#define ANIMC_FORMATS_ASSIMP_LWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <animc/animc.h>

/*
 * Say, as a stepped-keys warning at the first one's line, the envelope
 * keys of the scene `data` whose span is stepped (`Key VALUE TIME 4 ...`,
 * after an envelope's first key): Assimp keeps key times and values only,
 * so the output moves toward such a key from the one before, where
 * LightWave holds the earlier value up to it.
 */
void animc_lws_say_stepped(const uint8_t *data, size_t size, animc_diag_sink *sink);

/*
 * Check the motions of the scene `data` against the keys Assimp 5.2 makes
 * of them (lws_envelopes.c): where the three envelopes of a position,
 * rotation or scale are keyed at different times, its reader loses keys
 * and runs values on past them.  An envelope it reads wrongly is an error
 * at its `Channel` line (the first such; false then), every span read as
 * linear as the importer reads them.  A rotation read right whose keys,
 * slerped, leave the heading, pitch and bank envelopes' turn by more than
 * half a degree is counted for one euler-between-keys warning, naming the
 * largest.  Motions of other behaviours than Constant and Reset, or keys
 * out of time order, are not checked.  A scene of bones (`AddBone`), which
 * Assimp does not read, is an error at the first, and its motions are not
 * checked.
 */
bool animc_lws_check_envelopes(const uint8_t *data, size_t size, animc_diag_sink *sink);

#endif
