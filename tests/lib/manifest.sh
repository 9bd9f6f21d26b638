# The plugin manifests (HACKING.md, "Adding a plugin") for shell tests.
# Source it from the source root; then:
#   manifest_plugins            the names on the line of plugins/plugins.manifest
#   manifest_key PLUGIN KEY     one key of plugins/PLUGIN/plugin.manifest
#   manifest_shim_drivers       every plugin's shim_drivers, comma-separated
manifest_get() { # file key
  sed -n "s/^$2[[:space:]]*=[[:space:]]*//p" "$1"
}
manifest_plugins() { manifest_get plugins/plugins.manifest plugins; }
manifest_key() { manifest_get "plugins/$1/plugin.manifest" "$2"; }
manifest_shim_drivers() {
  local p d out=()
  for p in $(manifest_plugins); do
    for d in $(manifest_key "$p" shim_drivers); do out+=("$d"); done
  done
  (IFS=,; echo "${out[*]}")
}
