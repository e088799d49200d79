# animc - offline animation asset compiler.  One non-recursive Makefile;
# objects go to $(BUILD).  `make help` lists the targets.  Quiet: V=1 shows the
# commands.
#
# Two libraries, each compiled with its own include path, so that a file
# reaching across the boundary does not compile:
#   lib/animrt/   libanimrt, the runtime: sees lib/common/ and libc (and zstd,
#                 but for the variant in $(BUILD)/libc), nothing else;
#   lib/animc/    libanimc, the pipeline: sees lib/common/ and its own public
#                 header;
#   formats/      importers and the writer, part of libanimc: see the public
#                 pipeline headers, lib/common/ and formats/ itself;
#   lib/build/    the build engine (libanimbuild.a, not installed): sees the
#                 public headers and its own folders;
#   cmd/          the commands: see public headers and lib/build/.
# lib/common/ is the one header-only description of the compiled format both
# sides share.  Public headers live in */include/animc/ and are included as
# <animc/NAME.h>, in the tree and once installed.  Quote includes name files
# of the same folder (or of formats/ from formats/): `make` refuses a quote
# include that climbs out with "..", which would get around the include paths.

ANIMC_VERSION := $(shell sed -n 's/^\#define ANIMC_VERSION_STRING "\(.*\)"/\1/p' \
	lib/animc/include/animc/animc.h)
ANIMRT_VERSION := $(shell sed -n 's/^\#define ANIMRT_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)/\2/p' \
	lib/animrt/include/animc/animrt.h | paste -sd.)

PREFIX ?= /usr/local
DESTDIR ?=
BUILD ?= build
CC ?= cc
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
SANITIZE ?=
# 0: `make install` installs the libanimrt built with the C library alone
# (no .xnb.zst), which $(BUILD)/libc holds; nothing else changes.
ANIMRT_ZSTD ?= 1

# `override`: a sub-make given BUILD on its command line still adds these.
ifneq ($(SANITIZE),)
override BUILD := $(BUILD)/sanitize
SAN_FLAGS := -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
# Assimp's leaks on its own error paths are not animc's (see the file).
export LSAN_OPTIONS ?= suppressions=$(CURDIR)/scripts/lsan-assimp.supp:print_suppressions=0
endif

# Quiet by default: a short line per step; V=1 prints the commands.
V ?= 0
ifeq ($(V),1)
Q :=
say :=
else
Q := @
say = @printf '  %-6s %s\n' '$(1)' '$(2)';
endif
SUBMAKE_FLAGS := --no-print-directory $(if $(filter 1,$(V)),,-s)

# pkg-config runs while this file is read, before `make deps` may have
# installed it: silence it here, so that a fresh machine's `make run` (which
# installs first, then builds in a sub-make that reads this file again)
# prints no "not found" lines.
pkg = $(shell pkg-config $(1) 2>/dev/null)

XML_CFLAGS := $(call pkg,--cflags libxml-2.0)
ASSIMP_CFLAGS := $(call pkg,--cflags assimp)
JANSSON_CFLAGS := $(call pkg,--cflags jansson)
ZSTD_CFLAGS := $(call pkg,--cflags libzstd)
ZSTD_LIBS := $(call pkg,--libs libzstd)
# zlib: the FBX reader inflates compressed binary arrays (formats/assimp/fbx_doc.c).
ZLIB_CFLAGS := $(call pkg,--cflags zlib)
# Assimp is not linked: formats/assimp/assimp_api.c loads it with dlopen()
# when a file is read through it, by the soname found here.  Programs that
# call Assimp themselves (the tests) link it.
PIPELINE_LIBS := $(call pkg,--libs libxml-2.0 libzstd jansson zlib)
ASSIMP_LIBS := $(call pkg,--libs assimp)
ASSIMP_VERSION := $(call pkg,--modversion assimp)
ASSIMP_SONAME := $(shell objdump -p $$(pkg-config --variable=libdir assimp 2>/dev/null)/libassimp.so 2>/dev/null | \
	sed -n 's/^ *SONAME *//p')
# Bare tokens (no quotes to survive shells): the C side makes them strings.
ASSIMP_DEFS := -DANIMC_ASSIMP_VERSION=$(ASSIMP_VERSION) \
	$(if $(ASSIMP_SONAME),-DANIMC_ASSIMP_SONAME=$(ASSIMP_SONAME))
# The CLI's build manifest hashes with xxHash (XXH3).
XXHASH_CFLAGS := $(call pkg,--cflags libxxhash)
XXHASH_LIBS := $(call pkg,--libs libxxhash)
# The build cache: libcurl's headers only (cmd/cache_http.c loads the library
# when a cache URL is used), nettle for SHA-256.
CURL_CFLAGS := $(call pkg,--cflags libcurl)
NETTLE_CFLAGS := $(call pkg,--cflags nettle)
CMD_LIBS := $(call pkg,--libs nettle) -pthread
CMOCKA_CFLAGS := $(call pkg,--cflags cmocka)
CMOCKA_LIBS := $(call pkg,--libs cmocka)

WARNINGS := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla \
	-Wformat=2 -Wcast-qual
OPT ?= -O2 -g
CFLAGS_ALL := -std=c11 -D_POSIX_C_SOURCE=200809L $(OPT) $(WARNINGS) $(SAN_FLAGS) $(CFLAGS)
LDFLAGS_ALL := $(SAN_FLAGS) $(LDFLAGS)
# `make test` adds -Werror.  It is left out of the recorded flags: warning-free
# code compiles to the same objects either way, and CI builds from clean.
WERROR ?=
CC_WERROR := $(if $(WERROR),-Werror)

# ------------------------------------------------------------ include paths
RT_PUBLIC := -Ilib/animrt/include
PIPELINE_PUBLIC := -Ilib/animc/include
FORMATS_PUBLIC := -Iformats/include
RT_ZSTD_FLAGS := -DANIMRT_WITH_ZSTD $(ZSTD_CFLAGS)

# The runtime's symbols are hidden but for animrt.h's (which marks its
# declarations default): a shared object linking libanimrt.a exports the API
# alone.  scripts/check-install lists the archive's symbols against it.
RT_VISIBILITY := -fvisibility=hidden
RT_CPPFLAGS := $(RT_PUBLIC) -Ilib/common $(RT_ZSTD_FLAGS) $(RT_VISIBILITY)
PIPELINE_CPPFLAGS := $(PIPELINE_PUBLIC) -Ilib/common
FORMATS_CPPFLAGS := -Iformats $(FORMATS_PUBLIC) $(PIPELINE_PUBLIC) -Ilib/common $(XML_CFLAGS) \
	$(ASSIMP_CFLAGS) $(ASSIMP_DEFS) $(JANSSON_CFLAGS) $(ZSTD_CFLAGS) $(ZLIB_CFLAGS)
ENGINE_CPPFLAGS := $(FORMATS_PUBLIC) $(PIPELINE_PUBLIC) $(RT_PUBLIC) -Ilib/build -Ilib/build/cache -I$(BUILD)/gen \
	$(XXHASH_CFLAGS) $(CURL_CFLAGS) $(NETTLE_CFLAGS)
CMD_CPPFLAGS := $(ENGINE_CPPFLAGS)
# Tests and fuzz targets look inside what they test, and may use every layer.
CHECK_CPPFLAGS := -Iformats $(FORMATS_PUBLIC) $(PIPELINE_PUBLIC) $(RT_PUBLIC) -Ilib/common \
	$(XML_CFLAGS) $(ASSIMP_CFLAGS) $(JANSSON_CFLAGS) $(ZSTD_CFLAGS) $(XXHASH_CFLAGS) -DANIMRT_WITH_ZSTD \
	-Ilib/build -Ilib/build/cache
TEST_CPPFLAGS := $(CHECK_CPPFLAGS) -Icmd/tests -Ilib/animrt $(CMOCKA_CFLAGS) $(XXHASH_CFLAGS) $(CURL_CFLAGS) \
	$(NETTLE_CFLAGS)

# The benchmarks: bench_compact reaches the scalar reference samplers.
BENCH_CPPFLAGS := $(RT_PUBLIC) $(RT_ZSTD_FLAGS)
BENCH_COMPACT_CPPFLAGS := $(RT_CPPFLAGS) -Ilib/animrt

# The include path of a source, by where it lives: the first pattern of this
# table that its path matches names its flags (X: $(X_CPPFLAGS)).  The
# normal, sanitizer, seed-replay and fuzz builds all compile through it.
FLAGS_TABLE = \
	%_test.c:TEST cmd/tests/%:TEST \
	lib/animrt/%:RT \
	$(addsuffix :CHECK,$(FUZZ_SRC)) \
	lib/animc/%:PIPELINE formats/%:FORMATS \
	lib/build/%:ENGINE cmd/%:CMD \
	scripts/bench_compact.c:BENCH_COMPACT scripts/%:BENCH
flags_row = $(firstword $(foreach row,$(FLAGS_TABLE),$(if $(filter $(firstword $(subst :, ,$(row))),$1),$(row))))
cppflags_for = $($(lastword $(subst :, ,$(call flags_row,$1)))_CPPFLAGS)

# ------------------------------------------------------------------ sources
FUZZ_SRC := $(wildcard lib/*/fuzz_*.c lib/build/cache/fuzz_*.c formats/*/fuzz_*.c)
TESTS_ONLY = %_test.c cmd/tests/% %/check_libc.c $(FUZZ_SRC)
RT_SRC := $(filter-out $(TESTS_ONLY),$(wildcard lib/animrt/*.c))
ENGINE_SRC := $(filter-out $(TESTS_ONLY),$(wildcard lib/build/*.c lib/build/cache/*.c))
PIPELINE_SRC := $(filter-out $(TESTS_ONLY),$(wildcard lib/animc/*.c formats/*.c formats/*/*.c))
CMD_SRC := $(filter-out $(TESTS_ONLY),$(wildcard cmd/*.c))
# Unit tests sit beside what they test; process-level suites (they run the
# animc binary, the oracle or the real runtime) live in cmd/tests/.
UNIT_SRC := $(wildcard lib/*/*_test.c lib/build/cache/*_test.c formats/*/*_test.c) \
	cmd/tests/fuzz_replay_test.c
SUITE_SRC := $(filter-out $(UNIT_SRC),$(filter %_test.c,$(wildcard cmd/tests/*.c)))
HARNESS_SRC := cmd/tests/test_runner.c cmd/tests/test_support.c
FUZZ_NAMES := $(basename $(notdir $(FUZZ_SRC)))
C_FILES := $(sort $(wildcard lib/*/*.c lib/*/*.h lib/*/include/animc/*.h lib/common/*.h \
	formats/*.c formats/*.h formats/*/*.c formats/*/*.h formats/include/animc/*.h \
	lib/build/cache/*.c lib/build/cache/*.h cmd/*.c cmd/*.h cmd/tests/*.c cmd/tests/*.h scripts/*.c))

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
RT_OBJ := $(call obj,$(RT_SRC))
PIPELINE_OBJ := $(call obj,$(PIPELINE_SRC))
ENGINE_OBJ := $(call obj,$(ENGINE_SRC))
CMD_OBJ := $(call obj,$(CMD_SRC))
REPLAY_OBJ := $(patsubst %.c,$(BUILD)/replay/%.o,$(FUZZ_SRC))
UNIT_OBJ := $(call obj,$(UNIT_SRC) $(HARNESS_SRC)) $(REPLAY_OBJ)
TEST_OBJ := $(UNIT_OBJ) $(call obj,$(SUITE_SRC))

ANIMC := $(BUILD)/animc
LIBANIMC := $(BUILD)/libanimc.a
LIBANIMRT := $(BUILD)/libanimrt.a
LIBANIMBUILD := $(BUILD)/libanimbuild.a
TEST_BIN := $(BUILD)/animc_test
UNITS_BIN := $(BUILD)/animc_units
LIBC_BUILD := $(BUILD)/libc
LIBC_CHECK := $(LIBC_BUILD)/animrt_libc_check
LIBC_RT := $(LIBC_BUILD)/libanimrt.a
LIBC_RT_OBJ := $(patsubst %.c,$(LIBC_BUILD)/obj/%.o,$(RT_SRC))
BENCH_SAMPLE := $(BUILD)/bench_sample
BENCH_COMPACT := $(BUILD)/bench_compact
CHECK_BOUNDS := $(BUILD)/check_bounds
LAYOUT_OK := $(BUILD)/layout-ok

.PHONY: all deps run test check check-function-length units golden docs fuzz fuzz-build fuzz-bins bench bench-compile bench-build bench-per-file bench-sample bench-anchors \
	bench-compact check-simd check-bounds bench-cache measure-watch \
	install uninstall clean help
all: $(ANIMC) $(LIBANIMC) $(LIBANIMRT) $(if $(filter 0,$(ANIMRT_ZSTD)),$(LIBC_RT))

$(BUILD)/flags: FORCE
	@mkdir -p $(@D)
	@echo '$(CC) $(CFLAGS_ALL) $(LDFLAGS_ALL) $(HOT_OPT)' | cmp -s - $@ || \
		echo '$(CC) $(CFLAGS_ALL) $(LDFLAGS_ALL) $(HOT_OPT)' > $@
FORCE:

# The commit animc is built from, and a digest of what is not committed:
# part of every source key (lib/build/key.c), so that two builds of one
# version string that write other bytes never share a cache entry or an
# output folder's records.  Outside a git checkout of animc itself, the
# commit `git archive` wrote into lib/build/archive_commit (export-subst in
# .gitattributes: a release tarball or a snapshot of any commit, also one
# kept inside a game's repository); empty for a tree that holds none (the
# version string alone).  Rewritten only when it changes.
BUILD_ID := $(if $(filter $(CURDIR),$(shell git rev-parse --show-toplevel 2>/dev/null)),\
	$(shell git rev-parse --short=12 HEAD 2>/dev/null))
BUILD_ID := $(if $(BUILD_ID),$(BUILD_ID)$(shell git diff --quiet HEAD -- 2>/dev/null || \
	{ printf +; git diff HEAD -- | sha256sum | cut -c1-8; }),\
	$(shell sed -n 's/^\([0-9a-f]\{12\}\)[0-9a-f]\{28\}$$/\1/p' lib/build/archive_commit 2>/dev/null))
BUILD_ID := $(strip $(BUILD_ID))
$(BUILD)/gen/build_id.h: FORCE
	@mkdir -p $(@D)
	@printf '#define ANIMC_BUILD_ID "%s"\n' '$(BUILD_ID)' | cmp -s - $@ || \
		printf '#define ANIMC_BUILD_ID "%s"\n' '$(BUILD_ID)' > $@
$(call obj,lib/build/key.c cmd/animc.c): $(BUILD)/gen/build_id.h

# The direction of includes: no quote include climbs out of its folder.
$(LAYOUT_OK): $(C_FILES)
	@mkdir -p $(@D)
	@if grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"(/|[^"]*\.\./)' $^; then \
		echo 'error: the quote includes above reach outside their folder; include public' \
			'headers as <animc/NAME.h> (see the top of the Makefile)' >&2; exit 1; fi
	@touch $@

# The samplers' inner loops over four lanes want complete unrolling, which
# -O2 leaves out; and their functions start on a cache line, so that where
# the linker puts them does not move their speed (playback with a context
# read 8.0 to 9.3 ns a bone on the same sources, text shifted by 0 to 48
# bytes).  HOT_OPT= builds them like everything else.
HOT_SRC := lib/animrt/sample.c lib/animrt/sample_simd.c lib/animrt/sample_packed.c lib/animrt/sample_v3.c \
	lib/animrt/sample_v3_simd.c lib/animrt/sample_v3_vec.c lib/animrt/context_v3.c
HOT_OPT ?= -O3 -falign-functions=64
$(BUILD)/obj/%.o: %.c $(BUILD)/flags | $(LAYOUT_OK)
	$(call say,CC,$@)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) $(if $(filter $(HOT_SRC),$<),$(HOT_OPT)) $(CC_WERROR) $(call cppflags_for,$<) \
		-MMD -MP -c $< -o $@

# Fuzz targets compiled as plain functions, so `make test` replays their seeds.
$(BUILD)/replay/%.o: %.c $(BUILD)/flags | $(LAYOUT_OK)
	$(call say,CC,$@)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) $(CC_WERROR) $(call cppflags_for,$<) \
		-DANIMC_FUZZ_ENTRY=animc_$(notdir $*) -MMD -MP -c $< -o $@

archive = $(call say,AR,$@)rm -f $@ && ar rcs $@ $^

$(LIBANIMC): $(PIPELINE_OBJ)
	$(archive)

$(LIBANIMRT): $(RT_OBJ)
	$(archive)

$(LIBANIMBUILD): $(ENGINE_OBJ)
	$(archive)

RT_LIBS := $(ZSTD_LIBS) -lm
ENGINE_LINK := $(LIBANIMBUILD) $(LIBANIMC) $(LIBANIMRT)
$(ANIMC): $(CMD_OBJ) $(ENGINE_LINK)
	$(call say,LINK,$@)$(CC) $(LDFLAGS_ALL) $(CMD_OBJ) $(ENGINE_LINK) $(PIPELINE_LIBS) $(XXHASH_LIBS) $(CMD_LIBS) -lm -o $@

# The runtime with the C library alone, in a folder of its own: the same
# sources, compiled without ANIMRT_WITH_ZSTD.  `make install ANIMRT_ZSTD=0`
# builds and installs it (and nothing else anew); `make test` links a
# program with it and libc and libm alone.
$(LIBC_BUILD)/obj/%.o: RT_CPPFLAGS := $(RT_PUBLIC) -Ilib/common $(RT_VISIBILITY)
$(LIBC_BUILD)/obj/%.o: %.c $(BUILD)/flags | $(LAYOUT_OK)
	$(call say,CC,$@)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_ALL) $(if $(filter $(HOT_SRC),$<),$(HOT_OPT)) $(CC_WERROR) $(call cppflags_for,$<) \
		-MMD -MP -c $< -o $@
$(LIBC_RT): $(LIBC_RT_OBJ)
	$(archive)
$(LIBC_CHECK): lib/animrt/check_libc.c $(LIBC_RT)
	$(call say,LINK,$@)$(CC) $(CFLAGS_ALL) $(CC_WERROR) $(RT_PUBLIC) $(LDFLAGS_ALL) $^ -lm -o $@

# The example programs of docs/examples/, built as a user builds them: the
# public header and libanimrt alone.  `make test` runs them (cmd/tests/
# examples_test.c); scripts/check-install builds them from an install.
EXAMPLES := $(patsubst docs/examples/%.c,$(BUILD)/examples/%,$(wildcard docs/examples/*.c))
$(BUILD)/examples/%: docs/examples/%.c $(LIBANIMRT) $(BUILD)/flags
	@mkdir -p $(@D)
	$(call say,LINK,$@)$(CC) $(CFLAGS_ALL) $(CC_WERROR) $(RT_PUBLIC) $(LDFLAGS_ALL) $< $(LIBANIMRT) $(RT_LIBS) -o $@

# The sampling benchmarks: programs of their own, linked with the loader
# alone (bench_compact reaches the scalar reference samplers in sample.h).
$(BENCH_SAMPLE): $(BUILD)/obj/scripts/bench_sample.o $(LIBANIMRT)
	$(call say,LINK,$@)$(CC) $(LDFLAGS_ALL) $^ $(RT_LIBS) -o $@
# bench_compact counts the bytes its clips hold through bench_heap.c.
BENCH_HEAP_WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,--wrap=aligned_alloc
$(BENCH_COMPACT): $(BUILD)/obj/scripts/bench_compact.o $(BUILD)/obj/scripts/bench_heap.o $(LIBANIMRT)
	$(call say,LINK,$@)$(CC) $(LDFLAGS_ALL) $(BENCH_HEAP_WRAP) $^ $(RT_LIBS) -o $@
$(CHECK_BOUNDS): $(BUILD)/obj/scripts/check_bounds.o $(LIBANIMRT)
	$(call say,LINK,$@)$(CC) $(LDFLAGS_ALL) $^ $(RT_LIBS) -lm -o $@

$(TEST_BIN): $(TEST_OBJ) $(ENGINE_LINK)
	$(call say,LINK,$@)$(CC) $(LDFLAGS_ALL) $(TEST_OBJ) $(ENGINE_LINK) $(PIPELINE_LIBS) \
		$(ASSIMP_LIBS) $(XXHASH_LIBS) $(CMD_LIBS) $(CMOCKA_LIBS) -lm -o $@

# The unit tests link the engine library whole: the harness reads files with
# its reader, and the fuzz replays reach the manifest and cache decoders.
$(UNITS_BIN): $(UNIT_OBJ) $(ENGINE_LINK)
	$(call say,LINK,$@)$(CC) $(LDFLAGS_ALL) $^ $(PIPELINE_LIBS) $(ASSIMP_LIBS) $(XXHASH_LIBS) $(CMD_LIBS) $(CMOCKA_LIBS) -lm -o $@

# ------------------------------------------------------------------ goals
# The Debian packages a goal needs, installed when any is missing (apt-get
# update first; as root).  The goals below that need them run `deps` first,
# then build in a sub-make, which reads pkg-config's answers afresh.
deps:
	@scripts/install-deps $(or $(filter-out deps,$(MAKECMDGOALS)),build)

# Incremental: a second `make run` compiles nothing (the manifest in
# $(BUILD)/out/.animc says every source is up to date).
run: deps
	@$(MAKE) $(SUBMAKE_FLAGS) all
	$(ANIMC) build --skeleton testdata/sample/Crane/Crane.x -o $(BUILD)/out testdata/sample

# The runner prints a failing or skipped test whole and one summary line;
# V=1 prints every test as cmocka does.
TEST_RUNNER_FLAGS := $(if $(filter 1,$(V)),-v)
test check: deps
	@$(MAKE) $(SUBMAKE_FLAGS) WERROR=1 $(ANIMC) $(TEST_BIN) $(LIBC_CHECK) $(BENCH_SAMPLE) $(BENCH_COMPACT) $(CHECK_BOUNDS) \
		$(EXAMPLES)
	@$(LIBC_CHECK) testdata/loader/*.xnb testdata/loader/*.xnb.zst
	@rm -rf $(BUILD)/cmake-stage
	@$(MAKE) $(SUBMAKE_FLAGS) install DESTDIR=$(abspath $(BUILD))/cmake-stage PREFIX=/usr >/dev/null
	@ANIMC_BIN=$(ANIMC) ANIMC_BUILD=$(BUILD) ANIMC_SANITIZE='$(SANITIZE)' $(TEST_BIN) $(TEST_RUNNER_FLAGS)
# check also holds the code to its shape: no function in cmd/ or lib/build/
# longer than 120 lines.
check: check-function-length
check-function-length:
	@scripts/check-function-length

# The edit-compile loop: unit tests only, no processes started.
units: deps
	@$(MAKE) $(SUBMAKE_FLAGS) WERROR=1 $(UNITS_BIN)
	@ANIMC_BUILD=$(BUILD) $(UNITS_BIN) $(TEST_RUNNER_FLAGS)

golden: deps
	@$(MAKE) $(SUBMAKE_FLAGS) $(ANIMC)
	scripts/regen-golden $(ANIMC)

# Generated from the option table and the commands' help: the manual, the
# man page, the bash completion.  The test suite fails when one is stale.
docs: deps
	@$(MAKE) $(SUBMAKE_FLAGS) $(ANIMC)
	$(ANIMC) help --markdown > docs/cli.md
	$(ANIMC) help --man > docs/animc.1
	$(ANIMC) help --completion > docs/animc.bash-completion

# libFuzzer targets: each fuzz_*.c linked with the three libraries, whole,
# compiled again by clang with the fuzzer's instrumentation (and the same
# include paths, from FLAGS_TABLE) into $(FUZZ_DIR).
FUZZ_FLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all -DANIMRT_WITH_ZSTD -DANIMRT_ZSTD_FIRST_BYTES=64 -DANIMRT_ZSTD_PROBE_FROM=64
FUZZ_DIR := $(BUILD)/fuzz
fuzz_obj = $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(1))
FUZZ_LIBS := $(FUZZ_DIR)/libanimbuild.a $(FUZZ_DIR)/libanimc.a $(FUZZ_DIR)/libanimrt.a
FUZZ_BINS := $(addprefix $(FUZZ_DIR)/,$(FUZZ_NAMES))

# What the fuzz objects are compiled with: one changed (FUZZ_FLAGS=...,
# another FUZZ_CC, an include path) compiles them all again, as
# $(BUILD)/flags does the others.  Their headers are in their .d files.
FUZZ_FLAGS_LINE = $(FUZZ_CC) $(FUZZ_FLAGS) $(foreach layer,RT PIPELINE FORMATS ENGINE CHECK,$($(layer)_CPPFLAGS))
$(FUZZ_DIR)/flags: FORCE
	@mkdir -p $(@D)
	@echo '$(FUZZ_FLAGS_LINE)' | cmp -s - $@ || echo '$(FUZZ_FLAGS_LINE)' > $@

$(FUZZ_DIR)/obj/%.o: %.c $(FUZZ_DIR)/flags | $(LAYOUT_OK)
	$(call say,FUZZCC,$@)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) $(call cppflags_for,$<) -MMD -MP -c $< -o $@
$(FUZZ_DIR)/libanimbuild.a: $(call fuzz_obj,$(ENGINE_SRC))
	$(archive)
$(FUZZ_DIR)/libanimc.a: $(call fuzz_obj,$(PIPELINE_SRC))
	$(archive)
$(FUZZ_DIR)/libanimrt.a: $(call fuzz_obj,$(RT_SRC))
	$(archive)
define fuzz_target
$(FUZZ_DIR)/$(basename $(notdir $(1))): $(call fuzz_obj,$(1)) $(FUZZ_LIBS)
	$$(call say,LINK,$$@)$$(FUZZ_CC) $$(FUZZ_FLAGS) $$^ $$(PIPELINE_LIBS) $$(XXHASH_LIBS) $$(CMD_LIBS) -lm -o $$@
endef
$(foreach src,$(FUZZ_SRC),$(eval $(call fuzz_target,$(src))))

fuzz-build: deps
	@$(MAKE) $(SUBMAKE_FLAGS) fuzz-bins
fuzz-bins: $(FUZZ_BINS)

# Each target runs FUZZ_SECONDS on a scratch copy of its seeds in testdata/fuzz/.
fuzz: fuzz-build
	scripts/fuzz-run $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_NAMES)

bench: deps
	@$(MAKE) $(SUBMAKE_FLAGS) all
	scripts/bench-compile $(ANIMC)
	scripts/bench-build $(ANIMC)

bench-compile bench-build bench-per-file bench-cache measure-watch: deps
	@$(MAKE) $(SUBMAKE_FLAGS) all
	scripts/$@ $(ANIMC)

bench-sample: deps
	@$(MAKE) $(SUBMAKE_FLAGS) all $(BENCH_SAMPLE)
	scripts/bench-sample $(ANIMC) $(BENCH_SAMPLE)

bench-compact: deps
	@$(MAKE) $(SUBMAKE_FLAGS) all $(BENCH_COMPACT)
	scripts/bench-compact $(ANIMC) $(BENCH_COMPACT)

# Source trees of ACL 2.1, its rtm and ozz-animation 0.16, which the caller provides.
bench-anchors: deps
	@$(MAKE) $(SUBMAKE_FLAGS) all $(LIBANIMRT)
	scripts/bench-anchors $(ANIMC) $(LIBANIMRT) "$(ACL_DIR)" "$(RTM_DIR)" "$(OZZ_DIR)"

check-simd: deps
	@$(MAKE) $(SUBMAKE_FLAGS) $(ANIMC)
	scripts/check-simd $(ANIMC)

check-bounds: deps
	@$(MAKE) $(SUBMAKE_FLAGS) $(ANIMC) $(CHECK_BOUNDS)
	scripts/check-bounds $(ANIMC) $(CHECK_BOUNDS)

# ---------------------------------------------------------------- install
PUBLIC_HEADERS := lib/animc/include/animc/animc.h lib/animc/include/animc/animc_xform.h \
	formats/include/animc/animc_formats.h lib/animrt/include/animc/animrt.h

# The .pc files are written here, so that each install names its own PREFIX
# (DESTDIR only stages the files).
INSTALL_RT := $(if $(filter 0,$(ANIMRT_ZSTD)),$(LIBC_RT),$(LIBANIMRT))
INSTALL_RT_REQUIRES := $(if $(filter 0,$(ANIMRT_ZSTD)),,Requires: libzstd)
# Paths quoted for the shell (a prefix may hold spaces or quotes), for sed's
# replacement (\ & |), and for a .pc file (pkg-config splits its flags at
# unescaped spaces).
shq = '$(subst ','\'',$(1))'
sed_value = $(subst |,\|,$(subst &,\&,$(subst \,\\,$(1))))
pc_value = $(subst ",\",$(subst ',\',$(subst $(space),\$(space),$(1))))
space := $(subst ,, )
TO = $(call shq,$(DESTDIR)$(PREFIX))
# The manual, installed in PREFIX/share/doc/animc in the source tree's
# layout (the help names its files by those paths, and their links between
# them hold).
DOC_FILES := README.md docs/README.md docs/cli.md docs/build.md docs/warnings.md docs/scaling.md \
	docs/runtime.md docs/xna.md docs/HACKING.md docs/examples/load.c docs/examples/usage.c \
	docs/animc.1 docs/animc.bash-completion formats/xnb/FORMAT.md lib/build/report.schema.json \
	lib/animrt/include/animc/animrt.h
DOC_TO = $(call shq,$(DESTDIR)$(PREFIX)/share/doc/animc)

install: all $(INSTALL_RT)
	@case $(call shq,$(PREFIX)) in /*) ;; *) echo "make install: PREFIX must be an absolute path," \
		"not '$(PREFIX)': the .pc and CMake files name it" >&2; exit 2;; esac
	install -d $(TO)/bin $(TO)/lib/pkgconfig $(TO)/include/animc $(TO)/share/man/man1 \
		$(TO)/share/bash-completion/completions
	install -m 0755 $(ANIMC) $(TO)/bin/animc
	install -m 0644 $(LIBANIMC) $(TO)/lib/libanimc.a
	install -m 0644 $(INSTALL_RT) $(TO)/lib/libanimrt.a
	install -m 0644 $(PUBLIC_HEADERS) $(TO)/include/animc/
	sed -e $(call shq,s|@PREFIX@|$(call sed_value,$(call pc_value,$(PREFIX)))|) \
		-e 's|@VERSION@|$(ANIMC_VERSION)|' lib/animc/animc.pc.in > $(TO)/lib/pkgconfig/animc.pc
	sed -e $(call shq,s|@PREFIX@|$(call sed_value,$(call pc_value,$(PREFIX)))|) \
		-e 's|@VERSION@|$(ANIMRT_VERSION)|' \
		-e 's|@REQUIRES@|$(INSTALL_RT_REQUIRES)|' lib/animrt/animrt.pc.in > $(TO)/lib/pkgconfig/animrt.pc
	install -m 0644 docs/animc.1 $(TO)/share/man/man1/animc.1
	install -m 0644 docs/animc.bash-completion $(TO)/share/bash-completion/completions/animc
	install -d $(TO)/lib/cmake/animc $(TO)/lib/cmake/animrt
	install -m 0644 lib/cmake/animcConfig.cmake.in $(TO)/lib/cmake/animc/animcConfig.cmake
	sed -e 's|@VERSION@|$(ANIMC_VERSION)|' lib/cmake/animcConfigVersion.cmake.in \
		> $(TO)/lib/cmake/animc/animcConfigVersion.cmake
	sed -e 's|@RT_LINK@|$(if $(filter 0,$(ANIMRT_ZSTD)),m,zstd;m)|' lib/cmake/animrtConfig.cmake.in \
		> $(TO)/lib/cmake/animrt/animrtConfig.cmake
	sed -e 's|@VERSION@|$(ANIMRT_VERSION)|' lib/cmake/animrtConfigVersion.cmake.in \
		> $(TO)/lib/cmake/animrt/animrtConfigVersion.cmake
	install -m 0644 lib/cmake/animcAssets.cmake $(TO)/lib/cmake/animc/
	rm -f $(TO)/lib/cmake/animc/*.build
	printf 'animc %s\n' '$(ANIMC_VERSION) $(BUILD_ID)' \
		> $(TO)/lib/cmake/animc/animc-$(ANIMC_VERSION)$(if $(BUILD_ID),-$(BUILD_ID)).build
	install -d $(DOC_TO)/docs/examples $(DOC_TO)/formats/xnb $(DOC_TO)/lib/build $(DOC_TO)/lib/animrt/include/animc
	$(foreach f,$(DOC_FILES),install -m 0644 $(f) $(DOC_TO)/$(f) &&) true

uninstall:
	rm -f $(TO)/bin/animc $(TO)/lib/libanimc.a $(TO)/lib/libanimrt.a $(TO)/lib/pkgconfig/animc.pc \
		$(TO)/lib/pkgconfig/animrt.pc $(TO)/share/man/man1/animc.1 \
		$(TO)/share/bash-completion/completions/animc
	rm -rf $(TO)/include/animc $(TO)/lib/cmake/animc $(TO)/lib/cmake/animrt $(DOC_TO)

clean:
	rm -rf $(BUILD)

help:
	@echo 'animc $(ANIMC_VERSION) (libanimrt $(ANIMRT_VERSION)) - make targets:'
	@echo '  all (default)  build $(ANIMC), $(LIBANIMC) (pipeline), $(LIBANIMRT) (runtime)'
	@echo '  run            build, then compile testdata/sample into $(BUILD)/out (checked against'
	@echo '                 the sample model testdata/sample/Crane/Crane.x)'
	@echo '  test           build with -Werror and run the whole test suite'
	@echo '                 (SANITIZE=address,undefined for the sanitizer build)'
	@echo '  units          the unit tests alone (no processes started): the edit-compile loop'
	@echo '  golden         regenerate the expected dumps in testdata/golden (review the diff)'
	@echo '  docs           regenerate docs/cli.md, docs/animc.1 and the bash completion from'
	@echo '                 the option table (the tests fail when they are stale)'
	@echo '  fuzz           build the libFuzzer targets and run each FUZZ_SECONDS (default 60)'
	@echo '  bench          bench-compile and bench-build'
	@echo '  bench-compile  time animc build against xmllint --stream and assimp info on the corpus'
	@echo '  bench-build    -j2 against -j1, a no-op rebuild of 10,000 files against the full'
	@echo '                 build, start-up on one file against xmllint (ratios, one run)'
	@echo '  bench-per-file one per-file rule into a folder of 1,000 and 3,000 built sources against'
	@echo '                 one into a fresh folder (ratios, one run)'
	@echo '  bench-sample   ns per bone sample on the corpus, next to a memcpy of the pose data'
	@echo '  bench-compact  the lossy outputs on the corpus: size and speed ratios against the'
	@echo '                 lossless files and today'"'"'s scalar sampler, worst errors'
	@echo '  bench-anchors  compact and lossless clips beside ACL 2.1 and ozz 0.16 on the corpus:'
	@echo '                 memory and sampling time (ACL_DIR, RTM_DIR, OZZ_DIR: their source trees)'
	@echo '  check-simd     the plain C, SSE2 and (cross-compiled, under qemu) NEON samplers against'
	@echo '                 the scalar references, on the fixtures and the corpus compiled compact'
	@echo '  check-bounds   every lossy mode against the lossless outputs on the corpus, as'
	@echo '                 libanimrt plays them: worst errors against the --tolerance bounds'
	@echo '  bench-cache    builds with a shared cache (nginx on the loopback) against builds without'
	@echo '  measure-watch  animc watch: median time from a save to the written .xnb over 20 saves'
	@echo '  install        install CLI, libraries, headers, .pc files, the CMake packages'
	@echo '                 (lib/cmake/animc, lib/cmake/animrt), man page, bash completion, the manual'
	@echo '                 (share/doc/animc) (PREFIX, DESTDIR);'
	@echo '                 ANIMRT_ZSTD=0 builds and installs a libanimrt that needs libc alone'
	@echo '  uninstall      remove what install put there'
	@echo '  clean          remove $(BUILD)'
	@echo '  deps           install the Debian packages the goals given with it need (apt-get;'
	@echo '                 run, test, units, golden, docs, fuzz and bench* do it first)'
	@echo 'Builds print a line per step; V=1 prints the commands (and every test).'

-include $(shell find $(BUILD)/obj $(BUILD)/replay $(BUILD)/fuzz/obj $(LIBC_BUILD)/obj -name '*.d' 2>/dev/null)
