# animc - offline animation asset compiler.  One non-recursive Makefile;
# objects go to $(BUILD).  `make help` lists the targets.

VERSION := $(shell sed -n 's/^\#define ANIMC_VERSION_STRING "\(.*\)"/\1/p' lib/animc.h)

PREFIX ?= /usr/local
DESTDIR ?=
BUILD ?= build
CC ?= cc
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
SANITIZE ?=

ifneq ($(SANITIZE),)
BUILD := $(BUILD)/sanitize
SAN_FLAGS := -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
# Assimp's leaks on its own error paths are not animc's (see the file).
export LSAN_OPTIONS ?= suppressions=$(CURDIR)/scripts/lsan-assimp.supp:print_suppressions=0
endif

# Install missing Debian packages before anything asks pkg-config.
GOALS := $(or $(MAKECMDGOALS),all)
ifneq ($(filter-out help clean,$(GOALS)),)
DEPS_STATUS := $(shell scripts/install-deps $(GOALS) >&2; echo $$?)
ifneq ($(DEPS_STATUS),0)
$(error the dependencies are missing and could not be installed)
endif
endif

PKGS := libxml-2.0 libzstd assimp
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
PKG_LIBS := $(shell pkg-config --libs $(PKGS))
ZSTD_CFLAGS := $(shell pkg-config --cflags libzstd)
ZSTD_LIBS := $(shell pkg-config --libs libzstd)

WARNINGS := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla \
	-Wformat=2 -Wcast-qual
OPT ?= -O2 -g
CFLAGS_ALL := -std=c11 -D_POSIX_C_SOURCE=200809L -Ilib $(OPT) $(WARNINGS) $(SAN_FLAGS) $(CFLAGS)
LDFLAGS_ALL := $(SAN_FLAGS) $(LDFLAGS)
# `make test` adds -Werror.  It is left out of the recorded flags: warning-free
# code compiles to the same objects either way, and CI builds from clean.
WERROR ?=
CC_WERROR := $(if $(WERROR),-Werror)

# ------------------------------------------------------------------ sources
not_main = $(filter-out %_test.c %/test_runner.c %/test_support.c %/check_libc.c \
	$(wildcard */fuzz_*.c */*/fuzz_*.c),$(1))
LIB_SRC := $(call not_main,$(filter-out lib/animrt%.c,$(wildcard lib/*.c)))
FORMATS_SRC := $(call not_main,$(wildcard formats/*.c formats/*/*.c))
RT_SRC := $(call not_main,$(wildcard lib/animrt*.c))
CMD_SRC := $(call not_main,$(wildcard cmd/*.c))
TEST_SRC := $(wildcard lib/*_test.c formats/*/*_test.c cmd/*_test.c) cmd/test_runner.c cmd/test_support.c
FUZZ_SRC := $(wildcard lib/fuzz_*.c formats/*/fuzz_*.c)
FUZZ_NAMES := $(basename $(notdir $(FUZZ_SRC)))

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
LIB_OBJ := $(call obj,$(LIB_SRC) $(FORMATS_SRC))
RT_OBJ := $(call obj,$(RT_SRC))
CMD_OBJ := $(call obj,$(CMD_SRC))
TEST_OBJ := $(call obj,$(TEST_SRC)) $(patsubst %.c,$(BUILD)/replay/%.o,$(FUZZ_SRC))
CLI_TEST_OBJ := $(filter-out $(BUILD)/obj/cmd/animc.o,$(CMD_OBJ))

ANIMC := $(BUILD)/animc
LIBANIMC := $(BUILD)/libanimc.a
LIBANIMRT := $(BUILD)/libanimrt.a
TEST_BIN := $(BUILD)/animc_test
LIBC_CHECK := $(BUILD)/animrt_libc_check
BENCH_SAMPLE := $(BUILD)/bench_sample

.PHONY: all run test check golden fuzz fuzz-build bench bench-compile bench-sample install uninstall \
	clean help
all: $(ANIMC) $(LIBANIMC) $(LIBANIMRT)

$(BUILD)/flags: FORCE
	@mkdir -p $(@D)
	@echo '$(CC) $(CFLAGS_ALL) $(LDFLAGS_ALL)' | cmp -s - $@ || echo '$(CC) $(CFLAGS_ALL) $(LDFLAGS_ALL)' > $@
FORCE:

$(BUILD)/obj/%.o: %.c $(BUILD)/flags
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(CC_WERROR) $(PKG_CFLAGS) -DANIMRT_WITH_ZSTD -MMD -MP -c $< -o $@

# Fuzz targets compiled as plain functions, so `make test` replays their seeds.
$(BUILD)/replay/%.o: %.c $(BUILD)/flags
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(CC_WERROR) $(PKG_CFLAGS) -DANIMRT_WITH_ZSTD \
		-DANIMC_FUZZ_ENTRY=animc_$(notdir $*) \
		-MMD -MP -c $< -o $@

$(LIBANIMC): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(LIBANIMRT): $(RT_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(ANIMC): $(CMD_OBJ) $(LIBANIMC) $(LIBANIMRT)
	$(CC) $(LDFLAGS_ALL) $(CMD_OBJ) $(LIBANIMC) $(LIBANIMRT) $(PKG_LIBS) -lm -o $@

# The loader with the C library alone: no zstd, nothing but libc and libm.
$(BUILD)/libc/%.o: %.c $(BUILD)/flags
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(CC_WERROR) -MMD -MP -c $< -o $@

$(LIBC_CHECK): $(BUILD)/libc/lib/check_libc.o $(patsubst %.c,$(BUILD)/libc/%.o,$(RT_SRC))
	$(CC) $(LDFLAGS_ALL) $^ -lm -o $@

# The sampling benchmark: a program of its own, linked with the loader alone.
$(BENCH_SAMPLE): $(BUILD)/obj/scripts/bench_sample.o $(LIBANIMRT)
	$(CC) $(LDFLAGS_ALL) $^ $(ZSTD_LIBS) -lm -o $@

$(TEST_BIN): $(TEST_OBJ) $(CLI_TEST_OBJ) $(LIBANIMC) $(LIBANIMRT)
	$(CC) $(LDFLAGS_ALL) $(TEST_OBJ) $(CLI_TEST_OBJ) $(LIBANIMC) $(LIBANIMRT) $(PKG_LIBS) \
		$(shell pkg-config --libs cmocka) -lm -o $@

# ------------------------------------------------------------------ goals
run: all
	@rm -rf $(BUILD)/out
	$(ANIMC) build --skeleton testdata/sample/Crane/Crane.x -o $(BUILD)/out testdata/sample

test check:
	@$(MAKE) --no-print-directory WERROR=1 $(ANIMC) $(TEST_BIN) $(LIBC_CHECK) $(BENCH_SAMPLE)
	@$(LIBC_CHECK) testdata/loader/*.xnb testdata/loader/*.xnb.zst
	@ANIMC_BIN=$(ANIMC) ANIMC_BUILD=$(BUILD) $(TEST_BIN)

golden: $(ANIMC)
	scripts/regen-golden $(ANIMC)

FUZZ_FLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -Ilib -O1 -g -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all -DANIMRT_WITH_ZSTD $(PKG_CFLAGS)
FUZZ_LIB_SRC := $(LIB_SRC) $(FORMATS_SRC) $(RT_SRC)
fuzz-build: $(addprefix $(BUILD)/fuzz/,$(FUZZ_NAMES))
$(BUILD)/fuzz/%: $(FUZZ_SRC) $(FUZZ_LIB_SRC)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(filter %/$*.c,$(FUZZ_SRC)) $(FUZZ_LIB_SRC) $(PKG_LIBS) -lm -o $@

# Each target runs FUZZ_SECONDS on a scratch copy of its seeds in testdata/fuzz/.
fuzz: fuzz-build
	scripts/fuzz-run $(BUILD)/fuzz $(FUZZ_SECONDS) $(FUZZ_NAMES)

bench bench-compile: all
	scripts/bench-compile $(ANIMC)

bench-sample: all $(BENCH_SAMPLE)
	scripts/bench-sample $(ANIMC) $(BENCH_SAMPLE)

# ---------------------------------------------------------------- install
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
		$(DESTDIR)$(PREFIX)/include/animc
	install -m 0755 $(ANIMC) $(DESTDIR)$(PREFIX)/bin/animc
	install -m 0644 $(LIBANIMC) $(LIBANIMRT) $(DESTDIR)$(PREFIX)/lib/
	install -m 0644 lib/animc.h lib/animrt.h lib/animrt_layout.h $(DESTDIR)$(PREFIX)/include/animc/
	install -m 0644 formats/animc_formats.h $(DESTDIR)$(PREFIX)/include/animc/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' lib/animc.pc.in \
		> $(DESTDIR)$(PREFIX)/lib/pkgconfig/animc.pc
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' lib/animrt.pc.in \
		> $(DESTDIR)$(PREFIX)/lib/pkgconfig/animrt.pc

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/animc $(DESTDIR)$(PREFIX)/lib/libanimc.a \
		$(DESTDIR)$(PREFIX)/lib/libanimrt.a $(DESTDIR)$(PREFIX)/lib/pkgconfig/animc.pc \
		$(DESTDIR)$(PREFIX)/lib/pkgconfig/animrt.pc
	rm -rf $(DESTDIR)$(PREFIX)/include/animc

clean:
	rm -rf $(BUILD)

help:
	@echo 'animc $(VERSION) - make targets:'
	@echo '  all (default)  build $(ANIMC), $(LIBANIMC) (pipeline), $(LIBANIMRT) (loader)'
	@echo '  run            build, then compile testdata/sample into $(BUILD)/out (checked against'
	@echo '                 the sample model testdata/sample/Crane/Crane.x)'
	@echo '  test           build with -Werror and run the whole test suite'
	@echo '                 (SANITIZE=address,undefined for the sanitizer build)'
	@echo '  golden         regenerate the expected dumps in testdata/golden (review the diff)'
	@echo '  fuzz           build the libFuzzer targets and run each FUZZ_SECONDS (default 60)'
	@echo '  bench          time animc build against xmllint --stream and assimp info on the corpus'
	@echo '  bench-sample   ns per bone sample on the corpus, next to a memcpy of the pose data'
	@echo '  install        install CLI, libraries, headers, .pc files (PREFIX, DESTDIR)'
	@echo '  uninstall      remove what install put there'
	@echo '  clean          remove $(BUILD)'
	@echo 'Missing Debian packages are installed (apt-get) before building.'

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
