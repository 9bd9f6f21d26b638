# Fake plugin (build/tests/fake_plugin.so) Field blocks for every type of a
# types.db file, so that a daemon proves each one resolves: the field of
# type T is named after T and written as csv <T>-fake_<T>.
#   types_fields TYPES_DB      the <Field> blocks on stdout
#   types_names TYPES_DB       the type names, one per line
types_names() {
  awk '!/^[[:space:]]*(#|$)/ { print $1 }' "$1"
}
types_fields() {
  local t
  for t in $(types_names "$1"); do
    printf '  <Field "%s">\n    Value 5\n    Type "%s"\n  </Field>\n' "$t" "$t"
  done
}
