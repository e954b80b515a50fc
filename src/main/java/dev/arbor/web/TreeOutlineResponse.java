package dev.arbor.web;

import java.util.List;

import dev.arbor.session.EntryLine;
import dev.arbor.session.Timestamps;
import dev.arbor.session.TreeOutline;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * The outline of a session's tree (docs/API.md#tree): chains of single-child entries folded into segments.
 *
 * @param leafId the leaf
 * @param entryCount every entry of the tree once; the segments' lengths add up to it
 * @param segments depth-first, in the order of the rows of the {@code all} view
 */
@Schema(name = "TreeOutline", description = "The tree folded into segments (chains of single-child entries), flat, depth-first in row order.")
record TreeOutlineResponse(@Schema(description = "The leaf; null while there is none.", example = "c3d4e5f6") @Nullable String leafId,
		@Schema(description = "Every entry of the tree once: the segments' lengths add up to it.", example = "132") int entryCount,
		@Schema(description = "Depth-first, in the order of the rows of the `all` view: the segment holding the leaf before its siblings, the others by timestamp.") List<Segment> segments) {

	/**
	 * One segment.
	 *
	 * @param firstId its first entry, by which the segment is known
	 * @param lastId its last entry: a branch point, or an entry without children
	 * @param length its entries, both ends included
	 * @param parentId the branch point above it; {@code null} for a root
	 * @param depth segments above it
	 * @param childSegments the first entries of the segments below it, in row order
	 * @param onActivePath whether it holds the leaf or one of its ancestors
	 * @param containsLeaf whether it holds the leaf
	 * @param firstUserText the preview of its first user message
	 * @param labelCount its entries that carry a label
	 * @param firstTimestamp its first entry's time
	 * @param lastTimestamp its last entry's time
	 * @param firstRowId its first entry that is a row of the {@code all} view
	 * @param lastRowId its last entry that is a row of the {@code all} view
	 */
	@Schema(name = "TreeSegment", description = "A maximal chain of entries in which every entry but the last has exactly one child.")
	record Segment(@Schema(description = "Its first entry: a root or a child of a branch point. The segment is known by this id.", example = "a1b2c3d4") String firstId,
			@Schema(description = "Its last entry: a branch point, or an entry without children.", example = "c3d4e5f6") String lastId,
			@Schema(description = "How many entries it holds, both ends included.", example = "3") int length,
			@Schema(description = "The branch point it hangs under (the `lastId` of its parent segment); null for a root.", example = "f6e5d4c3") @Nullable String parentId,
			@Schema(description = "How many segments lie above it: roots are 0.", example = "1") int depth,
			@Schema(description = "The `firstId` of each segment below it, in row order: the one holding the leaf first, the others by timestamp. Empty when `lastId` has no children.", example = "[]") List<String> childSegments,
			@Schema(description = "Whether any of its entries is the leaf or one of the leaf's ancestors.", example = "true") boolean onActivePath,
			@Schema(description = "Whether the leaf is one of its entries.", example = "true") boolean containsLeaf,
			@Schema(description = "The text of its first user message as its row shows it after `user: `: one line, at most 200 characters. Null when it holds none.", example = "Make the config loader read env vars") @Nullable String firstUserText,
			@Schema(description = "How many of its entries carry a label.", example = "0") int labelCount,
			@Schema(description = "Its first entry's timestamp, UTC with milliseconds; null when it has none that can be read.", example = "2025-11-20T23:33:01.550Z") @Nullable String firstTimestamp,
			@Schema(description = "Its last entry's timestamp, UTC with milliseconds; null when it has none that can be read.", example = "2025-11-20T23:33:05.120Z") @Nullable String lastTimestamp,
			@Schema(description = "Its first entry that is a row of the `all` view: start expanding here (`from`). Differs from `firstId` only when the segment starts with tool-call-only assistant messages, which no view shows unless one is the leaf; null when none of its entries is a row.", example = "a1b2c3d4") @Nullable String firstRowId,
			@Schema(description = "Its last entry that is a row of the `all` view: expanding ends with this row. Null when none of its entries is a row.", example = "c3d4e5f6") @Nullable String lastRowId) {

		static Segment of(TreeOutline.Segment segment) {
			return new Segment(segment.first().id(), segment.last().id(), segment.length(), segment.parentId(),
					segment.depth(), segment.childSegments(), segment.onActivePath(), segment.containsLeaf(),
					segment.firstUserText(), segment.labelCount(), isoTimestamp(segment.first()),
					isoTimestamp(segment.last()), segment.firstRowId(), segment.lastRowId());
		}

		private static @Nullable String isoTimestamp(EntryLine entry) {
			long millis = entry.timestamp();
			return (millis != Timestamps.UNKNOWN) ? Timestamps.format(millis) : null;
		}

	}

	static TreeOutlineResponse of(TreeOutline outline) {
		return new TreeOutlineResponse(outline.leafId(), outline.entryCount(),
				outline.segments().stream().map(Segment::of).toList());
	}

}
