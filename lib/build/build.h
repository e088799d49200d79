/*
 * build.h - the whole build engine at once (engine.h and the header of each
 * stage), for the commands and the tests.  The engine's own files include
 * the headers of the stages they use.
 */
#ifndef ANIMC_BUILD_BUILD_H
#define ANIMC_BUILD_BUILD_H

#include "engine.h"

#endif
