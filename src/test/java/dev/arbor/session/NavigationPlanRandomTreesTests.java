package dev.arbor.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static dev.arbor.session.Entries.assistant;
import static dev.arbor.session.Entries.at;
import static dev.arbor.session.Entries.ids;
import static dev.arbor.session.Entries.tree;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A navigation plan finds where the old leaf's path forks from the target's without walking whole paths
 * (docs/SESSION-FORMAT.md §8); on random forests, with dangling and self parents, it agrees with the definition:
 * the common ancestor ends the two paths' common prefix, and the old path below it is abandoned.
 */
class NavigationPlanRandomTreesTests {

	@Test
	void ofOnRandomForestsShouldAgreeWithTheCommonPrefixOfThePaths() {
		Random random = new Random(14);
		for (int round = 0; round < 200; round++) {
			int size = 1 + random.nextInt(60);
			List<EntryLine> entries = new ArrayList<>();
			for (int i = 0; i < size; i++) {
				int kind = random.nextInt(10);
				String parent = (i == 0 || kind == 0) ? null : (kind == 1) ? "gone" : (kind == 2) ? "e" + i
						: "e" + random.nextInt(i);
				entries.add(assistant("e" + i, parent, at(i), "p", "m", "text " + i));
			}
			SessionTree tree = tree(entries.toArray(new EntryLine[0]));
			String leaf = "e" + random.nextInt(size);
			tree.branch(leaf);
			String target = "e" + random.nextInt(size);

			NavigationPlan plan = NavigationPlan.of(tree, target);

			List<EntryLine> oldPath = tree.getPath(leaf);
			List<EntryLine> targetPath = tree.getPath(target);
			int common = 0;
			while (common < oldPath.size() && common < targetPath.size() && oldPath.get(common) == targetPath.get(common)) {
				common++;
			}
			if (target.equals(leaf)) {
				assertThat(plan.noOp()).isTrue();
				continue;
			}
			assertThat(plan.commonAncestorId()).isEqualTo((common > 0) ? oldPath.get(common - 1).id() : null);
			assertThat(ids(plan.entriesToSummarize())).isEqualTo(ids(oldPath.subList(common, oldPath.size())));
			assertThat(plan.newLeafId()).isEqualTo(target);
		}
	}

}
