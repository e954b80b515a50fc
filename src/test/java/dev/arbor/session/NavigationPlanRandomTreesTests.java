package dev.arbor.session;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static dev.arbor.session.Entries.assistant;
import static dev.arbor.session.Entries.at;
import static dev.arbor.session.Entries.ids;
import static dev.arbor.session.Entries.tree;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A navigation plan finds where the old leaf's path forks from the target's without walking whole paths
 * (docs/SESSION-FORMAT.md#navigation); on random forests, with dangling and self parents, it agrees with the
 * definition: the common ancestor ends the two paths' common prefix, and the old path below it is abandoned. Paths,
 * whose lengths the tree keeps, agree with a walk up the parent ids, whatever the order of the file, round cycles too.
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


	@Test
	void getPathOnRandomForestsWithLaterParentsAndCyclesShouldWalkUpTheParentIds() {
		Random random = new Random(1414);
		for (int round = 0; round < 300; round++) {
			int size = 1 + random.nextInt(40);
			Map<String, String> parents = new HashMap<>();
			List<EntryLine> entries = new ArrayList<>();
			for (int i = 0; i < size; i++) {
				int kind = random.nextInt(10);
				// Any entry of the file may be the parent, a later one too: cycles and chains written backwards.
				String parent = (kind == 0) ? null : (kind == 1) ? "gone" : (kind == 2) ? "e" + i
						: "e" + random.nextInt(size);
				parents.put("e" + i, parent);
				entries.add(assistant("e" + i, parent, at(i), "p", "m", "text " + i));
			}
			SessionTree tree = tree(entries.toArray(new EntryLine[0]));
			for (int i = 0; i < 5; i++) {
				String parent = "e" + random.nextInt(parents.size());
				parents.put("e" + parents.size(), parent);
				tree.append(List.of(assistant("e" + (parents.size() - 1), parent, at(100 + i), "p", "m", "more")));
			}
			for (String id : parents.keySet()) {
				assertThat(ids(tree.getPath(id))).as("round %d, path to %s", round, id).isEqualTo(walkUp(parents, id));
			}
			String leaf = "e" + random.nextInt(parents.size());
			tree.branch(leaf);
			String target = "e" + random.nextInt(parents.size());
			// Round a cycle the plan takes the deepest shared entry (the first test's definition needs a root).
			if (!target.equals(leaf) && endsAtRoot(parents, leaf) && endsAtRoot(parents, target)) {
				List<String> oldPath = walkUp(parents, leaf);
				List<String> targetPath = walkUp(parents, target);
				int common = 0;
				while (common < oldPath.size() && common < targetPath.size()
						&& oldPath.get(common).equals(targetPath.get(common))) {
					common++;
				}
				assertThat(ids(NavigationPlan.of(tree, target).entriesToSummarize()))
					.isEqualTo(oldPath.subList(common, oldPath.size()));
			}
		}
	}

	private static boolean endsAtRoot(Map<String, String> parents, String id) {
		List<String> path = walkUp(parents, id);
		String parent = parents.get(path.get(0));
		return parent == null || !parents.containsKey(parent) || parent.equals(path.get(0));
	}

	/** Root first: up the parent ids until one names no entry or itself, or until the walk repeats (a cycle). */
	private static List<String> walkUp(Map<String, String> parents, String id) {
		List<String> path = new ArrayList<>();
		Set<String> seen = new HashSet<>();
		for (String current = id; current != null && parents.containsKey(current) && seen.add(current);) {
			path.add(0, current);
			String parent = parents.get(current);
			current = current.equals(parent) ? null : parent;
		}
		return path;
	}

}
