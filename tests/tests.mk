# Test, fuzz and bench builds (included by the top-level Makefile).

CMOCKA_LIBS  := -lcmocka
UNIT_SRCS    := $(wildcard tests/unit/test_*.c)
UNIT_BINS    := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
# What a test, tool or benchmark links is read from the #include lines of
# its source and of the tests/lib files it uses (their headers and sources,
# three levels deep): plugins/<p>/... -> that plugin's core objects;
# tests/lib/<x>.h -> tests/lib/<x>.o; tests/shim/... -> libshim.a;
# libcommon.a (an archive: only the members used) always. One grep reads
# every file.
LINK_INCLUDES := $(shell grep -Ho '^.include "\(plugins\|tests\)/[^"]*"' \
                   tests/unit/*.c tests/lib/*.[ch] tests/tools/*.c bench/*.c 2>/dev/null | \
                   sed 's/:.include "/:/; s/"$$//')
incs_of      = $(patsubst $(1):%,%,$(filter $(1):%,$(LINK_INCLUDES)))
# the tests/lib files one file pulls in: each header it includes and its .c
lib_step     = $(foreach h,$(filter tests/lib/%.h,$(call incs_of,$(1))),$(h) $(wildcard $(h:.h=.c)))
lib_closure  = $(sort $(1) $(foreach f,$(1),$(call lib_step,$(f))))
link_files_of = $(call lib_closure,$(call lib_closure,$(call lib_closure,$(1))))
link_incs_of = $(foreach f,$(call link_files_of,$(1)),$(call incs_of,$(f)))
# link_deps_of SOURCE: the objects and archives its program links besides
# the source itself
link_deps_of = $(patsubst %.c,$(BUILD)/obj/%.o,$(filter-out $(1),$(filter %.c,$(call link_files_of,$(1))))) \
  $(foreach p,$(sort $(foreach i,$(filter plugins/%,$(call link_incs_of,$(1))),$(word 2,$(subst /, ,$(i))))),$($(p)_CORE)) \
  $(if $(filter tests/shim/%,$(call link_incs_of,$(1))),$(SHIM_LIB)) $(LIBCOMMON)
TEST_LIB_SRCS := $(wildcard tests/lib/*.c)
TEST_LIB_OBJS := $(TEST_LIB_SRCS:%.c=$(BUILD)/obj/%.o)
# The shim (rules below): its core without the libc table and interposers.
SHIM_CORE_SRCS := $(filter-out tests/shim/shim_preload.c tests/shim/shim_libc.c,$(wildcard tests/shim/*.c))
SHIM_LIB     := $(BUILD)/libshim.a
SHIM_SO      := $(BUILD)/tests/shim.so
# tests/tools/<x>.c is an executable; <x>_ops.c and <x>_module.c are the
# fake plugin core and collectd entry point shared with <x>.so.
TOOL_SRCS    := $(filter-out %_ops.c %_module.c,$(wildcard tests/tools/*.c))
TOOL_BINS    := $(TOOL_SRCS:tests/tools/%.c=$(BUILD)/tests/%)
TOOL_SOS     := $(BUILD)/tests/fake_plugin.so

FUZZ_SRCS    := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS    := $(FUZZ_SRCS:tests/fuzz/%.c=build/fuzz/%)
FUZZ_FLAGS   := -std=c11 -D_GNU_SOURCE -I. -g -O1 -Wall -Wextra -Werror \
                -fsanitize=fuzzer,address,undefined,float-cast-overflow \
                -fno-sanitize-recover=undefined,float-cast-overflow

# bench/bench_*.c are programs; bench/alloc_count.c is the allocation
# counter of bench_util.h, linked into the programs that include it.
BENCH_SRCS   := $(wildcard bench/bench_*.c)
BENCH_BINS   := $(BENCH_SRCS:bench/%.c=$(BUILD)/bench/%)

.PHONY: tests-build fuzz-build bench-build
tests-build: $(UNIT_BINS) $(TOOL_BINS) $(TOOL_SOS) $(BENCH_BINS)

$(foreach t,$(UNIT_SRCS),$(eval $(t:tests/unit/%.c=$(BUILD)/tests/%): $(call link_deps_of,$(t))))
$(BUILD)/tests/test_%: tests/unit/test_%.c
	@mkdir -p $(dir $@)
	$(Q)$(call quiet,LD,$@)$(CC) $(ALL_CFLAGS) $(DRM_CFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(YAJL_LIBS) $(MHD_LIBS) $(CURSES_LIBS) $(LDLIBS_ALL)

$(foreach t,$(TOOL_SRCS),$(eval $(t:tests/tools/%.c=$(BUILD)/tests/%): $(call link_deps_of,$(t))))
$(BUILD)/tests/%: tests/tools/%.c
	@mkdir -p $(dir $@)
	$(Q)$(call quiet,LD,$@)$(CC) $(ALL_CFLAGS) $(DRM_CFLAGS) -o $@ $^ $(YAJL_LIBS) $(MHD_LIBS) $(CURSES_LIBS) $(LDLIBS_ALL)

# The simulated machine of make demo builds its tree with tests/lib/fakeproc.
$(BUILD)/tests/demo_tree: $(BUILD)/obj/tests/lib/fakeproc.o

# The fake plugin (tests/tools/fake_plugin_ops.h) behind both hosts.
$(BUILD)/tests/fake_plugin: $(BUILD)/obj/tests/tools/fake_plugin_ops.o
$(BUILD)/tests/fake_multi: $(BUILD)/obj/tests/tools/fake_plugin_ops.o
$(BUILD)/tests/fake_plugin.so: $(BUILD)/obj/tests/tools/fake_plugin_ops.o \
    $(BUILD)/obj/tests/tools/fake_plugin_module.o \
    $(BUILD)/obj/common/collectd/host_collectd.o $(LIBCOMMON)
	@mkdir -p $(dir $@)
	$(Q)$(call quiet,LD,$@)$(CC) $(SAN_FLAGS) -shared -o $@ $^ $(LDLIBS_ALL) -lc

# libFuzzer targets always build with clang into build/fuzz. The common
# sources are compiled once with the fuzz flags into an archive each target
# links (only the members it uses); common/collectd/host_collectd.c (collectd
# headers) is not in COMMON_SRCS, and the exec host, its HTTP server and the
# terminal view (ncurses) are left out too. Headers are prerequisites only.
FUZZ_COMMON_SRCS := $(filter-out common/exec/host_exec.c common/exec/exec_%.c common/http/prom_http%.c common/top/top_view.c,$(COMMON_SRCS))
FUZZ_COMMON_LIB  := build/fuzz/libcommon.a
fuzz-build: $(FUZZ_BINS)
build/fuzz/obj/%.o: %.c $(wildcard common/*/*.h)
	@mkdir -p $(dir $@)
	$(Q)$(call quiet,CC,$@)$(CLANG) $(FUZZ_FLAGS) $(DRM_CFLAGS) -c $< -o $@
$(FUZZ_COMMON_LIB): $(FUZZ_COMMON_SRCS:%.c=build/fuzz/obj/%.o)
	@rm -f $@
	$(Q)$(call quiet,AR,$@)ar rcs $@ $^
build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_COMMON_LIB) $(wildcard common/*/*.h)
	@mkdir -p $(dir $@)
	$(Q)$(call quiet,FUZZ,$@)$(CLANG) $(FUZZ_FLAGS) $(DRM_CFLAGS) -o $@ $(filter %.c,$^) $(FUZZ_COMMON_LIB) $(YAJL_LIBS) $(FUZZ_LIBS) -lm

# --web-config's parser: the one part of the HTTP server that is pure.
build/fuzz/fuzz_prom_http_web: common/http/prom_http_web.c
build/fuzz/fuzz_prom_http_web: FUZZ_LIBS := -lcrypt

# The executables' command line: pure, though in the exec host's folder.
build/fuzz/fuzz_exec_args: common/exec/exec_args.c

# The whole i915_oa Replay path: the plugin core too (not its hosts).
build/fuzz/fuzz_oa_replay: $(call core_srcs,i915_oa) $(wildcard plugins/i915_oa/*.h)

fuzz: deps-test
	@$(MAKE) --no-print-directory fuzz-build
	@tests/fuzz/run.sh 60

bench-build: $(BENCH_BINS)
$(foreach b,$(BENCH_SRCS),$(eval $(b:bench/%.c=$(BUILD)/bench/%): $(call link_deps_of,$(b))))
$(BUILD)/bench/%: bench/%.c
	@mkdir -p $(dir $@)
	$(Q)$(call quiet,LD,$@)$(CC) $(ALL_CFLAGS) $(DRM_CFLAGS) -o $@ $^ $(YAJL_LIBS) $(MHD_LIBS) $(CURSES_LIBS) $(LDLIBS_ALL)
$(foreach b,$(shell grep -l '"bench/bench_util.h"' $(BENCH_SRCS)),$(b:bench/%.c=$(BUILD)/bench/%)): \
    $(BUILD)/obj/bench/alloc_count.o
# i915_oa's live path reads the shim's i915 device in-process.
$(BUILD)/bench/bench_i915_live: $(SHIM_LIB)

# The kernel emulation (tests/shim/): libshim.a for in-process tests
# (shim_kernel), tests/shim.so for LD_PRELOAD, the same core plus the
# interposers of shim_preload.c, exporting only those.
tests-build: $(SHIM_SO)
$(SHIM_LIB): $(SHIM_CORE_SRCS:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/tests/shim/shim_libc.o
	@rm -f $@
	$(Q)$(call quiet,AR,$@)ar rcs $@ $^
$(SHIM_SO): $(SHIM_CORE_SRCS) tests/shim/shim_preload.c $(wildcard tests/shim/*.h)
	@mkdir -p $(dir $@)
	$(Q)$(call quiet,CC,$@)$(CC) -std=c11 -D_GNU_SOURCE -I. $(WARN) -fPIC -shared -fvisibility=hidden \
	  $(SAN_FLAGS) $(CFLAGS) $(DRM_CFLAGS) -o $@ $(filter %.c,$^) -ldl -pthread
