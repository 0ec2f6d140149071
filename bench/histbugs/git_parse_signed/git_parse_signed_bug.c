/* bench/histbugs (not upstream): faulty version of git_parse_signed(), from
   parse.c of git 2.47.3 (Debian source package git 1:2.47.3-0+deb13u1).
   The fault: the lower bound is -max instead of -max - 1.
   Kept verbatim: get_unit_factor() and git_parse_signed(); the other
   functions of parse.c are left out, and git's headers are replaced by
   git-shim.h.  Function under test: the wrapper git_parse_signed_fmt() at
   the end.  Git is GPL-2.0-only (COPYING of the git source). */

#include "git-shim.h" /* not upstream: replaces "git-compat-util.h", "gettext.h", "parse.h" */

static uintmax_t get_unit_factor(const char *end)
{
	if (!*end)
		return 1;
	else if (!strcasecmp(end, "k"))
		return 1024;
	else if (!strcasecmp(end, "m"))
		return 1024 * 1024;
	else if (!strcasecmp(end, "g"))
		return 1024 * 1024 * 1024;
	return 0;
}

int git_parse_signed(const char *value, intmax_t *ret, intmax_t max)
{
	if (value && *value) {
		char *end;
		intmax_t val;
		intmax_t factor;

		if (max < 0)
			BUG("max must be a positive integer");

		errno = 0;
		val = strtoimax(value, &end, 0);
		if (errno == ERANGE)
			return 0;
		if (end == value) {
			errno = EINVAL;
			return 0;
		}
		factor = get_unit_factor(end);
		if (!factor) {
			errno = EINVAL;
			return 0;
		}
		if ((val < 0 && -max / factor > val) ||
		    (val > 0 && max / factor < val)) {
			errno = ERANGE;
			return 0;
		}
		val *= factor;
		*ret = val;
		return 1;
	}
	errno = EINVAL;
	return 0;
}

/* Not upstream: wrapper with a signature mrfuzz can call.  Returns what
   git_parse_signed() returns (1: parsed, 0: rejected) and, on success, writes
   the parsed value in decimal to OUT (capacity CAP; "" on failure).  A
   negative MAX is a caller bug for which git calls BUG(), so the wrapper
   returns -1 instead.  */
int git_parse_signed_fmt(const char *value, long long max, char *out, size_t cap)
{
	intmax_t v = 0;
	int r;

	if (max < 0)
		return -1;
	r = git_parse_signed(value, &v, max);
	if (cap)
		snprintf(out, cap, "%jd", r ? v : (intmax_t) 0);
	if (!r && cap)
		out[0] = '\0';
	return r;
}
