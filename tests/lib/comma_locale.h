/*
 * comma_locale.h: switch LC_NUMERIC to a locale whose decimal separator is
 * ',' (STYLE.md 9: every parser is tested under a comma-decimal locale).
 *
 * An installed locale (de_DE, fr_FR, ...) is used when there is one.
 * Otherwise a tiny LC_NUMERIC-only locale "xx_XX" is compiled with
 * localedef (a few ms, needs the `locales` i18n sources that libc-bin's
 * localedef reads) into a mkdtemp directory named by LOCPATH, removed at
 * exit. Nothing is installed on the system.
 */
#ifndef TESTS_LIB_COMMA_LOCALE_H
#define TESTS_LIB_COMMA_LOCALE_H

/* Set LC_NUMERIC to a comma-decimal locale. Returns its name (static), or
 * NULL when none can be had: the caller then skips that case. */
const char *comma_locale_set(void);

/* Put LC_NUMERIC back to "C". */
void comma_locale_reset(void);

#endif
