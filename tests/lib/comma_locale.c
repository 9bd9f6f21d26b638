/*
 * comma_locale.c: a comma-decimal LC_NUMERIC for tests (see
 * comma_locale.h). The generated locale holds only LC_NUMERIC; glibc's
 * setlocale() reads LOCPATH at every call, so setting it at run time works.
 */
#include "tests/lib/comma_locale.h"

#include <fcntl.h>
#include <ftw.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char comma_locale_dir[64];

static int comma_locale_rm(const char *path, const struct stat *st, int flag,
                           struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  remove(path);
  return 0;
}

static void comma_locale_cleanup(void) {
  if (comma_locale_dir[0] != '\0')
    nftw(comma_locale_dir, comma_locale_rm, 8, FTW_DEPTH | FTW_PHYS);
  comma_locale_dir[0] = '\0';
}

static int comma_locale_try(const char *name) {
  if (setlocale(LC_NUMERIC, name) == NULL)
    return 0;
  if (strcmp(localeconv()->decimal_point, ",") == 0)
    return 1;
  setlocale(LC_NUMERIC, "C");
  return 0;
}

/* Compile "xx_XX" (LC_NUMERIC only, ASCII charmap) into a fresh temp dir. */
static int comma_locale_generate(void) {
  static const char source[] = "LC_NUMERIC\n"
                               "decimal_point \",\"\n"
                               "thousands_sep \".\"\n"
                               "grouping 3;3\n"
                               "END LC_NUMERIC\n";
  const char *tmp = getenv("TMPDIR");
  snprintf(comma_locale_dir, sizeof(comma_locale_dir), "%s/locale.XXXXXX",
           tmp && strlen(tmp) < 40 ? tmp : "/tmp");
  if (mkdtemp(comma_locale_dir) == NULL) {
    comma_locale_dir[0] = '\0';
    return 0;
  }
  atexit(comma_locale_cleanup);
  char src[96], out[96];
  snprintf(src, sizeof(src), "%s/src", comma_locale_dir);
  snprintf(out, sizeof(out), "%s/xx_XX", comma_locale_dir);
  FILE *f = fopen(src, "w");
  if (f == NULL)
    return 0;
  fputs(source, f);
  if (fclose(f) != 0)
    return 0;
  pid_t pid = fork();
  if (pid < 0)
    return 0;
  if (pid == 0) {
    /* -c: write the output despite the warnings about the categories
     * that are not defined (localedef then exits 1) */
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
      dup2(null, STDOUT_FILENO);
      dup2(null, STDERR_FILENO);
    }
    execlp("localedef", "localedef", "-c", "-i", src, "-f", "ANSI_X3.4-1968",
           out, (char *)NULL);
    _exit(127);
  }
  int status;
  if (waitpid(pid, &status, 0) != pid)
    return 0;
  setenv("LOCPATH", comma_locale_dir, /*overwrite=*/1);
  return comma_locale_try("xx_XX");
}

const char *comma_locale_set(void) {
  static const char *const installed[] = {
      "de_DE.UTF-8", "de_DE.utf8",  "fr_FR.UTF-8", "fr_FR.utf8",
      "nl_NL.UTF-8", "ru_RU.UTF-8", "de_DE",       "fr_FR",
  };
  for (size_t i = 0; i < sizeof(installed) / sizeof(installed[0]); i++)
    if (comma_locale_try(installed[i]))
      return installed[i];
  if (comma_locale_dir[0] != '\0')
    return comma_locale_try("xx_XX") ? "xx_XX" : NULL;
  return comma_locale_generate() ? "xx_XX" : NULL;
}

void comma_locale_reset(void) { setlocale(LC_NUMERIC, "C"); }
