/* bench/histbugs (not upstream): faulty version of within_depth(), from dir.c
   of git 2.47.3 (Debian source package git 1:2.47.3-0+deb13u1).
   The fault: a NAME without a slash is always "within" MAX_DEPTH, even when the base DEPTH already exceeds it.
   Kept: dir.c's copyright notice and within_depth() verbatim; the rest of
   dir.c is left out and its headers are not needed.  Function under test:
   within_depth.  Git is GPL-2.0-only (COPYING of the git source). */

/*
 * This handles recursive filename detection with exclude
 * files, index knowledge etc..
 *
 * Copyright (C) Linus Torvalds, 2005-2006
 *		 Junio Hamano, 2005-2006
 */

int within_depth(const char *name, int namelen,
			int depth, int max_depth)
{
	const char *cp = name, *cpe = name + namelen;

	while (cp < cpe) {
		if (*cp++ != '/')
			continue;
		depth++;
		if (depth > max_depth)
			return 0;
	}
	return 1;
}
