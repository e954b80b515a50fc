package dev.arbor.storage.file;

import dev.arbor.session.SessionTree;
import dev.arbor.storage.LoadedSession;

/**
 * A loaded session's tree and how its file must be written next (whole, after a migration or repair; with a
 * newline first, after a torn tail). Guarded by the owning {@link StoredSession}'s lock.
 */
final class LoadedTree {

	final SessionTree tree;

	boolean needsRewrite;

	boolean needsBackup;

	boolean endsWithNewline;

	int malformedLines;

	long bytes;

	LoadedTree(LoadedSession session) {
		this.tree = session.tree();
		this.needsRewrite = session.needsRewrite();
		this.needsBackup = session.needsBackup();
		this.endsWithNewline = session.endsWithNewline() || session.fileLength() == 0;
		this.malformedLines = session.malformedLines().size();
		this.bytes = session.fileLength();
	}

}
