# collectd GPU/SoC telemetry plugins: one entry point for build, test, demo,
# bench, fuzz and install. See README.md and HACKING.md.

# The plugins: plugins/plugins.manifest's one line; what each needs beyond
# plugins/<p>/*.c: plugins/<p>/plugin.manifest (HACKING.md, "Adding a plugin").
manifest      = $(shell sed -n 's/^$(2)[[:space:]]*=[[:space:]]*//p' $(1))
PLUGINS      := $(call manifest,plugins/plugins.manifest,plugins)
plugin_key    = $(call manifest,plugins/$(1)/plugin.manifest,$(2))
CC           ?= cc
CLANG        ?= clang
PREFIX       ?= /usr
DESTDIR      ?=
PLUGIN_DIR   ?= $(PREFIX)/lib/collectd
SHARE_DIR    ?= $(PREFIX)/share/collectd
CONF_DIR     ?= /etc/collectd/collectd.conf.d
BIN_DIR      ?= $(PREFIX)/bin
MAN_DIR      ?= $(PREFIX)/share/man
DOC_DIR      ?= $(PREFIX)/share/doc/collectd-gpu-plugins
# gpu-telemetry's service (installed disabled) and its arguments
SYSTEMD_UNIT_DIR ?= $(PREFIX)/lib/systemd/system
DEFAULT_DIR  ?= /etc/default
# Grafana dashboards and Prometheus rules, for every way to run
DASHBOARD_DIR ?= $(PREFIX)/share/gpu-telemetry
# collectd's compiled-in plugin directory (Debian's). When PLUGIN_DIR is
# another, each installed snippet sets PluginDir around its LoadPlugin and
# sets this one back, so plugins loaded after it are found where they were.
COLLECTD_PLUGIN_DIR ?= /usr/lib/collectd
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
# CPPFLAGS: Debian's build flags put -D_FORTIFY_SOURCE=2 there.
ALL_CFLAGS   := $(CPPFLAGS) -std=c11 -D_GNU_SOURCE -I. $(WARN) -fPIC $(VISIBILITY) $(SAN_FLAGS) $(CFLAGS)
DRM_CFLAGS   := $(shell pkg-config --cflags libdrm 2>/dev/null)
YAJL_LIBS    := -lyajl
# libmicrohttpd: the executables' --listen (common/http/prom_http.c) only;
# the collectd plugins never link it.
MHD_CFLAGS   := $(shell pkg-config --cflags libmicrohttpd 2>/dev/null)
MHD_LIBS     := $(shell pkg-config --libs libmicrohttpd 2>/dev/null || echo -lmicrohttpd) -lz -lcrypt
# The executables' --format=top (common/top/top_view.c); the collectd
# plugins never link it.
CURSES_LIBS  := $(shell pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw -ltinfo)
LDLIBS_ALL   := -lm -pthread
COLLECTD_CFLAGS := -DHAVE_CONFIG_H -I/usr/include/collectd

# Build lines: one short line per step ("CC common/core/metric.c"); V=1
# prints the whole command; make -s prints neither.
ifeq ($(V),1)
Q            :=
quiet         =
else
Q            := @
ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
quiet         =
else
quiet         = printf '  %-6s %s\n' $(1) $(2);
endif
endif

COMMON_SRCS  := $(filter-out common/collectd/host_collectd.c,$(wildcard common/*/*.c))
COMMON_OBJS  := $(COMMON_SRCS:%.c=$(BUILD)/obj/%.o)
LIBCOMMON    := $(BUILD)/libcommon.a

# Per plugin: plugins/<p>/*.c minus the two host entry points.
core_srcs     = $(filter-out plugins/$(1)/module.c plugins/$(1)/main.c,$(wildcard plugins/$(1)/*.c))
core_objs     = $(call core_srcs,$(1):%.c=$(BUILD)/obj/%.o)

.PHONY: all test demo demo-top bench fuzz install uninstall check clean deps-build deps-test deps-demo unit
all: $(foreach p,$(PLUGINS),$(BUILD)/$(p).so $(BUILD)/$(p)) $(BUILD)/gpu-telemetry $(BUILD)/types.gpu.db man

# The installed types db: types.db, then each plugin's types_db fragment.
TYPES_DB_PARTS := $(foreach p,$(PLUGINS),$(call plugin_key,$(p),types_db))
$(BUILD)/types.gpu.db: types.db $(TYPES_DB_PARTS) plugins/plugins.manifest
	@mkdir -p $(dir $@)
	$(Q)$(call quiet,GEN,$@){ cat types.db; for f in $(TYPES_DB_PARTS); do echo; cat $$f; done; } >$@

# Objects depend on the Makefile: a flag change (VISIBILITY) rebuilds them.
$(BUILD)/obj/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(Q)$(call quiet,CC,$<)$(CC) $(ALL_CFLAGS) $(DRM_CFLAGS) -MMD -MP -c $< -o $@

# The executables' --version: the package version, from debian/changelog.
VERSION      := $(shell sed -n '1s/.*(\(.*\)).*/\1/p' debian/changelog)
EXEC_HOST_OBJS := $(patsubst %,$(BUILD)/obj/common/exec/%.o,host_exec exec_help exec_prom)
$(EXEC_HOST_OBJS): ALL_CFLAGS += -DHOST_EXEC_VERSION='"$(VERSION)"'
$(EXEC_HOST_OBJS): debian/changelog

$(BUILD)/obj/common/http/prom_http.o: ALL_CFLAGS += $(MHD_CFLAGS)

# The man pages carry the same version and the changelog's month: each
# plugin's page with its .TH version field set, and collectd-gpu-plugins(5)
# written from every plugin's option table (tools/man5.sh).
MAN_DATE     := $(shell LC_ALL=C date -u -d "$$(sed -n 's/^ -- .*>  //p' debian/changelog | head -n 1)" '+%B %Y' 2>/dev/null)
BUILT_MAN1    = $(foreach p,$(PLUGINS),$(BUILD)/man/$(notdir $(call plugin_key,$(p),man_page))) \
                $(BUILD)/man/gpu-telemetry.1
BUILT_MAN5   := $(BUILD)/man/collectd-gpu-plugins.5
.PHONY: man
man: $(BUILT_MAN1) $(BUILT_MAN5)
$(BUILT_MAN5): tools/man5.sh docs/collectd-gpu-plugins.5.in debian/changelog $(foreach p,$(PLUGINS),$(BUILD)/$(p))
	@mkdir -p $(dir $@)
	$(Q)$(call quiet,GEN,$@)tools/man5.sh "$(VERSION)" "$(MAN_DATE)" $(foreach p,$(PLUGINS),$(BUILD)/$(p)) >$@.tmp && mv $@.tmp $@

$(BUILD)/obj/common/collectd/host_collectd.o: common/collectd/host_collectd.c Makefile
	@mkdir -p $(dir $@)
	$(Q)$(call quiet,CC,$<)$(CC) $(ALL_CFLAGS) $(COLLECTD_CFLAGS) -MMD -MP -c $< -o $@

$(LIBCOMMON): $(COMMON_OBJS)
	@rm -f $@
	$(Q)$(call quiet,AR,$@)ar rcs $@ $^

define plugin_rules
$(1)_CORE := $$(patsubst %.c,$(BUILD)/obj/%.o,$$(call core_srcs,$(1)))
$(BUILD)/$(1).so: $$($(1)_CORE) $(BUILD)/obj/plugins/$(1)/module.o $(BUILD)/obj/common/collectd/host_collectd.o $(LIBCOMMON)
	$(Q)$(call quiet,LD,$$@)$(CC) $(SAN_FLAGS) $(LDFLAGS) -shared -o $$@ $$^ $(YAJL_LIBS) $(LDLIBS_ALL) -lc
$(BUILD)/$(1): $$($(1)_CORE) $(BUILD)/obj/plugins/$(1)/main.o $(LIBCOMMON)
	$(Q)$(call quiet,LD,$$@)$(CC) $(SAN_FLAGS) $(LDFLAGS) -o $$@ $$^ $(YAJL_LIBS) $(MHD_LIBS) $(CURSES_LIBS) $(LDLIBS_ALL)
endef
$(foreach p,$(PLUGINS),$(eval $(call plugin_rules,$(p))))
define man1_rule
$(BUILD)/man/$(notdir $(call plugin_key,$(1),man_page)): $(call plugin_key,$(1),man_page) debian/changelog
	@mkdir -p $$(dir $$@)
	$(Q)$$(call quiet,GEN,$$@)sed -E '1s/^(\.TH +[^ ]+ +[0-9] +)"[^"]*" +"[^"]*"/\1"$(MAN_DATE)" "collectd-gpu-plugins $(VERSION)"/' $$< >$$@
endef
$(foreach p,$(PLUGINS),$(eval $(call man1_rule,$(p))))
$(BUILD)/man/gpu-telemetry.1: gpu_telemetry/gpu-telemetry.1 debian/changelog
	@mkdir -p $(dir $@)
	$(Q)$(call quiet,GEN,$@)sed -E '1s/^(\.TH +[^ ]+ +[0-9] +)"[^"]*" +"[^"]*"/\1"$(MAN_DATE)" "collectd-gpu-plugins $(VERSION)"/' $< >$@

# gpu-telemetry: every plugin's core in one executable. Its table of
# plugins is generated from the manifest (plugin <p>: <p>_ops, declared in
# plugins/<p>/<p>.h).
$(BUILD)/gen/gpu_telemetry_plugins.c: plugins/plugins.manifest Makefile
	@mkdir -p $(dir $@)
	$(Q)$(call quiet,GEN,$@){ echo '/* generated by the Makefile from plugins/plugins.manifest */'; \
	  for p in $(PLUGINS); do echo "#include \"plugins/$$p/$$p.h\""; done; \
	  echo '#include <stddef.h>'; \
	  echo 'extern const struct plugin_ops *const gpu_telemetry_plugins[];'; \
	  echo 'extern const size_t gpu_telemetry_n_plugins;'; \
	  echo 'const struct plugin_ops *const gpu_telemetry_plugins[] = {'; \
	  for p in $(PLUGINS); do echo "  &$${p}_ops,"; done; \
	  echo '};'; \
	  echo 'const size_t gpu_telemetry_n_plugins = sizeof(gpu_telemetry_plugins) / sizeof(gpu_telemetry_plugins[0]);'; } >$@
$(BUILD)/obj/gen/gpu_telemetry_plugins.o: $(BUILD)/gen/gpu_telemetry_plugins.c Makefile
	@mkdir -p $(dir $@)
	$(Q)$(call quiet,CC,$<)$(CC) $(ALL_CFLAGS) $(DRM_CFLAGS) -MMD -MP -c $< -o $@
ALL_CORE_OBJS := $(foreach p,$(PLUGINS),$($(p)_CORE))
$(BUILD)/gpu-telemetry: $(ALL_CORE_OBJS) $(BUILD)/obj/gpu_telemetry/main.o $(BUILD)/obj/gen/gpu_telemetry_plugins.o $(LIBCOMMON)
	$(Q)$(call quiet,LD,$@)$(CC) $(SAN_FLAGS) $(LDFLAGS) -o $@ $^ $(YAJL_LIBS) $(MHD_LIBS) $(CURSES_LIBS) $(LDLIBS_ALL)

# Keep intermediate objects (tests/lib, bench) between runs.
.SECONDARY:

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

include tests/tests.mk

deps-build:
	@tools/deps.sh build
deps-demo:
	@tools/deps.sh demo
deps-test:
	@tools/deps.sh test

test: deps-test
	@echo "make test: building the plugins, executables and test programs (about 60 s on 2 cores)"
	@$(MAKE) --no-print-directory all tests-build
	@echo "make test: running every test layer (about 20 min on 2 cores; a line per test program)"
	@BUILD=$(BUILD) SANITIZE=$(SANITIZE) tests/run.sh

# The demo needs the plugins, the simulated machine and the shim only.
demo: deps-demo
	@[ "$$(id -u)" = 0 ] || echo "make demo: not root: only the executables on emulated devices will run (collectd's simulated machine needs mknod: sudo make demo)"
	@echo "make demo: building the plugins and the simulated machine (about 30 s on 2 cores)"
	@$(MAKE) --no-print-directory all $(BUILD)/tests/demo_tree $(BUILD)/tests/ddv_tree $(SHIM_SO)
	@BUILD=$(BUILD) tools/demo.sh

# gpu-telemetry's live view on the demo's simulated machine, until q.
demo-top: deps-demo
	@$(MAKE) --no-print-directory all $(BUILD)/tests/demo_tree $(BUILD)/tests/ddv_tree $(SHIM_SO)
	@BUILD=$(BUILD) tools/demo.sh --top

bench: deps-build
	@$(MAKE) --no-print-directory all bench-build tests-build
	@BUILD=$(BUILD) bench/run.sh

check:
	clang-format --dry-run -Werror $$(git ls-files '*.c' '*.h')

# The snippets go where collectd reads them (CONF_DIR). With a PLUGIN_DIR
# other than collectd's own, "LoadPlugin <p>" becomes PluginDir PLUGIN_DIR,
# LoadPlugin <p>, PluginDir COLLECTD_PLUGIN_DIR, so any PREFIX gives a
# daemon that starts (tests/e2e/install_collectd.sh, install_prefix.sh).
INSTALLED_SNIPPETS = $(foreach p,$(PLUGINS),$(CONF_DIR)/$(p).conf) $(CONF_DIR)/gpu-types.conf
# <plugin>:<its collectd snippet>, its man page, its Telegraf snippets
SNIPPET_PAIRS      = $(foreach p,$(PLUGINS),$(p):$(call plugin_key,$(p),collectd_snippet))
MAN_PAGES          = $(foreach p,$(PLUGINS),$(call plugin_key,$(p),man_page))
TELEGRAF_SNIPPETS  = $(foreach p,$(PLUGINS),$(call plugin_key,$(p),telegraf_snippets))
# gpu-telemetry's, running every plugin in one process
GPU_TELEMETRY_SNIPPETS = conf.d/telegraf-gpu-telemetry-execd-influx.conf conf.d/telegraf-gpu-telemetry-execd-json.conf
# The documentation keeps its tree under DOC_DIR, so its links work there:
# README.md and HACKING.md, docs/*.md, plugins/<p>/README.md.
TOP_DOCS           = README.md HACKING.md
SHARED_DOCS        = $(sort $(wildcard docs/*.md))
# dashboards/grafana/<plugin>-<schema>.json, dashboards/prometheus/*.yml
# but the rules' own unit tests
DASHBOARDS         = $(sort $(wildcard dashboards/grafana/*.json))
PROM_RULES         = $(sort $(filter-out %.test.yml,$(wildcard dashboards/prometheus/*.yml)))
install: all
	install -d $(DESTDIR)$(PLUGIN_DIR) $(DESTDIR)$(BIN_DIR) $(DESTDIR)$(SHARE_DIR) $(DESTDIR)$(CONF_DIR) \
	  $(DESTDIR)$(MAN_DIR)/man1 $(DESTDIR)$(MAN_DIR)/man5 $(DESTDIR)$(DOC_DIR)/docs $(DESTDIR)$(SHARE_DIR)/telegraf \
	  $(foreach p,$(PLUGINS),$(DESTDIR)$(DOC_DIR)/plugins/$(p)) \
	  $(DESTDIR)$(DASHBOARD_DIR)/grafana $(DESTDIR)$(DASHBOARD_DIR)/prometheus
	install -m 0644 $(foreach p,$(PLUGINS),$(BUILD)/$(p).so) $(DESTDIR)$(PLUGIN_DIR)/
	install -m 0755 $(foreach p,$(PLUGINS),$(BUILD)/$(p)) $(BUILD)/gpu-telemetry $(DESTDIR)$(BIN_DIR)/
	install -m 0644 $(BUILT_MAN1) $(DESTDIR)$(MAN_DIR)/man1/
	install -m 0644 $(BUILT_MAN5) $(DESTDIR)$(MAN_DIR)/man5/
	install -d $(DESTDIR)$(SYSTEMD_UNIT_DIR) $(DESTDIR)$(DEFAULT_DIR)
	install -m 0644 gpu_telemetry/gpu-telemetry.service $(DESTDIR)$(SYSTEMD_UNIT_DIR)/
	install -m 0644 gpu_telemetry/gpu-telemetry.default $(DESTDIR)$(DEFAULT_DIR)/gpu-telemetry
	install -m 0644 $(TOP_DOCS) $(DESTDIR)$(DOC_DIR)/
	install -m 0644 $(SHARED_DOCS) $(DESTDIR)$(DOC_DIR)/docs/
	@set -e; for p in $(PLUGINS); do \
	  echo "install -m 0644 plugins/$$p/README.md $(DESTDIR)$(DOC_DIR)/plugins/$$p/"; \
	  install -m 0644 plugins/$$p/README.md $(DESTDIR)$(DOC_DIR)/plugins/$$p/; \
	done
	install -m 0644 $(BUILD)/types.gpu.db $(DESTDIR)$(SHARE_DIR)/types.gpu.db
	install -m 0644 $(DASHBOARDS) $(DESTDIR)$(DASHBOARD_DIR)/grafana/
	install -m 0644 $(PROM_RULES) $(DESTDIR)$(DASHBOARD_DIR)/prometheus/
	@set -e; for ps in $(SNIPPET_PAIRS); do p=$${ps%%:*}; src=$${ps#*:}; \
	  grep -qx "LoadPlugin $$p" $$src || { echo "$$src: no line \"LoadPlugin $$p\"" >&2; exit 1; }; \
	  if [ "$(PLUGIN_DIR)" = "$(COLLECTD_PLUGIN_DIR)" ]; then \
	    echo "install -m 0644 $$src $(DESTDIR)$(CONF_DIR)/$$p.conf"; \
	    install -m 0644 $$src $(DESTDIR)$(CONF_DIR)/$$p.conf; \
	  else \
	    echo "$$src -> $(DESTDIR)$(CONF_DIR)/$$p.conf (PluginDir $(PLUGIN_DIR))"; \
	    sed 's|^LoadPlugin '"$$p"'$$|PluginDir "$(PLUGIN_DIR)"\nLoadPlugin '"$$p"'\nPluginDir "$(COLLECTD_PLUGIN_DIR)"|' \
	      $$src >$(DESTDIR)$(CONF_DIR)/$$p.conf; \
	    chmod 0644 $(DESTDIR)$(CONF_DIR)/$$p.conf; \
	  fi; \
	done
	sed 's|@DEFAULT_TYPES_DB@|$(COLLECTD_TYPES_DB)|; s|@GPU_TYPES_DB@|$(SHARE_DIR)/types.gpu.db|' \
	  conf.d/gpu-types.conf.in >$(DESTDIR)$(CONF_DIR)/gpu-types.conf
	chmod 0644 $(DESTDIR)$(CONF_DIR)/gpu-types.conf
	install -m 0644 $(TELEGRAF_SNIPPETS) $(GPU_TELEMETRY_SNIPPETS) $(DESTDIR)$(SHARE_DIR)/telegraf/

# Removes what install put there, snippets first (a local edit of one goes
# too); the directories stay, collectd's conf dir among them (its Include
# fails on a missing directory).
uninstall:
	rm -f $(foreach f,$(INSTALLED_SNIPPETS),$(DESTDIR)$(f))
	rm -f $(foreach p,$(PLUGINS),$(DESTDIR)$(PLUGIN_DIR)/$(p).so $(DESTDIR)$(BIN_DIR)/$(p)) \
	  $(addprefix $(DESTDIR)$(MAN_DIR)/man1/,$(notdir $(BUILT_MAN1))) \
	  $(DESTDIR)$(MAN_DIR)/man5/$(notdir $(BUILT_MAN5)) \
	  $(DESTDIR)$(BIN_DIR)/gpu-telemetry $(DESTDIR)$(SYSTEMD_UNIT_DIR)/gpu-telemetry.service \
	  $(DESTDIR)$(DEFAULT_DIR)/gpu-telemetry
	rm -f $(DESTDIR)$(SHARE_DIR)/types.gpu.db $(addprefix $(DESTDIR)$(DOC_DIR)/,$(TOP_DOCS)) \
	  $(addprefix $(DESTDIR)$(DOC_DIR)/docs/,$(notdir $(SHARED_DOCS))) \
	  $(foreach p,$(PLUGINS),$(DESTDIR)$(DOC_DIR)/plugins/$(p)/README.md)
	rm -f $(addprefix $(DESTDIR)$(SHARE_DIR)/telegraf/,$(notdir $(TELEGRAF_SNIPPETS) $(GPU_TELEMETRY_SNIPPETS)))
	rm -f $(addprefix $(DESTDIR)$(DASHBOARD_DIR)/grafana/,$(notdir $(DASHBOARDS))) \
	  $(addprefix $(DESTDIR)$(DASHBOARD_DIR)/prometheus/,$(notdir $(PROM_RULES)))
	-rmdir $(DESTDIR)$(DASHBOARD_DIR)/grafana $(DESTDIR)$(DASHBOARD_DIR)/prometheus $(DESTDIR)$(DASHBOARD_DIR) 2>/dev/null
	-rmdir $(foreach p,$(PLUGINS),$(DESTDIR)$(DOC_DIR)/plugins/$(p)) $(DESTDIR)$(DOC_DIR)/plugins \
	  $(DESTDIR)$(DOC_DIR)/docs $(DESTDIR)$(SHARE_DIR)/telegraf $(DESTDIR)$(DOC_DIR) 2>/dev/null

clean:
	rm -rf build
