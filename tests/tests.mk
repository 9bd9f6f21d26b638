# Test, fuzz and bench builds (included by the top-level Makefile).

CMOCKA_LIBS  := -lcmocka
UNIT_SRCS    := $(wildcard tests/unit/test_*.c)
UNIT_BINS    := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
ALL_CORE_OBJS = $(foreach p,$(PLUGINS),$($(p)_CORE))
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

BENCH_SRCS   := $(wildcard bench/*.c)
BENCH_BINS   := $(BENCH_SRCS:bench/%.c=$(BUILD)/bench/%)

.PHONY: tests-build fuzz-build bench-build
tests-build: $(UNIT_BINS) $(TOOL_BINS) $(TOOL_SOS)

$(BUILD)/tests/test_%: tests/unit/test_%.c $(ALL_CORE_OBJS) $(TEST_LIB_OBJS) $(SHIM_LIB) $(LIBCOMMON)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DRM_CFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(YAJL_LIBS) $(LDLIBS_ALL)

$(BUILD)/tests/%: tests/tools/%.c $(ALL_CORE_OBJS) $(LIBCOMMON)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DRM_CFLAGS) -o $@ $^ $(YAJL_LIBS) $(LDLIBS_ALL)

# The simulated machine of make demo builds its tree with tests/lib/fakeproc.
$(BUILD)/tests/demo_tree: $(BUILD)/obj/tests/lib/fakeproc.o

# The fake plugin (tests/tools/fake_plugin_ops.h) behind both hosts.
$(BUILD)/tests/fake_plugin: $(BUILD)/obj/tests/tools/fake_plugin_ops.o
$(BUILD)/tests/fake_plugin.so: $(BUILD)/obj/tests/tools/fake_plugin_ops.o \
    $(BUILD)/obj/tests/tools/fake_plugin_module.o \
    $(BUILD)/obj/common/host/host_collectd.o $(LIBCOMMON)
	@mkdir -p $(dir $@)
	$(CC) $(SAN_FLAGS) -shared -o $@ $^ $(LDLIBS_ALL) -lc

# libFuzzer targets always build with clang, from sources, into build/fuzz.
fuzz-build: $(FUZZ_BINS)
# common/host/host_collectd.c (collectd headers) is not in COMMON_SRCS; the exec
# host is left out too. Headers are prerequisites only.
build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(filter-out common/host/host_exec.c,$(COMMON_SRCS)) $(wildcard common/*/*.h)
	@mkdir -p $(dir $@)
	$(CLANG) $(FUZZ_FLAGS) $(DRM_CFLAGS) -o $@ $(filter %.c,$^) $(YAJL_LIBS) -lm

# The whole i915_oa Replay path: the plugin core too (not its hosts).
build/fuzz/fuzz_oa_replay: $(call core_srcs,i915_oa) $(wildcard plugins/i915_oa/*.h)

fuzz: deps-test
	@$(MAKE) --no-print-directory fuzz-build
	@tests/fuzz/run.sh 60

bench-build: $(BENCH_BINS)
# Benchmarks link no cmocka: leave out the test fixtures that assert.
BENCH_LIB_OBJS := $(filter-out %/dfi_fixture.o,$(TEST_LIB_OBJS))
$(BUILD)/bench/%: bench/%.c $(ALL_CORE_OBJS) $(BENCH_LIB_OBJS) $(LIBCOMMON)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DRM_CFLAGS) -o $@ $^ $(YAJL_LIBS) $(LDLIBS_ALL)
# i915_oa's live path reads the shim's i915 device in-process.
$(BUILD)/bench/bench_i915_live: $(SHIM_LIB)

# The kernel emulation (tests/shim/): libshim.a for in-process tests
# (shim_kernel), tests/shim.so for LD_PRELOAD, the same core plus the
# interposers of shim_preload.c, exporting only those.
tests-build: $(SHIM_SO)
$(SHIM_LIB): $(SHIM_CORE_SRCS:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/tests/shim/shim_libc.o
	@rm -f $@
	ar rcs $@ $^
$(SHIM_SO): $(SHIM_CORE_SRCS) tests/shim/shim_preload.c $(wildcard tests/shim/*.h)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE -I. $(WARN) -fPIC -shared -fvisibility=hidden \
	  $(SAN_FLAGS) $(CFLAGS) $(DRM_CFLAGS) -o $@ $(filter %.c,$^) -ldl -pthread
