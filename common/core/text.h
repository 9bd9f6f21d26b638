/*
 * text.h: taming strings that come from the kernel or from other processes
 * (process names, cgroup paths, driver names) before they become tags.
 *
 * Process names are chosen by whoever runs the process: they can hold
 * newlines, quotes, backslashes, separators and bytes that are not UTF-8.
 * text_sanitize() makes a bounded, printable, valid UTF-8 copy; every sink
 * then applies its own escaping on top, and decides what is printable by
 * the same rule (text_char), so that a name a core forgot to sanitise
 * (a field key built from a directory listing) or a log message is held
 * to it too.
 */
#ifndef COMMON_CORE_TEXT_H
#define COMMON_CORE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The one rule of what may be printed. Returns how many bytes the
 * character at `s` takes (1..4; at most `avail`, which must be > 0), and
 * sets *printable to false when it may not be printed as it is: a control
 * character (C0 below 0x20, DEL, and C1 U+0080..U+009F, among them U+009B,
 * a one-character CSI that terminals obey; a C1 character is 2 bytes), a
 * bidirectional formatting character (U+061C, U+200E, U+200F,
 * U+202A..U+202E, U+2066..U+2069: invisible, they reorder what follows;
 * 2 or 3 bytes), or a byte that does not start valid UTF-8 (a stray byte,
 * an overlong form, a surrogate, a code point past U+10FFFF, a sequence
 * cut short: 1 byte).
 * Every sink replaces such a character with one '?'. Pure.
 */
size_t text_char(const char *s, size_t avail, bool *printable);

/* True for the code points of the bidirectional formatting characters
 * text_char refuses (for a decoder of its own: the live view's wide
 * characters). Pure. */
bool text_bidi(uint32_t cp);

/*
 * Copy at most `in_len` bytes of `in` to `out` (size `out_size` > 0), always
 * NUL-terminated, never splitting a UTF-8 sequence. A control character
 * (C0, DEL, C1, bidi: text_char) becomes one '?', and so does each byte that
 * is not part of a valid UTF-8 sequence. Trailing spaces are removed.
 * Returns the output length.
 */
size_t text_sanitize(char *out, size_t out_size, const char *in, size_t in_len);

/* "~" and 16 lowercase hex digits: the mark of a cut name. */
#define TEXT_KEYED_SUFFIX_LEN 17

/*
 * For names that identify a series (cgroup paths, event texts): like
 * text_sanitize(), but when the whole sanitised name does not fit, keep the
 * longest prefix that does with room for "~" and 16 hex digits of the 64-bit
 * FNV-1a hash of all `in_len` raw bytes, so that names differing only past
 * the cut stay distinct. `out_size` must exceed TEXT_KEYED_SUFFIX_LEN.
 * Returns the output length.
 */
size_t text_sanitize_keyed(char *out, size_t out_size, const char *in,
                           size_t in_len);

/* 64-bit FNV-1a of `len` bytes. */
uint64_t text_hash64(const void *data, size_t len);

/* The same, fed in pieces: start from TEXT_HASH64_INIT (the FNV-1a 64
 * offset basis) and pass each piece with the running hash. */
#define TEXT_HASH64_INIT UINT64_C(0xcbf29ce484222325)
uint64_t text_hash64_step(uint64_t h, const void *data, size_t len);

#endif
