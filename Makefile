# collectd GPU/SoC telemetry plugins: one entry point for build, test, demo,
# bench, fuzz and install. See README.md.

PLUGINS      := drm_fdinfo tegra410_uncore panthor_perf i915_oa
CC           ?= cc
CLANG        ?= clang
PREFIX       ?= /usr
DESTDIR      ?=
PLUGIN_DIR   ?= $(PREFIX)/lib/collectd
SHARE_DIR    ?= $(PREFIX)/share/collectd
CONF_DIR     ?= /etc/collectd/collectd.conf.d
BIN_DIR      ?= $(PREFIX)/bin
# collectd's own types, which it stops reading once any TypesDB line exists
COLLECTD_TYPES_DB ?= /usr/share/collectd/types.db

ifeq ($(SANITIZE),1)
BUILD        ?= build/sanitize
SAN_FLAGS    := -fsanitize=address,undefined -fno-omit-frame-pointer \
                -fno-sanitize-recover=undefined
# Under clang, also float-to-integer conversions out of range: UB that
# -fsanitize=undefined leaves out.
ifneq ($(findstring clang,$(shell $(CC) --version 2>/dev/null | head -n 1)),)
SAN_FLAGS    += -fsanitize=float-cast-overflow \
                -fno-sanitize-recover=float-cast-overflow
endif
else
BUILD        ?= build
SAN_FLAGS    :=
endif

WARN         := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
                -Wmissing-prototypes -Wformat=2
# DWARF 4: valgrind 3.19 (Debian 12) cannot read clang 14's DWARF 5.
CFLAGS       ?= -O2 -g -gdwarf-4
# Hidden by default: collectd loads every plugin into one process, so a
# plugin .so exports only module_register (marked visibility("default") in
# plugins/*/module.c); tests/e2e/symbols.sh checks it. Static links (the
# executables, tests, bench) are unaffected.
VISIBILITY   := -fvisibility=hidden
ALL_CFLAGS   := -std=c11 -D_GNU_SOURCE -I. $(WARN) -fPIC $(VISIBILITY) $(SAN_FLAGS) $(CFLAGS)
DRM_CFLAGS   := $(shell pkg-config --cflags libdrm 2>/dev/null)
YAJL_LIBS    := -lyajl
LDLIBS_ALL   := -lm -pthread
COLLECTD_CFLAGS := -DHAVE_CONFIG_H -I/usr/include/collectd

COMMON_SRCS  := $(filter-out common/host/host_collectd.c,$(wildcard common/*/*.c))
COMMON_OBJS  := $(COMMON_SRCS:%.c=$(BUILD)/obj/%.o)
LIBCOMMON    := $(BUILD)/libcommon.a

# Per plugin: plugins/<p>/*.c minus the two host entry points.
core_srcs     = $(filter-out plugins/$(1)/module.c plugins/$(1)/main.c,$(wildcard plugins/$(1)/*.c))
core_objs     = $(call core_srcs,$(1):%.c=$(BUILD)/obj/%.o)

.PHONY: all test demo bench fuzz install check clean deps-build deps-test unit
all: $(foreach p,$(PLUGINS),$(BUILD)/$(p).so $(BUILD)/$(p))

# Objects depend on the Makefile: a flag change (VISIBILITY) rebuilds them.
$(BUILD)/obj/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DRM_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/obj/common/host/host_collectd.o: common/host/host_collectd.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(COLLECTD_CFLAGS) -MMD -MP -c $< -o $@

$(LIBCOMMON): $(COMMON_OBJS)
	@rm -f $@
	ar rcs $@ $^

define plugin_rules
$(1)_CORE := $$(patsubst %.c,$(BUILD)/obj/%.o,$$(call core_srcs,$(1)))
$(BUILD)/$(1).so: $$($(1)_CORE) $(BUILD)/obj/plugins/$(1)/module.o $(BUILD)/obj/common/host/host_collectd.o $(LIBCOMMON)
	$(CC) $(SAN_FLAGS) $(LDFLAGS) -shared -o $$@ $$^ $(LDLIBS_ALL) -lc
$(BUILD)/$(1): $$($(1)_CORE) $(BUILD)/obj/plugins/$(1)/main.o $(LIBCOMMON)
	$(CC) $(SAN_FLAGS) $(LDFLAGS) -o $$@ $$^ $(YAJL_LIBS) $(LDLIBS_ALL)
endef
$(foreach p,$(PLUGINS),$(eval $(call plugin_rules,$(p))))

# Keep intermediate objects (tests/lib, bench) between runs.
.SECONDARY:

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

include tests/tests.mk

deps-build:
	@tools/deps.sh build
deps-test:
	@tools/deps.sh test

test: deps-test
	@$(MAKE) --no-print-directory all tests-build
	@BUILD=$(BUILD) SANITIZE=$(SANITIZE) tests/run.sh

demo: deps-test
	@$(MAKE) --no-print-directory all tests-build
	@BUILD=$(BUILD) tools/demo.sh

bench: deps-build
	@$(MAKE) --no-print-directory all bench-build
	@BUILD=$(BUILD) bench/run.sh

check:
	clang-format --dry-run -Werror $$(git ls-files '*.c' '*.h')

install: all
	install -d $(DESTDIR)$(PLUGIN_DIR) $(DESTDIR)$(BIN_DIR) $(DESTDIR)$(SHARE_DIR) $(DESTDIR)$(CONF_DIR)
	install -m 0644 $(foreach p,$(PLUGINS),$(BUILD)/$(p).so) $(DESTDIR)$(PLUGIN_DIR)/
	install -m 0755 $(foreach p,$(PLUGINS),$(BUILD)/$(p)) $(DESTDIR)$(BIN_DIR)/
	install -m 0644 types.db $(DESTDIR)$(SHARE_DIR)/types.gpu.db
	install -m 0644 $(foreach p,$(PLUGINS),conf.d/$(p).conf) $(DESTDIR)$(CONF_DIR)/
	sed 's|@DEFAULT_TYPES_DB@|$(COLLECTD_TYPES_DB)|; s|@GPU_TYPES_DB@|$(SHARE_DIR)/types.gpu.db|' \
	  conf.d/gpu-types.conf.in >$(DESTDIR)$(CONF_DIR)/gpu-types.conf
	chmod 0644 $(DESTDIR)$(CONF_DIR)/gpu-types.conf
	install -d $(DESTDIR)$(SHARE_DIR)/telegraf
	install -m 0644 conf.d/telegraf-*.conf $(DESTDIR)$(SHARE_DIR)/telegraf/

clean:
	rm -rf build
