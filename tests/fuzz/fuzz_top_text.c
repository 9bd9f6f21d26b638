/*
 * fuzz_top_text.c: libFuzzer target for the top view's text fitting and
 * layout (common/top/top_text.h, top_screen.h). The input's first byte is a
 * width (1..128); the rest is a name, fitted alone and as the comm of a
 * drm_engine record laid out on a screen of that width (at least 20).
 * Under the UTF-8 locale every output must be valid multibyte text
 * without control characters (C0, DEL, C1, bidi), as wide as the fit says, and
 * no screen line wider than the screen; the name is also a container's
 * (its namespace, pod and id), and the first byte picks the scope and, on
 * a screen of a known height (its low bits: 0, or 3..34 lines, scrolled
 * as far as the name's length), no more lines than that. A violation
 * aborts.
 */
#include "common/core/text.h"
#include "common/top/top_model.h"
#include "common/top/top_screen.h"
#include "common/top/top_text.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* Display width of `s`, aborting on anything that is not printable. */
static int checked_width(const char *s) {
  mbstate_t st;
  memset(&st, 0, sizeof(st));
  size_t len = strlen(s);
  int cols = 0;
  for (size_t i = 0; i < len;) {
    wchar_t wc;
    size_t n = mbrtowc(&wc, s + i, len - i, &st);
    if (n == (size_t)-1 || n == (size_t)-2 || n == 0)
      abort();
    int w = wcwidth(wc);
    if (w < 0 || wc < 0x20 || (wc >= 0x7f && wc < 0xa0) ||
        text_bidi((uint32_t)wc))
      abort();
    cols += w;
    i += n;
  }
  return cols;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  static int locale_set;
  if (!locale_set) {
    if (setlocale(LC_CTYPE, "C.UTF-8") == NULL)
      abort();
    locale_set = 1;
  }
  if (size < 1)
    return 0;
  int width = 1 + data[0] % 128;
  char *name = malloc(size);
  if (name == NULL)
    return 0;
  memcpy(name, data + 1, size - 1);
  name[size - 1] = '\0';

  char out[600] = "";
  int used = top_text_fit(out, sizeof(out), name, width, 1);
  if (used != width || checked_width(out) != width)
    abort();

  struct top_model m;
  top_model_init(&m);
  m.base.begin(&m.base);
  struct metric r;
  metric_init(&r, "drm_engine", 1);
  metric_add_tag(&r, "scope", "process");
  metric_add_tag(&r, "device", name);
  metric_add_tag(&r, "engine", name);
  metric_add_tag(&r, "pid", "1");
  metric_add_tag(&r, "comm", name);
  metric_add_float(&r, "utilization", "percent", 1);
  m.base.write(&m.base, &r);
  metric_init(&r, "drm_engine", 1);
  metric_add_tag(&r, "scope", "container");
  metric_add_tag(&r, "device", name);
  metric_add_tag(&r, "engine", name);
  metric_add_tag(&r, "cgroup", name);
  metric_add_tag(&r, "container_runtime", name);
  metric_add_tag(&r, "namespace", name);
  metric_add_tag(&r, "pod", name);
  metric_add_tag(&r, "container", name);
  metric_add_tag(&r, "container_id", name);
  metric_add_float(&r, "utilization", "percent", 3);
  m.base.write(&m.base, &r);
  metric_init(&r, name[0] ? name : "x", 1);
  metric_add_tag(&r, "k", name);
  metric_add_float(&r, "v", "percent", 2);
  m.base.write(&m.base, &r);
  m.base.end(&m.base);
  struct top_options o;
  top_options_init(&o);
  o.cols = width < 20 ? 20 : width;
  o.raw = data[0] & 1;
  o.scope = (data[0] >> 1) & 1 ? TOP_SCOPE_CONTAINER : TOP_SCOPE_PROCESS;
  o.height = (data[0] >> 2) & 31 ? 2 + ((data[0] >> 2) & 31) : 0;
  o.first_row = size;
  struct top_screen s;
  memset(&s, 0, sizeof(s));
  top_render(&m, &o, &s);
  for (size_t i = 0; i < s.n; i++)
    if (checked_width(s.lines[i].text) > o.cols)
      abort();
  if (o.height > 0 && s.n > (size_t)o.height + 2)
    abort(); /* a tiny screen may keep the device line and column header */
  top_screen_fini(&s);
  top_model_fini(&m);
  free(name);
  return 0;
}
