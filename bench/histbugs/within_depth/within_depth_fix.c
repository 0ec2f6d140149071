/* bench/histbugs (not upstream): fixed version of within_depth(), from dir.c
   of git 2.55.0 (Debian source package git 1:2.55.0-1).
   Contains the fix, git commit 2a43e0e5503f ("within_depth: fix return for empty path").
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
	return depth <= max_depth;
}
